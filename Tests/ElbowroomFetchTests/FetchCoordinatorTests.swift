import Foundation
import Testing
import ElbowroomCore
@testable import ElbowroomFetch
import ElbowroomTestSupport
#if canImport(Glibc)
import Glibc
#endif

@Suite struct FetchCoordinatorTests {
    @Test func validTokenFetchesAndCachesTheReading() throws {
        let h = try FetchHarness()
        try h.sandbox.writeCredentials(accessToken: Tokens.access, refreshToken: Tokens.refresh, expiresAt: h.valid)
        let report = h.run(.whenDue)
        #expect(report.result == .fetched)
        #expect(report.exitCode == 0)
        let cache = try #require(CacheStore(paths: h.sandbox.paths).load())
        #expect(cache.reading?.window(key: "five_hour")?.used == 12.5)
        #expect(cache.reading?.plan == "max")
        #expect(cache.fetch.lastOutcome == .ok)
        #expect(h.usageRequests.count == 1)
        #expect(h.tokenRequests.isEmpty)
        // Due again only after max_age: a second when-due run makes no request.
        #expect(h.run(.whenDue).skipReason != nil)
        #expect(h.usageRequests.count == 1)
    }

    @Test(arguments: [0o600, 0o640] as [mode_t])
    func expiredTokenIsRefreshedThenUsedAndEveryOtherKeySurvives(mode: mode_t) throws {
        let h = try FetchHarness(validAccess: "will-be-issued")
        try h.sandbox.writeCredentials(accessToken: Tokens.access, refreshToken: Tokens.refresh,
                                       expiresAt: h.expired, mode: mode)
        let before = try #require(h.sandbox.credentialsObject())
        let report = h.run(.whenDue)
        #expect(report.result == .fetched)
        #expect(h.tokenRequests.count == 1)
        let tokenBody = try #require(try JSONSerialization.jsonObject(with: h.tokenRequests[0].body) as? [String: String])
        // As Claude Code sends it: its client id, the scopes it asks for (none of the optional
        // ones is held here).
        #expect(tokenBody == ["grant_type": "refresh_token", "refresh_token": Tokens.refresh,
                              "client_id": "9d1c250a-e61b-44d9-88ed-5944d1962f5e",
                              "scope": "user:profile user:inference user:sessions:claude_code user:mcp_servers user:file_upload user:plugins"])
        #expect(h.tokenRequests[0].method == "POST")
        #expect(h.usageRequests.count == 1)
        #expect(h.usageRequests[0].header("Authorization") == "Bearer \(h.fake.validAccessToken)")

        let after = try #require(h.sandbox.credentialsObject())
        let oauth = try #require(after["claudeAiOauth"] as? [String: Any])
        #expect(oauth["accessToken"] as? String == h.fake.validAccessToken)
        #expect(oauth["refreshToken"] as? String == h.fake.validRefreshToken)
        let expiresAt = try #require((oauth["expiresAt"] as? NSNumber)?.doubleValue)
        #expect(abs(expiresAt / 1000 - h.clock.now.addingTimeInterval(28800).timeIntervalSince1970) < 1)
        // Everything else is exactly as it was.
        #expect(NSDictionary(dictionary: after["mcpOAuth"] as! [String: Any]).isEqual(to: before["mcpOAuth"] as! [String: Any]))
        #expect(after["someUnknownTopLevelKey"] as? String == "keep me")
        let oldOAuth = before["claudeAiOauth"] as! [String: Any]
        for key in ["scopes", "subscriptionType", "rateLimitTier", "futureField"] {
            #expect(NSDictionary(dictionary: [key: oauth[key] as Any]).isEqual(to: [key: oldOAuth[key] as Any]), "\(key)")
        }
        #expect(FileSystem.mode(of: h.sandbox.credentialsFile) == mode)
        // No temp file left behind.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: h.sandbox.claudeConfigDir)
        #expect(leftovers == [".credentials.json"])
    }

    @Test func invalidGrantIsSignedOutAndTheFileIsUntouched() throws {
        let h = try FetchHarness(validRefresh: "some-other-refresh-token")
        let original = try h.writeExpiredLogin()
        let report = h.run()
        #expect(report.result.failure?.outcome == .signedOut)
        #expect(report.result.failure?.description.contains("invalid_grant") == true)
        #expect(h.sandbox.credentialsData() == original)
        #expect(h.usageRequests.isEmpty)
        #expect(CacheStore(paths: h.sandbox.paths).load()?.fetch.lastOutcome == .signedOut)
    }

    @Test func refreshWithoutANewRefreshTokenKeepsTheOldOne() throws {
        let h = try FetchHarness(validAccess: "will-be-issued")
        h.fake.rotateRefreshToken = false
        try h.writeExpiredLogin()
        #expect(h.run().result == .fetched)
        let oauth = try #require(h.sandbox.credentialsObject()?["claudeAiOauth"] as? [String: Any])
        #expect(oauth["refreshToken"] as? String == Tokens.refresh)
        #expect(oauth["accessToken"] as? String == h.fake.validAccessToken)
    }

    /// With Claude Code's own locks taken, `auto` refreshes while Claude Code runs: a running
    /// Claude Code adopts what we write (the real binary proves it in RealClaudeCodeTests).
    @Test func autoRefreshesUnderClaudeCodesLocksWhileItRuns() throws {
        let h = try FetchHarness(validAccess: "will-be-issued")
        let proc = h.sandbox.root + "/proc"
        try FakeProc.add(pid: 4242, comm: "claude", cmdline: ["claude"], to: proc)
        h.detector = ProcClaudeProcessDetector(procRoot: proc, ownPID: 1)
        let storage = ClaudeCodeStorage(environment: h.sandbox.elbowroomEnvironment)
        let locksSeen = LogBox()
        h.transport.beforeSend = { request in
            if request.url.path == FakeAnthropic.tokenPath {
                for path in [storage.refreshLock, storage.legacyLock()] { locksSeen.append("\(FileSystem.exists(path))") }
            }
        }
        try h.writeExpiredLogin()
        #expect(h.run().result == .fetched)
        #expect(h.tokenRequests.count == 1)
        #expect(locksSeen.lines == ["true", "true"], "both of Claude Code's locks are held during the token request")
        // ... and released after, in Claude Code's order, leaving nothing behind.
        #expect(!FileSystem.exists(storage.refreshLock) && !FileSystem.exists(storage.legacyLock()))
        #expect(!FileSystem.exists(storage.writeLock))
        #expect(h.sandbox.oauthObject?["accessToken"] as? String == h.fake.validAccessToken)
    }

    /// Where Claude Code's locks cannot be made at all, `auto` falls back to the old rule: no
    /// refresh while a Claude Code process of this user runs.
    @Test func autoLeavesTheRefreshToARunningClaudeCodeWhenItsLocksCannotBeTaken() throws {
        let h = try FetchHarness(validAccess: "will-be-issued")
        let original = try h.writeExpiredLogin()
        // Locks under a directory that does not exist: mkdir fails for everyone.
        let nowhere = ClaudeCodeStorage(environment: ElbowroomEnvironment(["HOME": "/", "CLAUDE_CONFIG_DIR": h.sandbox.root + "/missing/dir"]))
        let renewal = h.renewal(mode: .auto, storage: nowhere)
        let stale = h.staleLogin
        #expect(throws: FetchError.self) { try renewal.renew(stale: stale, why: "expired", now: h.clock.now) }
        #expect(h.tokenRequests.isEmpty)
        #expect(h.sandbox.credentialsData() == original)
    }

    /// While Claude Code holds its refresh lock, elbowroom sends no token request: it waits as
    /// Claude Code does (re-reading the credentials), then backs off.
    @Test func whileClaudeCodeHoldsItsLockNoTokenRequestIsSent() throws {
        let h = try FetchHarness(validAccess: "will-be-issued")
        let original = try h.writeExpiredLogin()
        let storage = try h.claudeCodeHoldsItsRefreshLock()
        let pauses = LogBox()
        let renewal = h.renewal(mode: .always, storage: storage, pause: { pauses.append("\($0)") })
        let stale = h.staleLogin
        do {
            _ = try renewal.renew(stale: stale, why: "expired", now: h.clock.now)
            Issue.record("refreshed while claude code held its lock")
        } catch {
            #expect(error.outcome == .expired)
            #expect(error.description.contains("claude code is refreshing it right now"))
        }
        #expect(pauses.lines.count == TokenRenewal.busyRetries)
        #expect(pauses.lines.allSatisfy { Double($0).map { (1...2).contains($0) } == true })
        #expect(h.tokenRequests.isEmpty)
        #expect(h.sandbox.credentialsData() == original)
        // Its lock is left alone, and ours (the legacy one) is not left behind.
        #expect(FileSystem.exists(storage.refreshLock))
        #expect(!FileSystem.exists(storage.legacyLock()))
    }

    /// Claude Code refreshed while we waited for its lock: its new token is used, no request.
    @Test func aTokenClaudeCodeWroteWhileWeWaitedIsAdopted() throws {
        let h = try FetchHarness(validAccess: "will-be-issued")
        try h.writeExpiredLogin()
        let storage = try h.claudeCodeHoldsItsRefreshLock()
        let sandbox = h.sandbox
        let valid = h.valid
        let renewal = h.renewal(mode: .auto, storage: storage, pause: { _ in
                _ = try? sandbox.writeCredentials(accessToken: "sk-ant-oat01-claude-code-refreshed", refreshToken: "sk-ant-ort01-cc", expiresAt: valid)
            })
        let stale = h.staleLogin
        let renewed = try renewal.renew(stale: stale, why: "expired", now: h.clock.now)
        #expect(renewed.accessToken == "sk-ant-oat01-claude-code-refreshed")
        #expect(h.tokenRequests.isEmpty)
    }

    /// Under a pinned clock (`ELBOWROOM_NOW`) a token Claude Code wrote while we waited is
    /// judged by that clock, not the real one: valid for eight hours by it, long expired by the
    /// real clock, it is adopted; no token request.
    @Test func aTokenWrittenWhileWeWaitedIsJudgedByTheFetchsClock() throws {
        let h = try FetchHarness(validAccess: "will-be-issued")
        h.clock.advance(by: -10 * 86400)
        try h.writeExpiredLogin()
        let storage = try h.claudeCodeHoldsItsRefreshLock()
        let sandbox = h.sandbox
        let valid = h.valid
        #expect(valid < Date())
        let renewal = h.renewal(mode: .auto, storage: storage, pause: { _ in
                _ = try? sandbox.writeCredentials(accessToken: "sk-ant-oat01-claude-code-refreshed", refreshToken: "sk-ant-ort01-cc", expiresAt: valid)
            })
        let renewed = try renewal.renew(stale: h.staleLogin, why: "expired", now: h.clock.now)
        #expect(renewed.accessToken == "sk-ant-oat01-claude-code-refreshed")
        #expect(h.tokenRequests.isEmpty)
    }

    /// The refresh token's lifetime is written from the fetch's clock too, as the access token's is.
    @Test func aRefreshUnderAPinnedClockDatesBothTokensByIt() throws {
        let h = try FetchHarness(validAccess: "will-be-issued")
        h.fake.configure { $0.refreshTokenExpiresIn = 2_592_000 }
        h.clock.advance(by: -10 * 86400)
        try h.writeExpiredLogin()
        #expect(h.run().result == .fetched)
        let oauth = try #require(h.sandbox.oauthObject)
        let access = try #require((oauth["expiresAt"] as? NSNumber)?.doubleValue)
        let refresh = try #require((oauth["refreshTokenExpiresAt"] as? NSNumber)?.doubleValue)
        #expect(abs(refresh / 1000 - h.clock.now.addingTimeInterval(2_592_000).timeIntervalSince1970) < 1)
        #expect(access / 1000 < h.clock.now.addingTimeInterval(86400).timeIntervalSince1970)
    }

    /// A lock left by a holder that died (not touched for over a minute) is taken over, as
    /// Claude Code takes one over.
    @Test func aStaleLockIsTakenOverByClaudeCodesRule() throws {
        let h = try FetchHarness(validAccess: "will-be-issued")
        try h.writeExpiredLogin()
        let storage = try h.claudeCodeHoldsItsRefreshLock()
        var old = [timespec(tv_sec: Int(Date().timeIntervalSince1970) - 61, tv_nsec: 0),
                   timespec(tv_sec: Int(Date().timeIntervalSince1970) - 61, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, storage.refreshLock, &old, 0) == 0)
        #expect(h.run().result == .fetched)
        #expect(h.tokenRequests.count == 1)
        #expect(!FileSystem.exists(storage.refreshLock))
    }

    static func date(_ path: String, secondsFromNow: Int) -> Bool {
        let t = Int(Date().timeIntervalSince1970) + secondsFromNow
        var times = [timespec(tv_sec: t, tv_nsec: 0), timespec(tv_sec: t, tv_nsec: 0)]
        return utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW) == 0
    }

    /// A lock dated more than a minute ahead (its holder killed before the clock stepped back)
    /// is stale: taken over, not waited on until the clock catches up.
    @Test func aLockDatedAheadIsStaleAndTakenOver() throws {
        let h = try FetchHarness(validAccess: "will-be-issued")
        try h.writeExpiredLogin()
        let storage = ClaudeCodeStorage(environment: h.sandbox.elbowroomEnvironment)
        try FileManager.default.createDirectory(atPath: storage.legacyLock(), withIntermediateDirectories: false)
        #expect(Self.date(storage.legacyLock(), secondsFromNow: 3600))
        #expect(storage.lockHolders(now: Date()).first?.contains("stale (dated ahead") == true, "\(storage.lockHolders(now: Date()))")
        #expect(h.run().result == .fetched)
        #expect(h.tokenRequests.count == 1)
        #expect(!FileSystem.exists(storage.legacyLock()))
        // Within a minute ahead is a clock's jitter: still held.
        try FileManager.default.createDirectory(atPath: storage.refreshLock, withIntermediateDirectories: false)
        #expect(Self.date(storage.refreshLock, secondsFromNow: 30))
        #expect(storage.lockStates(now: Date()).first?.text.contains(" held") == true)
    }

    /// A stale lock nobody can take over (a file, a directory with something in it) says so,
    /// with its path, in the fetch's failure and in doctor's lines: not "refreshing right now".
    @Test func aStaleLockThatCannotBeRemovedIsStuckAndNamed() throws {
        for shape in ["file", "full directory", "symlink"] {
            let h = try FetchHarness(validAccess: "will-be-issued")
            try h.writeExpiredLogin()
            let storage = ClaudeCodeStorage(environment: h.sandbox.elbowroomEnvironment)
            let lock = storage.refreshLock
            switch shape {
            case "file": try Data("x".utf8).write(to: URL(fileURLWithPath: lock))
            case "symlink": #expect(symlink("/nonexistent", lock) == 0)
            default:
                try FileManager.default.createDirectory(atPath: lock, withIntermediateDirectories: false)
                try Data("x".utf8).write(to: URL(fileURLWithPath: lock + "/leftover"))
            }
            #expect(Self.date(lock, secondsFromNow: -600))
            let pauses = LogBox()
            let renewal = h.renewal(mode: .always, storage: storage, pause: { pauses.append("\($0)") })
            let stale = h.staleLogin
            do {
                _ = try renewal.renew(stale: stale, why: "expired", now: h.clock.now)
                Issue.record("refreshed past a stuck lock (\(shape))")
            } catch {
                #expect(error.outcome == .expired)
                #expect(error.description.contains("claude code's refresh lock \(lock) is stuck"), "\(shape): \(error.description)")
                #expect(!error.description.contains("refreshing it right now"))
            }
            #expect(pauses.lines.isEmpty, "a stuck lock is not waited on: it will not go away")
            #expect(h.tokenRequests.isEmpty)
            #expect(FileSystem.exists(lock) || shape == "symlink", "the lock is left for the user to look at")
            let states = storage.lockStates(now: Date())
            #expect(states.first?.stuck == true && states.first?.text.hasPrefix("\(lock) stuck") == true, "\(shape): \(states)")
            #expect(!FileSystem.exists(storage.legacyLock()), "ours is not left behind")
        }
    }

    @Test func neverRefreshes() throws {
        let h = try FetchHarness(validAccess: "will-be-issued")
        try h.sandbox.writeConfig("refresh = \"never\"\n")
        try h.writeExpiredLogin()
        #expect(h.run().result.failure?.outcome == .expired)
        #expect(h.tokenRequests.isEmpty)
    }

    @Test func alwaysRefreshesEvenWithClaudeRunning() throws {
        let h = try FetchHarness(validAccess: "will-be-issued")
        h.detector = FixedClaudeProcessDetector(running: true)
        try h.sandbox.writeConfig("refresh = \"always\"\n")
        try h.writeExpiredLogin()
        #expect(h.run().result == .fetched)
        #expect(h.tokenRequests.count == 1)
    }

    @Test func unauthorizedGetsOneRefreshAndOneRetry() throws {
        // Not expired by the clock, but the server no longer accepts it.
        let h = try FetchHarness(validAccess: "revoked-so-nothing-matches")
        try h.sandbox.writeCredentials(accessToken: Tokens.access, refreshToken: Tokens.refresh, expiresAt: h.valid)
        #expect(h.run().result == .fetched)
        #expect(h.usageRequests.count == 2)
        #expect(h.tokenRequests.count == 1)
        #expect(h.usageRequests[1].header("Authorization") == "Bearer \(h.fake.validAccessToken)")
    }

    @Test func unauthorizedAfterRefreshIsNotALoop() throws {
        let h = try FetchHarness()
        h.fake.usageReply = .status(401)
        // The token endpoint works, but usage keeps saying 401.
        h.server.setHandler { request in
            request.path.hasPrefix(FakeAnthropic.usagePath) ? .status(401) : h.fake.handle(request)
        }
        try h.sandbox.writeCredentials(accessToken: Tokens.access, refreshToken: Tokens.refresh, expiresAt: h.valid)
        let report = h.run()
        #expect(report.result.failure == .unauthorized)
        #expect(h.usageRequests.count == 2)
        #expect(h.tokenRequests.count == 1)
    }

    @Test func unauthorizedWithClaudeRunningIsRefreshedUnderItsLocks() throws {
        let h = try FetchHarness(validAccess: "revoked")
        h.detector = FixedClaudeProcessDetector(running: true)
        try h.sandbox.writeCredentials(accessToken: Tokens.access, refreshToken: Tokens.refresh, expiresAt: h.valid)
        #expect(h.run().result == .fetched)
        #expect(h.usageRequests.count == 2)
        #expect(h.tokenRequests.count == 1)
    }

    @Test func anotherProcessAlreadyRefreshedSoWeUseItsToken() throws {
        let h = try FetchHarness(validAccess: "sk-ant-oat01-refreshed-elsewhere-xxxxxxxx")
        try h.sandbox.writeCredentials(accessToken: "sk-ant-oat01-refreshed-elsewhere-xxxxxxxx",
                                       refreshToken: "sk-ant-ort01-new-refresh", expiresAt: h.valid)
        let stale = h.staleLogin
        let renewal = h.renewal(mode: .always, storage: nil, claudeRunning: false)
        let renewed = try renewal.renew(stale: stale, why: "expired", now: h.clock.now)
        #expect(renewed.accessToken == "sk-ant-oat01-refreshed-elsewhere-xxxxxxxx")
        #expect(h.tokenRequests.isEmpty)
    }

    @Test func credentialsChangedDuringTheRefreshAreNotOverwritten() throws {
        let h = try FetchHarness(validAccess: "will-be-issued")
        try h.writeExpiredLogin()
        let sandbox = h.sandbox
        // Claude Code writes its own new login while our token request is in flight.
        let theirs = Sandbox.credentialsJSON(accessToken: "sk-ant-oat01-claude-code-wrote-this",
                                             refreshToken: "sk-ant-ort01-claude-code-wrote-this",
                                             expiresAt: h.valid)
        h.transport.beforeSend = { request in
            if request.url.path == FakeAnthropic.tokenPath { _ = try? sandbox.writeCredentials(theirs) }
        }
        _ = h.run()
        // Claude Code's compare-and-swap: the stored refresh token is no longer the one we
        // posted, so their document stays and their tokens are the ones used.
        #expect(h.sandbox.credentialsData() == Data(theirs.utf8))
        #expect(h.usageRequests.last?.header("Authorization") == "Bearer sk-ant-oat01-claude-code-wrote-this")
    }

    @Test func otherKeysChangedDuringTheRefreshStillGetTheRotatedToken() throws {
        // Claude Code rewrites mcpOAuth while our token request is in flight. The refresh token we
        // spent is gone for good: the rotated one must be saved, into the document as it is now.
        let h = try FetchHarness(validAccess: "will-be-issued")
        try h.writeExpiredLogin()
        let sandbox = h.sandbox
        let edited = Sandbox.credentialsJSON(accessToken: Tokens.access, refreshToken: Tokens.refresh, expiresAt: h.expired)
            .replacingOccurrences(of: "\"serverName\":\"github\"", with: "\"serverName\":\"github-renamed\"")
        h.transport.beforeSend = { request in
            if request.url.path == FakeAnthropic.tokenPath { _ = try? sandbox.writeCredentials(edited) }
        }
        #expect(h.run().result == .fetched)
        let document = try #require(h.sandbox.credentialsObject())
        let oauth = try #require(document["claudeAiOauth"] as? [String: Any])
        #expect(oauth["refreshToken"] as? String == h.fake.validRefreshToken)
        #expect(oauth["accessToken"] as? String == h.fake.validAccessToken)
        let mcp = try #require(document["mcpOAuth"] as? [String: [String: Any]])
        #expect(mcp["github|abc123"]?["serverName"] as? String == "github-renamed")
    }

    @Test func corruptCredentialsAreSignedOutAndNeverRewritten() throws {
        let h = try FetchHarness()
        let original = try h.sandbox.writeCredentials(#"{"claudeAiOauth":{"accessToken":"sk-ant-oat01-trunc"#)
        let report = h.run()
        #expect(report.result.failure?.outcome == .signedOut)
        #expect(report.result.failure?.description.contains("left untouched") == true)
        #expect(h.sandbox.credentialsData() == original)
        #expect(h.server.requests.isEmpty)
    }

    @Test(arguments: [
        nil,  // no file at all
        #"{"claudeAiOauth":{"accessToken":"","refreshToken":"","expiresAt":0}}"#,
        #"{"mcpOAuth":{"x":{"accessToken":"mcp"}}}"#,
    ] as [String?])
    func noLoginIsSignedOutWithAHint(document: String?) throws {
        let h = try FetchHarness()
        if let document { try h.sandbox.writeCredentials(document) }
        let error = try #require(h.run().result.failure)
        #expect(error.outcome == .signedOut)
        #expect(error.description.contains("/login"))
        #expect(h.server.requests.isEmpty)
    }

    @Test(arguments: ["CLAUDE_CODE_OAUTH_TOKEN", "ELBOWROOM_ENV_TOKEN_PRESENT"])
    func inferenceOnlyTokenIsExplained(variable: String) throws {
        let h = try FetchHarness()
        h.sandbox.extra[variable] = variable == "ELBOWROOM_ENV_TOKEN_PRESENT" ? "1" : "sk-ant-oat01-inference-only-zzzzzzzz"
        let error = try #require(h.run().result.failure)
        #expect(error.outcome == .signedOut)
        #expect(error.description.contains("inference-only"))
        #expect(!error.description.contains("sk-ant"))
        #expect(h.server.requests.isEmpty)
    }

    @Test func plainHTTPToAStrangerIsRefusedBeforeConnecting() throws {
        let h = try FetchHarness()
        h.sandbox.extra["ELBOWROOM_API_URL"] = "http://example.com"
        try h.sandbox.writeCredentials(accessToken: Tokens.access, refreshToken: Tokens.refresh, expiresAt: h.valid)
        let error = try #require(h.run(.force).result.failure)
        #expect(error.outcome == .config)
        #expect(error.description.contains("https"))
        #expect(h.transport.requests.isEmpty)
    }

    @Test func rateLimitIsRecordedAndObeyed() throws {
        let h = try FetchHarness()
        h.fake.usageReply = .rateLimited(retryAfter: "1800")
        try h.sandbox.writeCredentials(accessToken: Tokens.access, refreshToken: Tokens.refresh, expiresAt: h.valid)
        let error = try #require(h.run(.whenDue).result.failure)
        #expect(error == .rateLimited(retryAfter: 1800))
        let cache = try #require(CacheStore(paths: h.sandbox.paths).load())
        #expect(abs((cache.fetch.cooldownUntil?.timeIntervalSince(h.clock.now) ?? 0) - 1800) < 0.01)
        // when-due and now both wait; only force goes through.
        h.clock.advance(by: 600)
        #expect(h.run(.whenDue).exitCode == 0)
        #expect(h.run(.now).exitCode == 0)
        #expect(h.usageRequests.count == 1)
        h.fake.usageReply = .json(200, UsageFixtures.flat)
        #expect(h.run(.force).result == .fetched)
        #expect(h.usageRequests.count == 2)
    }

    @Test func logNeverShowsATokenAndTheCacheNeverHoldsOne() throws {
        let h = try FetchHarness(validAccess: "sk-ant-oat01-issued-will-be-checked")
        try h.writeExpiredLogin()
        #expect(h.run().result == .fetched)
        let everything = h.logLines.joined(separator: "\n") + h.sandbox.cacheContents()
        #expect(!h.logLines.isEmpty)
        for secret in [Tokens.access, Tokens.refresh, h.fake.validAccessToken, h.fake.validRefreshToken] {
            #expect(!everything.contains(secret))
        }
    }
}

