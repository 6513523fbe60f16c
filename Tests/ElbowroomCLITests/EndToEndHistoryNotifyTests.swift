import Foundation
import ElbowroomCore
import ElbowroomTestSupport
import Testing

@Suite struct EndToEndHistoryTests {
    @Test func aPromptWhoseTemplateShowsNoHistoryNeverOpensTheHistoryFile() throws {
        let e = try EndToEnd(usage: .hang)
        try e.seedCache(fiveHour: 20, age: 5)
        // A FIFO where the history belongs: a render that reads the history refuses it and says
        // so under --verbose; one that never opens it says nothing.
        #expect(mkfifo(e.sandbox.paths.historyFile, 0o600) == 0)
        for arguments in [["--offline"], ["--offline", "-a", "bash"], ["--offline", "-a", "tmux", "-t", "minimal"],
                          ["--offline", "-a", "claude"]] {
            let run = try runBounded(e.elbowroom, arguments + ["-v"], environment: e.sandbox.environment, seconds: 5)
            #expect(run?.status == 0, "\(arguments)")
            #expect(run?.stderr == "", "\(arguments) opened the history file")
        }
        let full = try #require(try runBounded(e.elbowroom, ["--offline", "-v", "-t", "full"],
                                               environment: e.sandbox.environment, seconds: 5))
        #expect(full.status == 0)
        #expect(full.stdout.hasPrefix("5h 80%"))
        #expect(full.stderr == "elbowroom: ignoring the usage history: \(e.sandbox.paths.historyFile) is a fifo, not a regular file\n")
    }

    @Test func historySaysWhyItCannotReadARefusedFile() throws {
        let e = try EndToEnd(usage: .hang)
        try FileManager.default.createDirectory(atPath: e.sandbox.paths.cacheDir, withIntermediateDirectories: true)
        #expect(mkfifo(e.sandbox.paths.historyFile, 0o600) == 0)
        let run = try #require(try runBounded(e.elbowroom, ["history"], environment: e.sandbox.environment, seconds: 5))
        #expect(run.status == 1)
        #expect(run.stderr == "elbowroom: cannot read the usage history: \(e.sandbox.paths.historyFile) is a fifo, not a regular file\n")
    }

    @Test func elbowroomNowPinsTheRenderAndTheFetchersTimestamps() throws {
        let e = try EndToEnd()
        e.sandbox.extra["ELBOWROOM_NOW"] = "1800000000"
        e.anthropic.configure {
            $0.usageReply = .json(200, #"{"five_hour":{"utilization":25,"resets_at":"2027-01-15T10:13:00Z"}}"#)
        }
        let fetched = try e.run(["fetch"])
        #expect(fetched.status == 0)
        let cache = try #require(CacheStore(paths: e.sandbox.paths).load())
        #expect(cache.reading?.fetchedAt == Date(timeIntervalSince1970: 1_800_000_000))
        #expect(HistoryStore(paths: e.sandbox.paths).load().samples.map(\.at) == [1_800_000_000])
        let run = try e.run(["--offline", "-t", "{5h.left}% ↻{5h.resets_in} {age} {5h.resets_at|time(\"%H:%M:%S\")}"])
        #expect(run.stdout.hasPrefix("75% ↻2h13m 0s "))
        e.sandbox.extra["ELBOWROOM_NOW"] = "later"
        let bad = try e.run(["--offline", "-t", "{5h.left}%"])
        #expect(bad.stdout == "75%\n")
        #expect(bad.stderr == "elbowroom: ELBOWROOM_NOW must be Unix epoch seconds, such as 1800000000, not 'later'; using the real clock\n")
    }

    @Test func historyAndRateFromStatusLineRuns() throws {
        let e = try EndToEnd(usage: .hang)
        try e.sandbox.writeConfig("source = \"statusline\"\n")
        let start = 1_800_000_000
        let reset = start + 3 * 3600
        for minute in 0...20 {
            e.sandbox.extra["ELBOWROOM_NOW"] = String(start + minute * 60)
            let stdin = #"{"rate_limits":{"five_hour":{"used_percentage":\#(40 + minute),"resets_at":\#(reset)}}}"#
            let run = try e.run(["-a", "claude", "-t", "{5h.left}%( {5h.rate|fixed(1)}%/h)( out in {5h.eta})"], stdin: stdin)
            #expect(run.status == 0)
            if minute == 20 { #expect(run.stdout.contains("40% 60.0%/h out in 40m"), "\(run.stdout.debugDescription)") }
        }
        let csv = try e.run(["history", "--csv", "--since", "5m"])
        #expect(csv.stdout.split(separator: "\n").count == 7, "a header and minutes 15 to 20")
        #expect(csv.stdout.hasSuffix("2027-01-15T08:20:00Z,1800001200,five_hour,5h,60,2027-01-15T11:00:00Z\n"))
        #expect(e.usageRequests == 0)
    }
}

@Suite struct EndToEndNotifyTests {
    /// A cache with the session window at warn (20 % left, lasting until its reset at this
    /// pace) and the weekly one at critical (5 % left): two crossings.
    static func seedTwoCrossings(_ e: EndToEnd) throws {
        let now = Date()
        try SeededCache.save([("five_hour", 80, now.addingTimeInterval(1800)), ("seven_day", 95, now.addingTimeInterval(3600))],
                             observed: now, paths: e.sandbox.paths)
    }

    @Test func twentyConcurrentRunsSendOneNotificationPerCrossing() throws {
        let e = try EndToEnd(usage: .hang)
        let events = e.sandbox.root + "/events.jsonl"
        try e.sandbox.writeConfig("timeout = 3\nnotify_command = \"cat >> '\(events)'\"\n")
        try Self.seedTwoCrossings(e)
        let waits = try (0..<20).map { _ in
            try BuiltExecutable.start(e.elbowroom, arguments: ["notify", "--offline"], environment: e.sandbox.environment)
        }
        let runs = waits.map { $0() }
        #expect(runs.allSatisfy { $0.status == 0 }, "\(runs.map(\.stderr))")
        #expect(runs.map(\.stdout).joined().split(separator: "\n").sorted()
            == ["notified: Claude Session: 20% left (warn)", "notified: Claude Weekly: 5% left (critical)"])
        let lines = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
        let kinds = try lines.map { line -> String in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return "\(object["name"] as? String ?? "?") \(object["event"] as? String ?? "?") \(object["urgency"] as? String ?? "?")"
        }
        #expect(kinds.sorted() == ["5h warn normal", "7d critical critical"])
    }

    /// A notifier that hangs (up to its 10 s timeout, per event) holds back neither the frames nor
    /// SIGTERM: notifications are sent off the frame loop.
    @Test func watchNotifyNeverWaitsForANotifierBeforeAFrameOrASignal() throws {
        let e = try EndToEnd(usage: .hang)
        let started = e.sandbox.root + "/started"
        try e.sandbox.writeConfig("notify_command = \"touch '\(started)'; cat >/dev/null; sleep 30\"\n")
        try Self.seedTwoCrossings(e)
        let begun = Date()
        let watch = try EndToEndWatchTests.Watch(e, ["-a", "plain", "--offline", "--notify", "--interval", "0.1"])
        #expect(watch.waitForLines(1, seconds: 3), "no frame while the notifier hangs")
        #expect(Eventually.within(5) { FileManager.default.fileExists(atPath: started) }, "the notifier never ran")
        kill(watch.process.processIdentifier, SIGTERM)
        // Exited, as the kernel sees it: Foundation's Process notices an exit only once every copy
        // of a descriptor it hands the child is closed, and the hanging notifier still holds one.
        let pid = watch.process.processIdentifier
        let exited = {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return !watch.process.isRunning }
            return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
        }
        #expect(Eventually.within(2) { exited() }, "SIGTERM waited for the notifier")
        #expect(Date().timeIntervalSince(begun) < 8)
    }

    @Test func watchNotifyNotifiesOnceWhileItRuns() throws {
        let e = try EndToEnd(usage: .hang)
        let events = e.sandbox.root + "/events.jsonl"
        try e.sandbox.writeConfig("timeout = 3\nnotify_command = \"cat >> '\(events)'\"\n")
        try Self.seedTwoCrossings(e)
        let watch = try EndToEndWatchTests.Watch(e, ["-a", "plain", "--offline", "--notify", "--interval", "0.1"])
        let sent = { (try? String(contentsOfFile: events, encoding: .utf8))?.split(separator: "\n").count ?? 0 }
        #expect(Eventually.within(5) { sent() == 2 })
        // Another bar and a timer find both claimed.
        let timer = try e.run(["notify", "--offline"])
        #expect(timer.stdout.isEmpty)
        usleep(500_000)
        #expect(sent() == 2)
        kill(watch.process.processIdentifier, SIGTERM)
        #expect(watch.exitStatus(within: 3) == 0)
    }
}

