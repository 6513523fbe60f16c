import Foundation
import Testing
import ElbowroomCore
@testable import ElbowroomFetch
import ElbowroomTestSupport

/// A Codex account (`provider = "codex"`) against a loopback stand-in for Codex's usage endpoint.
final class CodexHarness: @unchecked Sendable {
    let sandbox: Sandbox
    let server: LoopbackHTTPServer
    let clock = FixedClock(Date())
    let codexHome: String
    var reply: @Sendable (RecordedRequest) -> ServerReply
    private let logBox = LogBox()
    var logLines: [String] { logBox.lines }
    static let usagePath = "/backend-api/wham/usage"

    init(reply: @escaping @Sendable (RecordedRequest) -> ServerReply = { _ in .json(200, CodexHarness.body()) }) throws {
        sandbox = try Sandbox()
        codexHome = sandbox.home + "/.codex"
        try FileManager.default.createDirectory(atPath: codexHome, withIntermediateDirectories: true)
        self.reply = reply
        let server = try LoopbackHTTPServer()
        self.server = server
        server.setHandler(reply)
        sandbox.extra = ["ELBOWROOM_PROVIDER": "codex", "ELBOWROOM_ACCOUNT": "x", "CODEX_HOME": codexHome,
                         "ELBOWROOM_CODEX_API_URL": server.baseURL + "/backend-api"]
    }

    deinit {
        server.stop()
        sandbox.cleanup()
    }

    static let accessSecret = "codex-access-SECRET-0123456789"

