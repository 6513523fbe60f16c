import Foundation
import Testing
import ElbowroomCore
import ElbowroomTestSupport

/// Reset times and window lengths out of range, from every provider elbowroom decodes outside
/// numbers of (issue 30, item 1): Codex's usage endpoint, Codex's session logs and a source
/// plugin. A reset in milliseconds (`1795780000000`, an ordinary mistake) is read as such; a
/// sentinel such as `1e300` drops its window — never the cache and its fetch state, never the
/// fetcher (no integer conversion of outside data may trap). Through the built `elbowroom` and
/// `elbowroom-fetch`, against a loopback stand-in for Codex's endpoint.
@Suite(.serialized) struct EndToEndHostileTimesTests {
    static var inAnHour: Int { Int(Date().timeIntervalSince1970) + 3600 }

    /// Real shape: the Plus capture of CODEX.md §3 (5 h + 7 d); the reset in milliseconds and the
    /// `1e300` sentinel are the hostile values of issue 30, item 1.
    @Test func codexsEndpointWithAResetInMillisecondsAndOneOfNoTime() throws {
        let setup = try CodexStandIn(account: #"provider = "codex""#)
        let ms = Self.inAnHour * 1000
        let body = #"{"plan_type":"plus","rate_limit":{"allowed":true,"limit_reached":false,"primary_window":{"used_percent":37,"limit_window_seconds":18000,"reset_after_seconds":3600,"reset_at":\#(ms)},"secondary_window":{"used_percent":59,"limit_window_seconds":604800,"reset_after_seconds":3600,"reset_at":1e300}},"additional_rate_limits":[{"limit_name":"Odd","metered_feature":"odd","rate_limit":{"primary_window":{"used_percent":90,"limit_window_seconds":1e300,"reset_at":\#(Self.inAnHour)},"secondary_window":{"used_percent":10,"limit_window_seconds":-5,"reset_after_seconds":1e300}}}]}"#
        setup.codex.setHandler { _ in .json(200, body) }
        let (line, cache) = try setup.renderTwice { setup.codex.requests.count }
        #expect(setup.codex.requests.count == 1)
        let five = try #require(cache.reading?.window(key: "five_hour"), "the millisecond reset is read as such")
        #expect(abs((five.resetsAt?.timeIntervalSince1970 ?? 0) - Double(Self.inAnHour)) < 5)
        #expect(cache.reading?.window(key: "seven_day") == nil, "the 1e300 reset drops its window")
        #expect(cache.reading?.notes?.contains { $0.contains("reset_at") } == true)
        #expect(line.contains("5h 63%"), "\(line)")
    }

    /// Real shape: a `token_count` event as Codex 0.58 writes it (CODEX.md §5); hostile values as above.
    @Test func codexsSessionLogWithAResetInMillisecondsAndOneOfNoTime() throws {
        let setup = try CodexStandIn(account: "provider = \"codex\"\ncodex_source = \"logs\"")
        let dir = setup.codexHome + "/sessions/2026/11/24"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let stamp = ISO8601.format(Date().addingTimeInterval(-60))
        let line = #"{"timestamp":"\#(stamp)","type":"event_msg","payload":{"type":"token_count","info":null,"rate_limits":{"limit_id":"codex","primary":{"used_percent":7.0,"window_minutes":300,"resets_at":\#(Self.inAnHour * 1000)},"secondary":{"used_percent":77.0,"window_minutes":10080,"resets_at":1e300},"tertiary":{"used_percent":5.0,"window_minutes":1e300,"resets_at":\#(Self.inAnHour)}}}}"#
        try (line + "\n").write(toFile: dir + "/rollout-2026-11-24T10-00-00-abc.jsonl", atomically: true, encoding: .utf8)
        let (shown, cache) = try setup.renderTwice { setup.caches.first??.fetch.lastAttempt == nil ? 0 : 1 }
        #expect(cache.reading?.window(key: "five_hour")?.used == 7)
        #expect(cache.reading?.window(key: "seven_day") == nil)
        #expect(cache.reading?.source == .sessionLog)
        #expect(shown.contains("5h 93%"), "\(shown)")
    }

    /// Shape: a plugin's output as docs/accounts-and-agents.md defines it; hostile values as above.
    @Test func aSourcePluginWithAResetInMillisecondsAndOneOfNoTime() throws {
        let setup = try CodexStandIn(account: #"provider = "plugin:odd""#)
        let sources = setup.e2e.sandbox.configHome + "/elbowroom/sources"
        try FileManager.default.createDirectory(atPath: sources, withIntermediateDirectories: true)
        let count = setup.e2e.sandbox.root + "/runs"
        let output = #"{"version":1,"windows":[{"key":"5h","used":20,"resets_at":\#(Self.inAnHour * 1000)},{"key":"7d","used":50,"resets_at":1e300},{"key":"odd","used":5,"resets_at":"9999-12-31T23:59:59Z"}]}"#
        try FileSystem.writeAtomically(Data("#!/bin/sh\necho run >> '\(count)'\necho '\(output)'\n".utf8),
                                       to: sources + "/elbowroom-source-odd", mode: 0o755)
        let runs = { (try? String(contentsOfFile: count, encoding: .utf8))?.split(separator: "\n").count ?? 0 }
        let (shown, cache) = try setup.renderTwice(requests: runs)
        #expect(runs() == 1)
        #expect(cache.reading?.window(key: "five_hour")?.used == 20)
        #expect(cache.reading?.window(key: "seven_day") == nil)
        #expect(cache.reading?.window(key: "odd") == nil)
        #expect(cache.reading?.source == .plugin)
        #expect(shown.contains("5h 80%"), "\(shown)")
    }
}
