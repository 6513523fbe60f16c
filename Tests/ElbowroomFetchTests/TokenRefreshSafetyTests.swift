import Foundation
import Testing
import ElbowroomCore
@testable import ElbowroomFetch
import ElbowroomTestSupport

/// A refresh spends the old refresh token: whatever the token endpoint or the credentials file
/// hold, the rotated token is saved, or no refresh starts — and every outcome is recorded.
@Suite struct TokenRefreshSafetyTests {
    static let issuedAccess = "sk-ant-oat01-issued-by-this-test-aaaaaaaa"
    static let issuedRefresh = "sk-ant-ort01-issued-by-this-test-rrrrrrrr"

    /// A harness whose token endpoint answers a rotation with `expires_in` set to `literal`.
    static func harness(expiresIn literal: String) throws -> FetchHarness {
        let h = try FetchHarness(validAccess: issuedAccess)
        let fake = h.fake
        h.server.setHandler { request in
            guard request.path.hasPrefix(FakeAnthropic.tokenPath) else { return fake.handle(request) }
            return .json(200, #"{"access_token":"\#(issuedAccess)","refresh_token":"\#(issuedRefresh)","expires_in":\#(literal),"token_type":"Bearer"}"#)
        }
        return h
    }

    @Test(arguments: [
        ("1e300", 7 * 86400.0),
        ("9223372036854775808", 7 * 86400.0),  // 2^63
        ("-5", 300.0),
        (#""abc""#, 3600.0),
        ("null", 3600.0),
        ("28800", 28800.0),
    ])
    func anyExpiresInIsClampedAndTheRotatedTokenIsSaved(literal: String, lifetime: Double) throws {
        let h = try Self.harness(expiresIn: literal)
        try h.writeExpiredLogin()
        let report = h.run()
        #expect(report.result == .fetched, "\(report.result)")
        let oauth = try #require(h.sandbox.oauthObject)
        #expect(oauth["refreshToken"] as? String == Self.issuedRefresh)
        #expect(oauth["accessToken"] as? String == Self.issuedAccess)
        let ms = try #require((oauth["expiresAt"] as? NSNumber)?.doubleValue)
        #expect(abs(ms / 1000 - h.clock.now.timeIntervalSince1970 - lifetime) < 1)
        #expect(h.logLines.contains { $0.contains("refreshed; new token expires 20") })
        #expect(CacheStore(paths: h.sandbox.paths).load()?.fetch.lastOutcome == .ok)
    }

    static let unwritableDocuments = [
        // Claude Code's reader takes these; a JSONSerialization writer cannot reproduce them.
        ("lone surrogate", #""serverName":"github""#, #""serverName":"git\ud800hub""#),
        ("number no double holds", #""futureField":{"nested":[1,2,3]}"#, #""futureField":1e400"#),
    ]

    @Test(arguments: unwritableDocuments)
    func credentialsThatCannotBeWrittenBackAreNeverRefreshed(what: String, original: String, replacement: String) throws {
        let h = try FetchHarness(validAccess: "will-be-issued")
        let text = Sandbox.credentialsJSON(accessToken: Tokens.access, refreshToken: Tokens.refresh, expiresAt: h.expired)
            .replacingOccurrences(of: original, with: replacement)
        let before = try h.sandbox.writeCredentials(text)
        h.clock.advance(by: 2)  // so the file is older than the attempt, as in life
        // Readable as a login: the premise of the bug.
        #expect(FileCredentialSource(path: h.sandbox.credentialsFile).load().oauth?.accessToken == Tokens.access)

        let error = try #require(h.run().result.failure, "\(what)")
        #expect(error.outcome == .expired)
        #expect(error.description.contains("could not be saved"))
        #expect(h.tokenRequests.isEmpty)
        #expect(h.sandbox.credentialsData() == before)
        let cache = try #require(CacheStore(paths: h.sandbox.paths).load())
        #expect(cache.fetch.lastOutcome == .expired)
        #expect((cache.fetch.cooldownUntil ?? .distantPast) > h.clock.now)

        // The next render, and a click, do not try again at once.
        h.clock.advance(by: 5)
        #expect(h.run(.whenDue).skipReason != nil)
        #expect(h.run(.now).skipReason != nil)
        #expect(h.server.requests.isEmpty)
        #expect(h.sandbox.credentialsData() == before)
    }

    @Test(.enabled(if: UnwritableDirectory.isAvailable, "needs a directory that refuses writes (as root: chattr +i)"))
    func anUnwritableCredentialsDirectoryIsNeverRefreshed() throws {
        let h = try FetchHarness(validAccess: "will-be-issued")
        let before = try h.writeExpiredLogin()
        h.clock.advance(by: 2)
        let undo = try UnwritableDirectory.make(h.sandbox.claudeConfigDir)
        defer { undo() }
        let error = try #require(h.run().result.failure)
        #expect(error.outcome == .expired)
        #expect(error.description.contains("cannot create a file in"))
        #expect(error.description.contains("/home/.claude"))
        #expect(h.tokenRequests.isEmpty)
        #expect(h.sandbox.credentialsData() == before)
        #expect(CacheStore(paths: h.sandbox.paths).load()?.fetch.lastOutcome == .expired)
        h.clock.advance(by: 5)
        #expect(h.run(.now).skipReason != nil)
        #expect(h.server.requests.isEmpty)
    }

    @Test(.enabled(if: UnwritableDirectory.isAvailable, "needs a directory that refuses writes (as root: chattr +i)"))
    func refreshedTokensThatCouldNotBeSavedAreRecorded() throws {
        // The directory took writes when checked, and no longer when the new tokens came back.
        let h = try FetchHarness(validAccess: "will-be-issued")
        try h.writeExpiredLogin()
        let dir = h.sandbox.claudeConfigDir
        let undo = LockedBox<(@Sendable () -> Void)?>(nil)
        defer { undo.value?() }
        h.transport.beforeSend = { request in
            if request.url.path == FakeAnthropic.tokenPath { undo.value = try? UnwritableDirectory.make(dir) }
        }
        #expect(h.run().result == .fetched)
        #expect(undo.value != nil)
        let cache = try #require(CacheStore(paths: h.sandbox.paths).load())
        #expect(cache.fetch.lastOutcome == .ok)
        #expect(cache.fetch.message?.contains("could not save refreshed tokens") == true)
        #expect(h.logLines.contains { $0.contains("could not save the refreshed tokens") })
    }

    @Test(arguments: [
        (ServerReply.redirect(to: "/followed"), "the token endpoint answered with a redirect (302)", FetchOutcome.undecodable),
        (.status(503), "the token endpoint had a server error (503)", .server),
        (.rateLimited(retryAfter: "120"), "rate limited by the token endpoint", .rateLimited),
        (.status(401), "the token endpoint rejected the refresh (401)", .unauthorized),
        (.drop, "cannot reach the token endpoint", .network),
    ])
    func tokenEndpointFailuresAreTheTokenEndpointsAndRecorded(reply: ServerReply, message: String, outcome: FetchOutcome) throws {
        let h = try FetchHarness(validAccess: "will-be-issued")
        h.fake.tokenReply = reply
        let before = try h.writeExpiredLogin()
        h.clock.advance(by: 2)
        let error = try #require(h.run().result.failure)
        #expect(error.outcome == outcome)
        #expect(error.description.hasPrefix(message), "\(error.description)")
        #expect(!error.description.contains("usage api"))
        #expect(h.tokenRequests.count == 1)
        #expect(h.usageRequests.isEmpty)
        // Never followed, so the refresh token went nowhere else.
        #expect(h.server.requests(path: "/followed").isEmpty)
        #expect(!h.server.requests.filter { $0.path != FakeAnthropic.tokenPath }.contains { $0.allText.contains(Tokens.refresh) })
        #expect(h.sandbox.credentialsData() == before)
        let cache = try #require(CacheStore(paths: h.sandbox.paths).load())
        #expect(cache.fetch.lastOutcome == outcome)
        #expect(cache.fetch.message == error.description)
        #expect(h.run(.now).skipReason != nil)
        #expect(h.tokenRequests.count == 1)
    }

    @Test func numbersFromFilesAndTheNetworkNeverTrap() {
        #expect(ISO8601.format(Date(timeIntervalSince1970: 1e300)) == "9999-12-31T23:59:59Z")
        #expect(ISO8601.format(Date(timeIntervalSince1970: -1e300)) == "0001-01-01T00:00:00Z")
        #expect(ISO8601.format(Date(timeIntervalSince1970: .nan)) == "1970-01-01T00:00:00Z")
        #expect(ISO8601.format(Date(timeIntervalSince1970: 1_795_000_000)) == "2026-11-18T11:06:40Z")
        #expect(CredentialsDocument.milliseconds(Date(timeIntervalSince1970: 1e300)) == 9_000_000_000_000_000)
        let absurd = Data(#"{"claudeAiOauth":{"accessToken":"a","expiresAt":1e300}}"#.utf8)
        guard case .oauth(let read)? = try? CredentialsParser.parse(absurd) else { Issue.record("not parsed"); return }
        #expect(read.expiresAt.map(ISO8601.format) == "9999-12-31T23:59:59Z")
        #expect(read.expiresAt.map { Int($0.timeIntervalSinceNow) } != nil)
        #expect(TokenGrant(accessToken: "a", refreshToken: nil, expiresIn: 1e300).description.contains("expires_in"))
        #expect(FetchError.rateLimited(retryAfter: .infinity).description.hasPrefix("rate limited"))
        #expect(TransportError.timeout(.infinity).description == "no answer within infs")
        var state = FetchState(consecutiveFailures: .max)
        state.recordFailure(.network, message: nil, at: Date(timeIntervalSince1970: 0))
        #expect(state.consecutiveFailures == 1000)
        #expect(FetchState.backoff(failures: .min) == 30)
    }
}

/// Stops the built fetcher with a signal in the middle of a refresh.
@Suite(.serialized) struct RefreshSignalTests {
    @Test(arguments: [(SIGTERM, true), (SIGINT, false), (SIGHUP, true)])
    func aSignalDuringARefreshWaitsUntilTheNewTokensAreSaved(signal: Int32, tokenExpired: Bool) throws {
        let binary = try #require(BuiltExecutable.path("elbowroom-fetch"), "build elbowroom-fetch first")
        let h = try FetchHarness(validAccess: "will-be-issued")
        try h.sandbox.writeConfig("refresh = \"always\"\n")
        // Expired: the refresh comes first. Not expired but rejected: a 401 first, so URLSession's
        // threads already run when the refresh starts.
        try h.sandbox.writeCredentials(accessToken: Tokens.access, refreshToken: Tokens.refresh,
                                       expiresAt: tokenExpired ? h.expired : h.valid)
        let arrived = DispatchSemaphore(value: 0)
        let fake = h.fake
        // The endpoint rotates at once, then answers slowly: the old refresh token is already spent
        // when the signal comes.
        h.server.setHandler { request in
            let reply = fake.handle(request)
            if request.path.hasPrefix(FakeAnthropic.tokenPath) {
                arrived.signal()
                usleep(1_000_000)
            }
            return reply
        }
        let pid = try Self.spawnWithSignalsOpen(binary, ["--urgency", "now"], environment: h.sandbox.environment)
        let reached = arrived.wait(timeout: .now() + 30) == .success
        kill(pid, signal)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        try #require(reached, "the token request never arrived")

        // The signal still ended the process, but only after the rotated tokens were saved.
        #expect(status & 0x7f == signal, "wait status \(status)")
        #expect(h.tokenRequests.count == 1)
        let oauth = try #require(h.sandbox.oauthObject)
        #expect(oauth["refreshToken"] as? String == h.fake.validRefreshToken)
        #expect(oauth["accessToken"] as? String == h.fake.validAccessToken)
    }

    /// Starts `path` with no signal blocked or ignored. A test runs on a worker thread that blocks
    /// nearly every signal, and `Process` passes that mask on: a child started with it would
    /// hold SIGTERM back whatever it did itself.
    static func spawnWithSignalsOpen(_ path: String, _ arguments: [String], environment: [String: String]) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard result == 0 else { throw UnwritableDirectory.Failure(description: "posix_spawn failed: \(result)") }
        return pid
    }

    @Test func anAbsurdExpiresAtIsLoggedWithoutTrapping() throws {
        let binary = try #require(BuiltExecutable.path("elbowroom-fetch"), "build elbowroom-fetch first")
        let h = try FetchHarness()
        let text = Sandbox.credentialsJSON(accessToken: Tokens.access, refreshToken: Tokens.refresh, expiresAt: h.valid)
        let absurd = try #require(text.range(of: #""expiresAt":\d+"#, options: .regularExpression))
        try h.sandbox.writeCredentials(text.replacingCharacters(in: absurd, with: #""expiresAt":1e300"#))
        let run = try BuiltExecutable.run(binary, arguments: ["--urgency", "now", "--verbose", "--json"],
                                          environment: h.sandbox.environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("expires: 9999-12-31T23:59:59Z"))
        #expect(h.usageRequests.count == 1)
        // doctor reads the same credentials through the same parser.
        let renderer = try #require(BuiltExecutable.path("elbowroom"), "build elbowroom first")
        let doctor = try BuiltExecutable.run(renderer, arguments: ["doctor"], environment: h.sandbox.environment)
        #expect(doctor.stdout.contains("token expiry (expiresAt) out of range"), "\(doctor.status) \(doctor.stdout) \(doctor.stderr)")
    }
}