extension FetchReport {
    var skipReason: String? {
        if case .skipped(let reason) = result { return reason }
        return nil
    }
}

enum FakeProc {
    static func add(pid: Int, comm: String, cmdline: [String], to root: String) throws {
        let dir = "\(root)/\(pid)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Data((comm + "\n").utf8).write(to: URL(fileURLWithPath: dir + "/comm"))
        try Data(cmdline.map { $0 + "\0" }.joined().utf8).write(to: URL(fileURLWithPath: dir + "/cmdline"))
    }
}

@Suite struct ClaudeProcessDetectorTests {
    @Test(arguments: [
        ("claude", ["claude"], true),
        ("claude", ["/home/me/.local/bin/claude", "--resume"], true),
        ("node", ["node", "/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js"], true),
        ("node", ["/usr/bin/node", "/home/me/.npm-global/bin/claude"], true),
        ("MainThread", ["/home/me/.local/bin/claude"], true),
        ("node", ["node", "server.js"], false),
        ("vim", ["vim", "claude-notes.md"], false),
        ("bash", ["bash", "-c", "echo claude"], false),
        ("elbowroom-fetch", ["elbowroom-fetch"], false),
    ])
    func recognisesClaudeCode(comm: String, cmdline: [String], expected: Bool) throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let root = sandbox.root + "/proc"
        try FakeProc.add(pid: 100, comm: comm, cmdline: cmdline, to: root)
        #expect(ProcClaudeProcessDetector(procRoot: root, ownPID: 1).isClaudeRunning() == expected)
    }

    @Test func ignoresItsOwnProcess() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let root = sandbox.root + "/proc"
        try FakeProc.add(pid: 77, comm: "claude", cmdline: ["claude"], to: root)
        try FileManager.default.createDirectory(atPath: root + "/self", withIntermediateDirectories: true)
        #expect(!ProcClaudeProcessDetector(procRoot: root, ownPID: 77).isClaudeRunning())
    }

    /// Another user's Claude Code refreshes another login: it never stops this user's refresh.
    @Test func onlyThisUsersProcessesCount() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let root = sandbox.root + "/proc"
        try FakeProc.add(pid: 88, comm: "claude", cmdline: ["claude"], to: root)
        #expect(ProcClaudeProcessDetector(procRoot: root, ownPID: 1).isClaudeRunning())
        #expect(!ProcClaudeProcessDetector(procRoot: root, ownPID: 1, uid: getuid() + 1).isClaudeRunning())
    }

    @Test func anUnreadableProcCountsAsRunning() {
        // Not knowing must not license a second refresher.
        #expect(ProcClaudeProcessDetector(procRoot: "/nonexistent-proc", ownPID: 1).isClaudeRunning())
    }
}

extension FetchHarness {
    /// A renewal of the sandbox's file login against the fake token endpoint, with Claude Code
    /// said to be running (or not); `storage` nil: Claude Code's locks are not taken.
    func renewal(mode: RefreshMode, storage: ClaudeCodeStorage?, claudeRunning: Bool = true,
                 pause: @escaping @Sendable (TimeInterval) -> Void = { _ in }) -> TokenRenewal {
        TokenRenewal(
            source: FileCredentialSource(path: sandbox.credentialsFile),
            refresher: TokenRefresher(tokenURL: URL(string: server.baseURL + FakeAnthropic.tokenPath)!, transport: transport, timeout: 5),
            mode: mode, detector: FixedClaudeProcessDetector(running: claudeRunning), log: DebugLog(enabled: false),
            storage: storage, pause: pause)
    }
}
