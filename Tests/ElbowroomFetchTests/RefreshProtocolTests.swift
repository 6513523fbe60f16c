import Foundation
import Testing
import ElbowroomCore
@testable import ElbowroomFetch
import ElbowroomTestSupport

/// The token refresh as Claude Code 2.1 makes it (CLAUDE-CODE.md, "Token refresh"): what goes in
/// the request, and what of the answer is kept.
@Suite struct RefreshProtocolTests {
    func tokenBody(_ h: FetchHarness, _ index: Int = 0) throws -> [String: String] {
        try #require(try JSONSerialization.jsonObject(with: h.tokenRequests[index].body) as? [String: String])
    }

    func write(_ h: FetchHarness, oauthExtra: String) throws {
        let json = #"{"claudeAiOauth":{"accessToken":"\#(Tokens.access)","refreshToken":"\#(Tokens.refresh)","expiresAt":\#(Int(h.expired.timeIntervalSince1970 * 1000))\#(oauthExtra)},"mcpOAuth":{"k":1}}"#
        try h.sandbox.writeCredentials(json)
    }

    @Test func optionalScopesAlreadyHeldAreAskedForAgain() throws {
        let h = try FetchHarness(validAccess: "will-be-issued")
        try write(h, oauthExtra: #","scopes":["user:inference","user:profile","user:projects:read","user:privacy_consents:write"]"#)
        #expect(h.run().result == .fetched)
        #expect(try tokenBody(h)["scope"] == "user:profile user:inference user:sessions:claude_code user:mcp_servers user:file_upload user:plugins user:projects:read user:privacy_consents:write")
    }

    @Test func aStoredClientIDIsUsedWithTheStoredScopes() throws {
        let h = try FetchHarness(validAccess: "will-be-issued")
        try write(h, oauthExtra: #","clientId":"client-from-the-login","scopes":["user:inference","user:profile"]"#)
        #expect(h.run().result == .fetched)
        let body = try tokenBody(h)
        #expect(body["client_id"] == "client-from-the-login")
        #expect(body["scope"] == "user:inference user:profile")
    }

    @Test func invalidScopeIsRetriedOnceWithTheStoredScopes() throws {
        let h = try FetchHarness(validAccess: "will-be-issued")
        h.fake.configure { $0.onlyScope = "user:inference user:profile" }
        try write(h, oauthExtra: #","scopes":["user:inference","user:profile"]"#)
        #expect(h.run().result == .fetched)
        #expect(h.tokenRequests.count == 2)
        #expect(try tokenBody(h, 1)["scope"] == "user:inference user:profile")
        // Once: a second invalid_scope is a failure, not a loop.
        let again = try FetchHarness(validAccess: "will-be-issued")
        again.fake.configure { $0.onlyScope = "nothing anyone asks for" }
        try write(again, oauthExtra: #","scopes":["user:inference","user:profile"]"#)
        #expect(again.run().result.failure != nil)
        #expect(again.tokenRequests.count == 2)
    }

    @Test func theGrantedScopeAndTheRefreshTokensLifetimeAreKeptAsClaudeCodeKeepsThem() throws {
        let h = try FetchHarness(validAccess: "will-be-issued")
        h.fake.configure {
            $0.grantedScope = "user:inference user:profile user:sessions:claude_code"
            $0.refreshTokenExpiresIn = 2_592_000
        }
        try write(h, oauthExtra: #","scopes":["user:inference"],"subscriptionType":"max","futureField":{"a":[1,2]}"#)
        #expect(h.run().result == .fetched)
        let oauth = try #require(h.sandbox.oauthObject)
        #expect(oauth["scopes"] as? [String] == ["user:inference", "user:profile", "user:sessions:claude_code"])
        let refreshExpires = try #require((oauth["refreshTokenExpiresAt"] as? NSNumber)?.doubleValue)
        #expect(abs(refreshExpires / 1000 - Date().addingTimeInterval(2_592_000).timeIntervalSince1970) < 5)
        // Every other key of claudeAiOauth and of the document survives.
        #expect(oauth["subscriptionType"] as? String == "max")
        #expect((oauth["futureField"] as? [String: Any])?["a"] as? [Int] == [1, 2])
        #expect((h.sandbox.credentialsObject()?["mcpOAuth"] as? [String: Any])?["k"] as? Int == 1)
    }

    /// A 200 whose access token cannot be read but whose rotated refresh token can: the old one
    /// is spent, so the new one is saved (and the next fetch refreshes with it), never dropped.
    @Test(arguments: [
        #"{"access_token":42,"refresh_token":"sk-ant-ort01-rotated-in-a-bad-answer"}"#,
        #"{"refresh_token": "sk-ant-ort01-rotated-in-a-bad-answer", "access_token": "trunc"#,
    ])
    func aRotatedRefreshTokenInAnAnswerThatDoesNotParseIsSaved(body: String) throws {
        let h = try FetchHarness(validAccess: "will-be-issued")
        h.fake.configure { $0.tokenReply = .json(200, body) }
        try write(h, oauthExtra: "")
        let report = h.run()
        #expect(report.result.failure != nil)
        let oauth = try #require(h.sandbox.oauthObject)
        #expect(oauth["refreshToken"] as? String == "sk-ant-ort01-rotated-in-a-bad-answer")
        #expect(report.result.failure?.description.contains("the refresh token was saved") == true)
        #expect(h.usageRequests.isEmpty)
    }

    /// Nothing readable at all: the stored tokens stay, and the message says what happened.
    @Test func anAnswerWithNothingReadableLeavesTheTokensAndSaysWhy() throws {
        let h = try FetchHarness(validAccess: "will-be-issued")
        h.fake.configure { $0.tokenReply = .json(200, "<html>gateway</html>") }
        try write(h, oauthExtra: "")
        let report = h.run()
        #expect(h.sandbox.oauthObject?["refreshToken"] as? String == Tokens.refresh)
        #expect(report.result.failure?.description.contains("could not be read") == true)
    }
}

/// Claude Code keeps the whole usage body it last read in its global config; the fetcher takes
/// it, before asking the network, when it is newer than the cache and the signed-in account's.
@Suite struct ClaudeSnapshotSourceTests {
    func writeGlobalConfig(_ h: FetchHarness, age: TimeInterval, owner: String = "acct-1", fiveHour: Double = 42) throws {
        let ms = Int((h.clock.now.timeIntervalSince1970 - age) * 1000)
        let body = #"{"five_hour":{"utilization":\#(fiveHour),"resets_at":"2099-01-01T00:00:00Z"},"seven_day":null}"#
        let json = #"{"numStartups":3,"oauthAccount":{"accountUuid":"acct-1","emailAddress":"a@b.c"},"cachedUsageUtilization":{"fetchedAtMs":\#(ms),"accountUuid":"\#(owner)","utilization":\#(body)}}"#
        let file = ClaudeCodeStorage(environment: h.sandbox.elbowroomEnvironment).globalConfigFile
        try Data(json.utf8).write(to: URL(fileURLWithPath: file))
    }

    @Test func aFreshSnapshotIsTakenWithoutARequest() throws {
        let h = try FetchHarness()
        try h.sandbox.writeCredentials(accessToken: Tokens.access, refreshToken: Tokens.refresh, expiresAt: h.valid)
        try writeGlobalConfig(h, age: 30)
        let report = h.run(.whenDue)
        #expect(report.skipReason?.contains("claude code's own usage snapshot") == true)
        #expect(h.usageRequests.isEmpty)
        let cache = try #require(CacheStore(paths: h.sandbox.paths).load())
        #expect(cache.reading?.source == .claudeSnapshot)
        #expect(cache.reading?.window(key: "five_hour")?.used == 42)
        // Not due again until the snapshot is max_age old.
        #expect(h.run(.whenDue).skipReason != nil)
        #expect(h.usageRequests.isEmpty)
    }

    @Test func anOldSnapshotIsKeptButTheNetworkIsAskedToo() throws {
        let h = try FetchHarness()
        try h.sandbox.writeCredentials(accessToken: Tokens.access, refreshToken: Tokens.refresh, expiresAt: h.valid)
        try writeGlobalConfig(h, age: 600)
        #expect(h.run(.whenDue).result == .fetched)
        #expect(h.usageRequests.count == 1)
        #expect(CacheStore(paths: h.sandbox.paths).load()?.reading?.source == .api)
    }

    @Test func anotherAccountsSnapshotIsNeverTaken() throws {
        let h = try FetchHarness()
        try h.sandbox.writeCredentials(accessToken: Tokens.access, refreshToken: Tokens.refresh, expiresAt: h.valid)
        try writeGlobalConfig(h, age: 30, owner: "someone-else")
        #expect(h.run(.whenDue).result == .fetched)
        #expect(h.usageRequests.count == 1)
        #expect(CacheStore(paths: h.sandbox.paths).load()?.reading?.window(key: "five_hour")?.used == 12.5)
    }

    @Test func aSnapshotNoNewerThanTheCacheIsNotTaken() throws {
        let h = try FetchHarness()
        try h.sandbox.writeCredentials(accessToken: Tokens.access, refreshToken: Tokens.refresh, expiresAt: h.valid)
        try writeGlobalConfig(h, age: 30)
        var cache = CacheFile(account: h.sandbox.paths.accountSource, reading: Reading(
            windows: [UsageWindow(key: "five_hour", used: 7, resetsAt: h.clock.now.addingTimeInterval(3600), observedAt: h.clock.now)],
            fetchedAt: h.clock.now.addingTimeInterval(-10), source: .api))
        cache.fetch.recordSuccess(at: h.clock.now.addingTimeInterval(-1000))
        try CacheStore(paths: h.sandbox.paths).save(cache)
        #expect(h.run(.whenDue).result == .fetched)
        #expect(h.usageRequests.count == 1)
    }
}
