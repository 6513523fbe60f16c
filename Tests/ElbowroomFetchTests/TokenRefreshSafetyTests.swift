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
        try h.sandbox.writeCredentials(accessToken: Tokens.access, refreshToken: Tokens.refresh, expiresAt: h.expired)
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
        let before = try h.sandbox.writeCredentials(accessToken: Tokens.access, refreshToken: Tokens.refresh, expiresAt: h.expired)
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
        #expect(TokenGrant(accessToken: "a", refreshToken: nil, expiresIn: 1e300).description.contains("expires_in"))
        #expect(FetchError.rateLimited(retryAfter: .infinity).description.hasPrefix("rate limited"))
        #expect(TransportError.timeout(.infinity).description == "no answer within infs")
        var state = FetchState(consecutiveFailures: .max)
        state.recordFailure(.network, message: nil, at: Date(timeIntervalSince1970: 0))
        #expect(state.consecutiveFailures == 1000)
        #expect(FetchState.backoff(failures: .min) == 30)
    }
}

/// The built fetcher, where a trap ends the process.
@Suite(.serialized) struct RefreshSignalTests {
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
    }
}