    /// A JWT whose payload holds `exp` and the ChatGPT account.
    static func jwt(exp: Date, account: String = "acct-42", secret: String = accessSecret) -> String {
        func b64(_ text: String) -> String {
            Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        let payload = #"{"exp":\#(Int(exp.timeIntervalSince1970)),"https://api.openai.com/auth":{"chatgpt_account_id":"\#(account)"}}"#
        return b64(#"{"alg":"RS256"}"#) + "." + b64(payload) + "." + b64(secret)
    }

    func writeLogin(expiresIn: TimeInterval = 3600, withAccountID: Bool = true) throws {
        let access = Self.jwt(exp: clock.now.addingTimeInterval(expiresIn))
        let account = withAccountID ? #","account_id":"acct-42""# : ""
        let text = #"{"auth_mode":"chatgpt","OPENAI_API_KEY":null,"tokens":{"id_token":"x.e30.y","access_token":"\#(access)","refresh_token":"rt-SECRET-refresh"\#(account)},"last_refresh":"2026-11-20T10:00:00.123456Z"}"#
        try text.write(toFile: codexHome + "/auth.json", atomically: true, encoding: .utf8)
    }

    /// A usage answer: `primary`/`secondary` as (percent, seconds), and per-model limits.
    static func body(primary: (Int, Int)? = (37, 18000), secondary: (Int, Int)? = (59, 604800),
                     spark: (Int, Int)? = nil) -> String {
        let reset = Int(Date().timeIntervalSince1970) + 3600
        func window(_ w: (Int, Int)?) -> String {
            guard let w else { return "null" }
            return #"{"used_percent":\#(w.0),"limit_window_seconds":\#(w.1),"reset_after_seconds":3600,"reset_at":\#(reset)}"#
        }
        let extra = spark.map {
            #"[{"limit_name":"GPT-5.3-Codex-Spark","metered_feature":"codex_bengalfox","rate_limit":{"allowed":true,"limit_reached":false,"primary_window":\#(window($0)),"secondary_window":null}}]"#
        } ?? "null"
        return #"{"plan_type":"plus","rate_limit":{"allowed":true,"limit_reached":false,"primary_window":\#(window(primary)),"secondary_window":\#(window(secondary))},"additional_rate_limits":\#(extra),"credits":{"has_credits":false,"unlimited":false,"balance":"0"},"promo":{"new":1}}"#
    }

    var context: FetchContext {
        let box = logBox
        return FetchContext(environment: sandbox.elbowroomEnvironment, transport: PlatformTransport.make(),
                            credentialSourceKind: .file, clock: clock.function,
                            log: DebugLog(enabled: true, sink: { box.append($0) }))
    }

    func run(_ urgency: FetchUrgency = .now) -> FetchReport {
        FetchCoordinator(context: context).run(urgency: urgency)
    }

    var requests: [RecordedRequest] { server.requests(path: Self.usagePath) }
    var cache: CacheFile? { CacheStore(paths: sandbox.paths).load() }
}

@Suite struct CodexFetchTests {
    @Test func asksTheUsageEndpointWithCodexsStoredLoginAndAccount() throws {
        let h = try CodexHarness()
        try h.writeLogin()
        let report = h.run()
        #expect(report.result == .fetched)
        let request = try #require(h.requests.first)
        #expect(request.header("Authorization") == "Bearer " + CodexHarness.jwt(exp: h.clock.now.addingTimeInterval(3600)))
        #expect(request.header("ChatGPT-Account-Id") == "acct-42")
        let windows = try #require(h.cache?.reading?.windows)
        #expect(windows.map(\.key) == ["five_hour", "seven_day"])
        #expect(windows.map(\.used) == [37, 59])
        #expect(h.cache?.reading?.plan == "plus")
    }

    /// A fetch that had to wait for another process's fetch of the same account takes that
    /// fetch's result instead of asking again (the Claude fetch always did; a Codex or plugin
    /// account's asked a second time).
    @Test func aFetchThatWaitedForAnotherTakesItsResultInsteadOfAskingAgain() throws {
        let h = try CodexHarness()
        try h.writeLogin()
        let store = CacheStore(paths: h.sandbox.paths)
        try FileSystem.makeDirectory(h.sandbox.paths.cacheDir, mode: 0o700)
        let other = try FileLock(path: h.sandbox.paths.fetchLockFile)
        #expect(other.tryLock())
        let now = h.clock.now
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            usleep(300_000)
            var cache = CacheFile(account: store.account, reading: Reading(
                windows: [UsageWindow(key: "five_hour", used: 12, resetsAt: nil, observedAt: now)], fetchedAt: now, source: .api))
            cache.fetch.recordSuccess(at: now)
            try? store.save(cache)
            other.unlock()
            done.signal()
        }
        let report = h.run(.now)
        done.wait()
        #expect(h.requests.isEmpty, "asked again after the other process had just fetched")
        #expect(report.result == .skipped(reason: "fetched by another process"), "\(report.result)")
    }

    @Test func theAccountIdComesFromTheTokenWhenTheLoginHasNone() throws {
        let h = try CodexHarness()
        try h.writeLogin(withAccountID: false)
        #expect(h.run().result == .fetched)
        #expect(h.requests.first?.header("ChatGPT-Account-Id") == "acct-42")
    }

    @Test func aWeeklyOnlyPlanHasAWeeklyWindowInTheFirstSlotNotASessionOne() throws {
        let h = try CodexHarness(reply: { _ in .json(200, CodexHarness.body(primary: (12, 604800), secondary: nil)) })
        try h.writeLogin()
        #expect(h.run().result == .fetched)
        let windows = try #require(h.cache?.reading?.windows)
        #expect(windows.map(\.key) == ["seven_day"])
        #expect(windows.first?.used == 12)
    }

    @Test func aThirtyDayPrimaryIsNeverTheSessionWindow() throws {
        let h = try CodexHarness(reply: { _ in .json(200, CodexHarness.body(primary: (5, 2_592_000), secondary: (40, 604800))) })
        try h.writeLogin()
        #expect(h.run().result == .fetched)
        #expect(h.cache?.reading?.windows.map(\.key).sorted() == ["seven_day", "thirty_day"])
    }

    @Test func perModelLimitsAreWindowsOfTheirOwn() throws {
        let h = try CodexHarness(reply: { _ in .json(200, CodexHarness.body(spark: (80, 18000))) })
        try h.writeLogin()
        #expect(h.run().result == .fetched)
        let spark = try #require(h.cache?.reading?.windows.first { $0.key == "five_hour_codex_bengalfox" })
        #expect(spark.used == 80)
        #expect(spark.label == "GPT-5.3-Codex-Spark 5h")
    }

    @Test func anExpiredTokenIsNeverRefreshedAndKeepsTheLastGoodReading() throws {
        let h = try CodexHarness()
        try h.writeLogin()
        #expect(h.run().result == .fetched)
        try h.writeLogin(expiresIn: -60)
        h.clock.advance(by: 600)
        let report = h.run(.force)
        #expect(report.result.failure?.outcome == .expired)
        #expect(report.result.failure?.description.contains("open codex") == true)
        #expect(h.requests.count == 1, "no request with an expired token, and no refresh anywhere")
        #expect(h.server.requests.allSatisfy { !$0.path.contains("token") })
        #expect(h.cache?.reading?.windows.count == 2, "the last good data stays")
        #expect(h.cache?.fetch.lastOutcome == .expired)
    }

    @Test func aRevokedLoginIsSignedOut() throws {
        let h = try CodexHarness(reply: { _ in
            .json(401, #"{"error":{"message":"Encountered invalidated oauth token for user, failing request","code":"token_revoked"},"status":401}"#)
        })
        try h.writeLogin()
        #expect(h.run().result.failure?.outcome == .signedOut)
    }

    @Test func aCloudflareChallengeIsTransientNotSignedOut() throws {
        let h = try CodexHarness(reply: { _ in .status(403, body: "<html>Just a moment...</html>") })
        try h.writeLogin()
        #expect(h.run().result.failure?.outcome == .server)
    }

    @Test func aRateLimitHonoursRetryAfterAndTheNextRenderWaits() throws {
        let h = try CodexHarness(reply: { _ in .status(429, headers: [("Retry-After", "120")]) })
        try h.writeLogin()
        #expect(h.run().result.failure?.outcome == .rateLimited)
        #expect(h.run(.whenDue).result.skipReason != nil)
        #expect(h.requests.count == 1, "the cooldown holds")
    }

    @Test func anAPIKeyLoginHasNoPlanLimitsAndSendsNothing() throws {
        let h = try CodexHarness()
        try #"{"auth_mode":"apikey","OPENAI_API_KEY":"sk-test-key","tokens":null,"last_refresh":null}"#
            .write(toFile: h.codexHome + "/auth.json", atomically: true, encoding: .utf8)
        let report = h.run()
        #expect(report.result.failure?.description.contains("api key") == true)
        #expect(h.requests.isEmpty)
    }

    @Test func noTokenReachesTheCacheOrTheLog() throws {
        let h = try CodexHarness()
        try h.writeLogin()
        #expect(h.run().result == .fetched)
        let cacheText = h.sandbox.cacheContents()
        #expect(!cacheText.contains("SECRET"))
        #expect(!h.logLines.joined().contains(CodexHarness.jwt(exp: h.clock.now.addingTimeInterval(3600))))
    }

    @Test func aPlainHTTPEndpointOffLoopbackIsRefused() throws {
        let h = try CodexHarness()
        try h.writeLogin()
        h.sandbox.extra["ELBOWROOM_CODEX_API_URL"] = "http://example.com/backend-api"
        #expect(h.run().result.failure?.outcome == .config)
        #expect(h.requests.isEmpty)
    }

    @Test func codexsOwnChatGPTBaseURLIsFollowed() throws {
        let h = try CodexHarness()
        try h.writeLogin()
        h.sandbox.extra["ELBOWROOM_CODEX_API_URL"] = nil
        try "model = \"gpt-5\"\nchatgpt_base_url = \"\(h.server.baseURL)/backend-api/\"\n[profiles.x]\nchatgpt_base_url = \"https://elsewhere\"\n"
            .write(toFile: h.codexHome + "/config.toml", atomically: true, encoding: .utf8)
        #expect(h.run().result == .fetched)
        #expect(h.requests.count == 1)
        #expect(CodexProvider.configuredBase(codexHome: "/nonexistent") == nil)
    }

    @Test func theCodexAccountHasItsOwnCacheBesideTheClaudeOne() throws {
        let h = try CodexHarness()
        try h.writeLogin()
        #expect(h.run().result == .fetched)
        var claude = h.sandbox.environment
        claude["ELBOWROOM_PROVIDER"] = nil
        #expect(Paths(environment: ElbowroomEnvironment(claude)).cacheFile != h.sandbox.paths.cacheFile)
        #expect(FileManager.default.fileExists(atPath: h.sandbox.paths.cacheFile))
    }

    @Test func theSessionLogsModeReadsCodexsOwnRateLimitsWithoutALogin() throws {
        let h = try CodexHarness()
        h.sandbox.extra["ELBOWROOM_CODEX_SOURCE"] = "logs"
        let dir = h.codexHome + "/sessions/2026/11/24"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let reset = Int(h.clock.now.timeIntervalSince1970) + 7200
        // Stamped minutes before the reset a window of its length allows (a reset further ahead
        // than the window lasts is not believed).
        func at(_ minutesAgo: Double) -> String { ISO8601.format(h.clock.now.addingTimeInterval(-60 * minutesAgo)) }
        let lines = [
            #"{"timestamp":"\#(at(5))","type":"session_meta","payload":{"id":"s"}}"#,
            #"{"timestamp":"\#(at(4))","type":"event_msg","payload":{"type":"token_count","info":null,"rate_limits":{"limit_id":"codex","primary":{"used_percent":10.0,"window_minutes":300,"resets_at":\#(reset)},"secondary":null}}}"#,
            #"{"timestamp":"\#(at(3))","type":"event_msg","payload":{"type":"token_count","info":null,"rate_limits":{"limit_id":null,"primary":{"used_percent":46.0,"window_minutes":10080,"resets_at":\#(reset)},"secondary":null,"plan_type":"pro"}}}"#,
            #"{"timestamp":"\#(at(2))","type":"event_msg","payload":{"type":"token_count","info":null,"rate_limits":{"limit_id":"codex_bengalfox","limit_name":"Spark","primary":{"used_percent":3.0,"window_minutes":300,"resets_at":\#(reset)},"secondary":null}}}"#,
            #"{"timestamp":"\#(at(1))","type":"event_msg","payload":{"type":"token_co"#,
        ]
        try (lines.joined(separator: "\n")).write(toFile: dir + "/rollout-2026-11-24T10-00-00-abc.jsonl", atomically: true, encoding: .utf8)
        #expect(h.run().result == .fetched)
        let windows = try #require(h.cache?.reading?.windows)
        #expect(windows.first { $0.key == "seven_day" }?.used == 46, "weekly by its length, though in the first slot")
        #expect(windows.first { $0.key == "five_hour" } == nil, "the older main reading is not mixed in")
        #expect(windows.first { $0.key == "five_hour_codex_bengalfox" }?.used == 3)
        #expect(h.cache?.reading?.plan == "pro")
        #expect(h.server.requests.isEmpty, "nothing sent")
        // A FIFO named like a newer log is passed over, never waited on.
        let fifo = dir + "/rollout-2026-11-24T11-00-00-fifo.jsonl"
        #expect(mkfifo(fifo, 0o600) == 0)
        let started = Date()
        #expect(h.run(.force).result == .fetched)
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(h.cache?.reading?.windows.first { $0.key == "seven_day" }?.used == 46)
    }
}

extension CodexFetchTests {
    /// A session log's `resets_at` as an RFC 3339 string (October 2025, CODEX.md §5) that is no
    /// real time within the bound (year 9999) drops its window: it is never turned into seconds
    /// and then misread as milliseconds (a reset in 1977).
    @Test func aSessionLogResetStringOutOfRangeDropsItsWindow() throws {
        let now = Date(timeIntervalSince1970: 1_795_356_000)
        let stamp = ISO8601.format(now.addingTimeInterval(-60))
        let line = #"{"timestamp":"\#(stamp)","type":"event_msg","payload":{"type":"token_count","rate_limits":{"limit_id":"codex","primary":{"used_percent":7.0,"window_minutes":300,"resets_at":"9999-12-31T23:59:59Z"},"secondary":{"used_percent":20.0,"window_minutes":10080,"resets_at":"2026-11-25T10:00:00Z"}}}}"#
        let reading = try #require(CodexSessionLogs.reading(fromLog: Data(line.utf8), now: now))
        #expect(reading.window(key: "five_hour") == nil)
        #expect(reading.window(key: "seven_day")?.resetsAt == ISO8601.parse("2026-11-25T10:00:00Z"))
        #expect(reading.notes?.contains { $0.contains("resets_at is no time") } == true)
        #expect(reading.source == .sessionLog)
    }
}

extension FetchReport.Result {
    var skipReason: String? {
        if case .skipped(let reason) = self { return reason }
        return nil
    }
}
