import Foundation
import Testing
import ElbowroomCore
@testable import ElbowroomFetch
import ElbowroomTestSupport

/// Runs the built `elbowroom-fetch` as separate processes against the loopback server: the
/// guarantees that matter (one request per account, one refresh, cooldowns) are cross-process.
@Suite(.serialized) struct CrossProcessTests {
    static var binary: String? { BuiltExecutable.path("elbowroom-fetch") }

    func launch(_ count: Int, _ arguments: [String], env: [String: String]) throws -> [BuiltExecutable.Run] {
        let binary = try #require(Self.binary, "build elbowroom-fetch first")
        let waits = try (0..<count).map { _ in try BuiltExecutable.start(binary, arguments: arguments, environment: env) }
        return waits.map { $0() }
    }

    @Test func fiftyRacingPromptsMakeExactlyOneRequest() throws {
        let h = try FetchHarness()
        // A slow answer, so the others arrive while the first one holds the lock.
        let fake = h.fake
        h.server.setHandler { request in
            usleep(300_000)
            return fake.handle(request)
        }
        try h.sandbox.writeCredentials(accessToken: Tokens.access, refreshToken: Tokens.refresh, expiresAt: h.valid)
        let runs = try launch(50, ["--urgency", "when-due"], env: h.sandbox.environment)
        #expect(runs.allSatisfy { $0.status == 0 }, "\(runs.filter { $0.status != 0 }.map(\.stderr))")
        #expect(runs.allSatisfy { $0.stdout.isEmpty && $0.stderr.isEmpty })
        #expect(h.usageRequests.count == 1)
        let cache = try #require(CacheStore(paths: h.sandbox.paths).load())
        #expect(cache.reading?.window(key: "five_hour")?.used == 12.5)
    }

    @Test func concurrentRefreshesMakeExactlyOneTokenRequest() throws {
        let h = try FetchHarness(validAccess: "will-be-issued")
        try h.sandbox.writeConfig("refresh = \"always\"\n")
        let fake = h.fake
        h.server.setHandler { request in
            usleep(100_000)
            return fake.handle(request)
        }
        try h.writeExpiredLogin()
        let before = try #require(h.sandbox.credentialsObject())
        let runs = try launch(10, ["--urgency", "now"], env: h.sandbox.environment)
        #expect(runs.allSatisfy { $0.status == 0 }, "\(runs.map(\.stderr))")
        #expect(h.tokenRequests.count == 1)
        #expect(h.usageRequests.allSatisfy { $0.header("Authorization") == "Bearer \(h.fake.validAccessToken)" })
        let after = try #require(h.sandbox.credentialsObject())
        let oauth = try #require(after["claudeAiOauth"] as? [String: Any])
        #expect(oauth["accessToken"] as? String == h.fake.validAccessToken)
        #expect(oauth["refreshToken"] as? String == h.fake.validRefreshToken)
        #expect(Set(after.keys) == Set(before.keys))
        #expect(NSDictionary(dictionary: after["mcpOAuth"] as! [String: Any]).isEqual(to: before["mcpOAuth"] as! [String: Any]))
        #expect(FileSystem.mode(of: h.sandbox.credentialsFile) == 0o600)
    }

    @Test func aRateLimitIsObeyedByLaterProcesses() throws {
        let h = try FetchHarness()
        h.fake.usageReply = .rateLimited(retryAfter: "3600")
        try h.sandbox.writeCredentials(accessToken: Tokens.access, refreshToken: Tokens.refresh, expiresAt: h.valid)
        let first = try launch(1, ["--urgency", "now"], env: h.sandbox.environment)[0]
        #expect(first.status == 1)
        #expect(first.stderr.contains("rate limited"))
        #expect(first.stderr.split(separator: "\n").count == 1)
        let later = try launch(5, ["--urgency", "when-due"], env: h.sandbox.environment)
            + launch(2, ["--urgency", "now"], env: h.sandbox.environment)
        #expect(later.allSatisfy { $0.status == 0 })
        #expect(h.usageRequests.count == 1)
        let cache = try #require(CacheStore(paths: h.sandbox.paths).load())
        #expect(cache.fetch.lastOutcome == .rateLimited)
        #expect((cache.fetch.cooldownUntil?.timeIntervalSinceNow ?? 0) > 3500)
    }

