import Foundation
import ElbowroomCore
import ElbowroomTestSupport
import Testing

/// `[notify] unused`: use it or lose it, through the built program with a pinned clock.
@Suite struct EndToEndUnusedNotifyTests {
    static let now = 1_800_000_000

    /// A weekly window with 60 % left that resets in 52 minutes, and a session window with 90 %
    /// left four hours from its reset, as of `now`.
    static func seed(_ e: EndToEnd) throws {
        let now = Date(timeIntervalSince1970: TimeInterval(Self.now))
        try SeededCache.save([("five_hour", 10, now.addingTimeInterval(4 * 3600)), ("seven_day", 40, now.addingTimeInterval(52 * 60))],
                             observed: now, paths: e.sandbox.paths)
    }

    @Test func aWindowAboutToResetWithMostOfItLeftNotifiesOnceAsJSON() throws {
        let e = try EndToEnd(usage: .hang)
        let events = e.sandbox.root + "/events.jsonl"
        try e.sandbox.writeConfig("timeout = 3\nnotify_command = \"cat >> '\(events)'\"\n")
        e.sandbox.extra["ELBOWROOM_NOW"] = String(Self.now)
        try Self.seed(e)
        let first = try e.run(["notify", "--offline"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "notified: Claude Weekly: 60% left, resets in 52m (unused)\n")
        // Every later check in the same window instance finds it claimed.
        e.sandbox.extra["ELBOWROOM_NOW"] = String(Self.now + 600)
        let again = try e.run(["notify", "--offline"])
        #expect(again.status == 0 && again.stdout.isEmpty)
        let lines = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(event["event"] as? String == "unused")
        #expect(event["name"] as? String == "7d")
        #expect(event["left"] as? Double == 60)
        #expect(event["resets_in"] as? Double == 3120)
        #expect(event["urgency"] as? String == "normal")
        #expect(event["title"] as? String == "Claude Weekly: 60% left, resets in 52m")
        #expect(e.usageRequests == 0)
    }

    @Test func theWindowAndTheShareAreTheUsersAndTheEventCanBeTurnedOff() throws {
        let e = try EndToEnd(usage: .hang)
        e.sandbox.extra["ELBOWROOM_NOW"] = String(Self.now)
        // Half an hour is too short for a reset 52 minutes away.
        try e.sandbox.writeConfig("timeout = 3\nnotify_command = \"cat >/dev/null\"\n[notify]\nunused_before = \"30m\"\n")
        try Self.seed(e)
        #expect(try e.run(["notify", "--offline"]).stdout == "")
        // 70 % is more than the weekly window has left.
        try e.sandbox.writeConfig("timeout = 3\nnotify_command = \"cat >/dev/null\"\n[notify]\nunused_left = 70\n")
        try CacheStore(paths: e.sandbox.paths).clear()
        try Self.seed(e)
        #expect(try e.run(["notify", "--offline"]).stdout == "")
        try e.sandbox.writeConfig("timeout = 3\nnotify_command = \"cat >/dev/null\"\n[notify]\nunused = false\n")
        try CacheStore(paths: e.sandbox.paths).clear()
        try Self.seed(e)
        #expect(try e.run(["notify", "--offline"]).stdout == "")
        // Within five hours of a reset with 30 % left: both windows.
        try e.sandbox.writeConfig("timeout = 3\nnotify_command = \"cat >/dev/null\"\n[notify]\nunused_before = \"5h\"\nunused_left = 30\n")
        try CacheStore(paths: e.sandbox.paths).clear()
        try Self.seed(e)
        let both = try e.run(["notify", "--offline"])
        #expect(both.stdout.split(separator: "\n").sorted() == [
            "notified: Claude Session: 90% left, resets in 4h (unused)",
            "notified: Claude Weekly: 60% left, resets in 52m (unused)",
        ])
        let bad = try { try e.sandbox.writeConfig("[notify]\nunused_before = \"soon\"\n"); return try e.run(["notify", "--offline"]) }()
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("'notify.unused_before' must be a duration such as \"1h\""))
    }
}
