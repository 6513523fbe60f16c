import Foundation
import ElbowroomCore
import ElbowroomTestSupport
import Testing

/// Many processes at once, as a tiling desktop really runs them: every prompt, pane and bar
/// renders at the same moment, and each may find a refresh due.
@Suite(.serialized) struct RaceTests {
    /// Starts `count` copies of the built `elbowroom` at once and waits for all.
    func race(_ e: EndToEnd, _ count: Int, _ arguments: [String]) throws -> [BuiltExecutable.Run] {
        let waits = try (0..<count).map { _ in
            try BuiltExecutable.start(e.elbowroom, arguments: arguments, environment: e.sandbox.environment)
        }
        return waits.map { $0() }
    }

    @Test func aHundredRendersWithARefreshDueMakeOneRequestAndAllPrint() throws {
        let e = try EndToEnd()
        let anthropic = e.anthropic
        e.server.setHandler { request in
            usleep(300_000)  // slow, so the late starters find the first fetch still running
            return anthropic.handle(request)
        }
        try e.seedCache(fiveHour: 20, age: 600)
        let runs = try race(e, 100, ["-a", "plain", "-t", "{5h.left}%"])
        #expect(runs.allSatisfy { $0.status == 0 })
        #expect(runs.allSatisfy { $0.stdout == "80%\n" || $0.stdout == "37%\n" }, "\(Set(runs.map(\.stdout)))")
        #expect(Eventually.within(5) { CacheStore(paths: e.sandbox.paths).load()?.reading?.window(key: "five_hour")?.used == 63 })
        usleep(500_000)
        #expect(e.usageRequests == 1)
    }

    @Test func twentyFetchesWithAnExpiredTokenMakeOneRefreshAndKeepTheCredentialsWhole() throws {
        let e = try EndToEnd()
        try e.sandbox.writeConfig("timeout = 3\nrefresh = \"always\"\n")
        let anthropic = e.anthropic
        e.server.setHandler { request in
            usleep(100_000)
            return anthropic.handle(request)
        }
        try e.sandbox.writeCredentials(accessToken: anthropic.validAccessToken, refreshToken: anthropic.validRefreshToken,
                                       expiresAt: Date().addingTimeInterval(-60))
        let before = try #require(e.sandbox.credentialsObject())
        let runs = try race(e, 20, ["fetch"])
        #expect(runs.allSatisfy { $0.status == 0 }, "\(runs.map(\.stderr))")
        #expect(e.server.requests(path: FakeAnthropic.tokenPath).count == 1)
        let after = try #require(e.sandbox.credentialsObject(), "credentials are valid JSON")
        #expect(Set(after.keys) == Set(before.keys), "every other key kept")
        let oauth = try #require(after["claudeAiOauth"] as? [String: Any])
        #expect(oauth["refreshToken"] as? String == anthropic.validRefreshToken, "the rotated refresh token is saved")
        #expect(FileSystem.mode(of: e.sandbox.credentialsFile) == 0o600)
        #expect(runs.allSatisfy { !$0.stdout.contains("sk-ant") && !$0.stderr.contains("sk-ant") })
    }
}