    @Test func verboseRunShowsStepsButNeverAToken() throws {
        let h = try FetchHarness(validAccess: "will-be-issued")
        try h.sandbox.writeConfig("refresh = \"always\"\n")
        try h.writeExpiredLogin()
        let run = try launch(1, ["--urgency", "force", "--verbose", "--json"], env: h.sandbox.environment)[0]
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("refreshing the access token"))
        #expect(run.stderr.contains("GET "))
        let secrets = [Tokens.access, Tokens.refresh, h.fake.validAccessToken, h.fake.validRefreshToken]
        for secret in secrets {
            #expect(!run.stdout.contains(secret))
            #expect(!run.stderr.contains(secret))
            #expect(!h.sandbox.cacheContents().contains(secret))
        }
        // ELBOWROOM_DEBUG=1 does the same.
        var env = h.sandbox.environment
        env["ELBOWROOM_DEBUG"] = "1"
        let debug = try launch(1, ["--urgency", "force"], env: env)[0]
        #expect(debug.stderr.contains("GET "))
        #expect(!secrets.contains { debug.stderr.contains($0) })
    }

    @Test func jsonShapeIsStable() throws {
        let h = try FetchHarness()
        try h.sandbox.writeCredentials(accessToken: Tokens.access, refreshToken: Tokens.refresh, expiresAt: h.valid)
        let run = try launch(1, ["--urgency", "now", "--json"], env: h.sandbox.environment)[0]
        #expect(run.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["schema", "status", "outcome", "message", "reason", "account", "login", "plan", "source",
                                     "fetched_at", "last_attempt", "cooldown_until", "windows", "extra_usage"])
        #expect(object["schema"] as? Int == 2)
        #expect(object["account"] is NSNull)
        #expect((object["login"] as? String)?.hasSuffix("/home/.claude/.credentials.json") == true)
        #expect(object["status"] as? String == "fetched")
        #expect(object["outcome"] as? String == "ok")
        #expect(object["plan"] as? String == "max")
        let windows = try #require(object["windows"] as? [[String: Any]])
        let five = try #require(windows.first { $0["key"] as? String == "five_hour" })
        #expect(five["used"] as? Double == 12.5)
        #expect(five["left"] as? Double == 87.5)
        #expect(five["resets_at"] as? String == "2026-11-22T18:00:00Z")
        #expect(five["label"] as? String == "Session")

        // A skip prints the cached reading too.
        let skip = try launch(1, ["--json"], env: h.sandbox.environment)[0]
        let skipped = try #require(try JSONSerialization.jsonObject(with: Data(skip.stdout.utf8)) as? [String: Any])
        #expect(skipped["status"] as? String == "skipped")
        #expect((skipped["windows"] as? [Any])?.count == windows.count)
    }

    @Test func probeSendsNoToken() throws {
        let h = try FetchHarness()
        try h.sandbox.writeCredentials(accessToken: Tokens.access, refreshToken: Tokens.refresh, expiresAt: h.valid)
        let run = try launch(1, ["--probe"], env: h.sandbox.environment)[0]
        #expect(run.status == 0)
        // The 401 a request without a token gets is the expected answer: reachable, no status.
        #expect(run.stdout.hasPrefix("reachable: \(h.server.baseURL)/api/oauth/usage in "), "\(run.stdout)")
        #expect(!run.stdout.contains("401"), "\(run.stdout)")
        let request = try #require(h.usageRequests.first)
        #expect(request.header("Authorization") == nil)
        #expect(!request.allText.contains(Tokens.access))
        // The probe goes as the fetch goes: with the configured user_agent (it sent the default).
        try h.sandbox.writeConfig("user_agent = \"claude-cli/9.9.9 (external, cli)\"\n")
        _ = try launch(1, ["--probe"], env: h.sandbox.environment)
        #expect(h.usageRequests.last?.header("User-Agent") == "claude-cli/9.9.9 (external, cli)")
    }

    @Test func plainHTTPToAStrangerIsRefused() throws {
        let h = try FetchHarness()
        var env = h.sandbox.environment
        env["ELBOWROOM_API_URL"] = "http://example.com"
        try h.sandbox.writeCredentials(accessToken: Tokens.access, refreshToken: Tokens.refresh, expiresAt: h.valid)
        for arguments in [["--urgency", "force"], ["--probe"]] {
            let run = try launch(1, arguments, env: env)[0]
            #expect(run.status == 1)
            #expect((run.stderr + run.stdout).contains("must use https"))
        }
    }

    @Test func usageErrorsExitTwo() throws {
        let h = try FetchHarness()
        let run = try launch(1, ["--urgency", "sometimes"], env: h.sandbox.environment)[0]
        #expect(run.status == 2)
        #expect(run.stderr.contains("unknown urgency 'sometimes'"))
    }
}