/// A real notification daemon: `dunst` on a private session bus under Xvfb, with its record of
/// what arrived read back through `dunstctl` and a dunst rule script (for the urgency).
@Suite struct DunstNotifyTests {
    @Test(.enabled(if: DunstSession.available, DunstSession.why))
    func twentyConcurrentRunsShowOneNotificationPerCrossingOnARealDaemon() throws {
        let e = try EndToEnd(usage: .hang)
        try e.sandbox.writeConfig("timeout = 3\n")
        try EndToEndNotifyTests.seedTwoCrossings(e)
        let dir = e.sandbox.root
        try "#!/bin/sh\nprintf '%s|%s|%s\\n' \"$1\" \"$2\" \"$5\" >> '\(dir)/urgencies'\n"
            .write(toFile: dir + "/record.sh", atomically: true, encoding: .utf8)
        chmod(dir + "/record.sh", 0o755)
        let rule = "    script = \(dir)/record.sh\n"
        try "[urgency_low]\n\(rule)[urgency_normal]\n\(rule)[urgency_critical]\n\(rule)"
            .write(toFile: dir + "/dunstrc", atomically: true, encoding: .utf8)
        let run = try #require(try DunstSession.run(e, dunstrc: dir + "/dunstrc", body: """
            runs=""
            for i in $(seq 20); do
                '\(e.elbowroom)' notify --offline >>'\(dir)/out' 2>>'\(dir)/err' &
                runs="$runs $!"
            done
            wait $runs
            """), "the session hung")
        let err = (try? String(contentsOfFile: dir + "/err", encoding: .utf8)) ?? ""
        #expect(err.isEmpty, "\(err)")
        #expect(run.stdout.hasPrefix("history 2\n"), "\(run.stdout.prefix(200)) \(run.stderr)")
        let history = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.drop { $0 != "{" }.utf8)) as? [String: Any])
        let shown = ((history["data"] as? [[[String: Any]]])?.first ?? []).compactMap { n in
            ((n["summary"] as? [String: Any])?["data"] as? String).map { "\(((n["appname"] as? [String: Any])?["data"] as? String) ?? "?"): \($0)" }
        }
        #expect(shown.sorted() == ["elbowroom: Claude Session: 20% left", "elbowroom: Claude Weekly: 5% left"])
        #expect(Eventually.within(3) {
            ((try? String(contentsOfFile: dir + "/urgencies", encoding: .utf8)) ?? "").split(separator: "\n").sorted()
                == ["elbowroom|Claude Session: 20% left|NORMAL", "elbowroom|Claude Weekly: 5% left|CRITICAL"]
        })
    }
}
