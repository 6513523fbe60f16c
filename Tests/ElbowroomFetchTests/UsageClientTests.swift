import Foundation
import Testing
import ElbowroomCore
@testable import ElbowroomFetch
import ElbowroomTestSupport

/// The real transport (`PlatformTransport`: elbowroom-http over libcurl on Linux, URLSession on
/// Apple platforms) against the loopback server.
@Suite struct UsageClientTests {
    static let token = "sk-ant-oat01-usage-client-test-token-0123456789"
    let now = Date(timeIntervalSince1970: 1_795_000_000)

    func client(_ server: LoopbackHTTPServer, timeout: TimeInterval = 5) -> UsageClient {
        UsageClient(apiBase: URL(string: server.baseURL)!, transport: PlatformTransport.make(), timeout: timeout)
    }

    func fetch(_ reply: ServerReply, timeout: TimeInterval = 5) throws -> (Result<Reading, FetchError>, LoopbackHTTPServer) {
        let server = try LoopbackHTTPServer { _ in reply }
        let result: Result<Reading, FetchError>
        do {
            result = .success(try client(server, timeout: timeout).fetch(accessToken: Self.token, plan: "max", now: now))
        } catch {
            result = .failure(error)
        }
        server.stop()
        return (result, server)
    }

    @Test func sendsExactlyTheExpectedHeaders() throws {
        let (result, server) = try fetch(.json(200, UsageFixtures.flat))
        let reading = try result.get()
        #expect(reading.window(key: "five_hour")?.used == 12.5)
        #expect(reading.plan == "max")
        let request = try #require(server.requests.first)
        #expect(server.requests.count == 1)
        #expect(request.method == "GET")
        #expect(request.path == "/api/oauth/usage")
        #expect(request.header("Authorization") == "Bearer \(Self.token)")
        #expect(request.header("anthropic-beta") == "oauth-2025-04-20")
        // As Claude Code 2.1 sends them to this endpoint (its usage-endpoint agent string).
        #expect(request.header("User-Agent") == "claude-cli/2.1.331 (external, cli)")
        #expect(request.header("Content-Type") == "application/json")
        #expect(request.header("Accept-Encoding") == "identity")
        #expect(request.header("Cookie") == nil)
    }

    @Test(arguments: [
        (ServerReply.status(401), FetchOutcome.unauthorized),
        // A 403 is rate limiting, as Claude Code reads it (unless the scopes lack user:profile).
        (.status(403), .rateLimited),
        (.rateLimited(retryAfter: "120"), .rateLimited),
        (.status(500), .server),
        (.status(503), .server),
        (.garbage, .undecodable),
        (.status(404), .undecodable),
        (.redirect(to: "/followed"), .undecodable),
        (.drop, .network),
        (.raw(Data("not http at all\r\n\r\n".utf8)), .network),
    ])
    func mapsEachAnswerToAnOutcome(reply: ServerReply, outcome: FetchOutcome) throws {
        let (result, _) = try fetch(reply)
        guard case .failure(let error) = result else {
            Issue.record("expected \(outcome), got a reading")
            return
        }
        #expect(error.outcome == outcome)
        #expect(!error.description.contains(Self.token))
        #expect(error.description == error.description.lowercased() || error.description.contains("CLAUDE_CODE"))
    }

    @Test func forbiddenExplainsTheMissingScopeOnlyWhenTheScopesLackIt() throws {
        let server = try LoopbackHTTPServer { _ in .status(403, headers: [("Retry-After", "120")]) }
        defer { server.stop() }
        let withProfile = Result { () throws(FetchError) in
            try client(server).fetch(accessToken: Self.token, plan: nil, scopes: ["user:inference", "user:profile"], now: now)
        }
        #expect(withProfile.failure == .rateLimited(retryAfter: 120))
        let unknown = Result { () throws(FetchError) in try client(server).fetch(accessToken: Self.token, plan: nil, now: now) }
        #expect(unknown.failure == .rateLimited(retryAfter: 120))
        let result = Result { () throws(FetchError) in
            try client(server).fetch(accessToken: Self.token, plan: nil, scopes: ["user:inference"], now: now)
        }
        guard case .failure(let error) = result else { Issue.record("no error"); return }
        #expect(error == .forbidden)
        #expect(error.description.contains("user:profile"))
        #expect(error.description.contains("setup-token"))
    }

    @Test(arguments: [
        ("120", 120.0), ("0", 300.0), (nil, 300.0), ("soon", 300.0), ("-5", 300.0),
        // An HTTP date 3600 s after `now` (1_795_000_000 = Sat, 18 Nov 2026 ...).
    ] as [(String?, Double)])
    func retryAfterSecondsOrDefault(header: String?, expected: Double) throws {
        let (result, _) = try fetch(.rateLimited(retryAfter: header))
        guard case .failure(.rateLimited(let wait)) = result else { Issue.record("not rate limited"); return }
        #expect(wait == expected)
    }

    @Test func retryAfterAsHTTPDate() throws {
        let date = now.addingTimeInterval(3600)
        let text = Self.httpDate(date)
        #expect(RetryAfter.httpDate(text) == date)
        let (result, _) = try fetch(.rateLimited(retryAfter: text))
        guard case .failure(.rateLimited(let wait)) = result else { Issue.record("not rate limited"); return }
        #expect(wait == 3600)
        // A date in the past means "unknown": the default.
        #expect(RetryAfter.seconds(Self.httpDate(now.addingTimeInterval(-60)), now: now) == 300)
        #expect(RetryAfter.httpDate("Sunday, 06-Nov-94 08:49:37 GMT") == ISO8601.parse("1994-11-06T08:49:37Z"))
        #expect(RetryAfter.httpDate("Sun Nov  6 08:49:37 1994") == ISO8601.parse("1994-11-06T08:49:37Z"))
    }

    @Test func absurdRetryAfterIsCappedAtADayAndNeverCrashes() throws {
        #expect(RetryAfter.seconds("1e300", now: now) == 86400)
        #expect(RetryAfter.seconds("99999999", now: now) == 86400)
        #expect(RetryAfter.seconds(Self.httpDate(now.addingTimeInterval(9 * 86400)), now: now) == 86400)
        // The usage api's own wait is bounded by an hour, as Claude Code bounds it.
        let (result, _) = try fetch(.rateLimited(retryAfter: "1e300"))
        guard case .failure(.rateLimited(let wait)) = result else { Issue.record("not rate limited"); return }
        #expect(wait == 3600)
        var state = FetchState()
        state.recordFailure(.rateLimited, message: nil, at: now, retryAfter: .infinity)
        #expect(state.cooldownUntil == now.addingTimeInterval(300))
    }

    /// A 200 whose body is an error envelope is rate limiting (or the error it names), never
    /// "not usage json".
    @Test func anErrorEnvelopeIsRateLimitingNotAParseError() throws {
        let (limited, _) = try fetch(.json(200, #"{"error":{"type":"rate_limit_error","message":"slow down"}}"#))
        #expect(limited.failure == .rateLimited(retryAfter: 300))
        let (other, _) = try fetch(.json(200, #"{"type":"error","error":{"type":"overloaded_error"}}"#))
        #expect(other.failure?.description == "the usage api answered with an error (overloaded_error)")
    }

    /// `user_agent` in the config is what goes on the wire.
    @Test func theConfiguredAgentStringIsSent() throws {
        let server = try LoopbackHTTPServer { _ in .json(200, UsageFixtures.flat) }
        defer { server.stop() }
        let client = UsageClient(apiBase: URL(string: server.baseURL)!, transport: PlatformTransport.make(), timeout: 5,
                                 userAgent: "claude-cli/9.9.9 (external, cli)")
        _ = try client.fetch(accessToken: Self.token, plan: nil, now: now)
        #expect(server.requests.first?.header("User-Agent") == "claude-cli/9.9.9 (external, cli)")
        let config = try Config.parse("user_agent = \"claude-cli/9.9.9 (external, cli)\"\n", file: "c")
        #expect(config.userAgent == "claude-cli/9.9.9 (external, cli)")
        #expect(throws: ConfigError.self) { try Config.parse("user_agent = \"a\\nb\"\n", file: "c") }
    }

    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    @Test func redirectIsNotFollowedAndTheTokenStaysHere() throws {
        let server = try LoopbackHTTPServer { request in
            request.path.hasPrefix("/api/oauth/usage") ? .redirect(to: "/followed") : .json(200, UsageFixtures.flat)
        }
        defer { server.stop() }
        #expect(throws: FetchError.redirect(status: 302)) {
            try client(server).fetch(accessToken: Self.token, plan: nil, now: now)
        }
        #expect(server.requests(path: "/followed").isEmpty)
        #expect(server.requests.count == 1)
        #expect(!server.requests.dropFirst().contains { $0.allText.contains(Self.token) })
    }

    @Test func redirectToAnotherHostIsNotFollowedEither() throws {
        let target = try LoopbackHTTPServer { _ in .json(200, UsageFixtures.flat) }
        defer { target.stop() }
        let (result, _) = try fetch(.redirect(to: target.baseURL + "/stolen"))
        #expect(throws: FetchError.redirect(status: 302)) { try result.get() }
        #expect(target.requests.isEmpty)
    }

    @Test func oversizedBodyIsRefused() throws {
        let (result, _) = try fetch(.oversized())
        guard case .failure(.undecodable(let why)) = result else { Issue.record("expected undecodable"); return }
        #expect(why.contains("1 MiB"))
    }

    @Test func oversizedWithoutContentLengthIsRefusedToo() throws {
        // Chunked-like: no Content-Length, the body simply keeps coming until close.
        var text = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n"
        text += "{\"pad\":\"" + String(repeating: "y", count: (1 << 20) + 10) + "\"}"
        let (result, _) = try fetch(.raw(Data(text.utf8)))
        guard case .failure(.undecodable(let why)) = result else { Issue.record("expected undecodable, got \(result)"); return }
        #expect(why.contains("1 MiB"))
    }

    @Test func hangTimesOutWithinTheConfiguredTimeout() throws {
        let server = try LoopbackHTTPServer { _ in .hang }
        defer { server.stop() }
        let started = Date()
        #expect(throws: FetchError.timeout(1)) {
            try client(server, timeout: 1).fetch(accessToken: Self.token, plan: nil, now: now)
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed >= 0.9 && elapsed < 1.6)
    }

    @Test func connectionRefusedIsNetwork() throws {
        let server = try LoopbackHTTPServer()
        let base = server.baseURL
        server.stop()
        let client = UsageClient(apiBase: URL(string: base)!, transport: PlatformTransport.make(), timeout: 2)
        #expect {
            try client.fetch(accessToken: Self.token, plan: nil, now: now)
        } throws: { ($0 as? FetchError)?.outcome == .network }
    }

    @Test(arguments: [
        (UsageFixtures.flat, ["five_hour", "seven_day", "seven_day_sonnet"]),
        (UsageFixtures.limitsOnly, ["five_hour", "seven_day", "seven_day_sonnet"]),
        (UsageFixtures.mixed, ["five_hour", "seven_day"]),
        (UsageFixtures.allNull, []),
        (UsageFixtures.codenames, ["five_hour", "seven_day_walrus"]),
    ])
    func decodesEveryFixtureShape(body: String, keys: [String]) throws {
        let (result, _) = try fetch(.json(200, body))
        let reading = try result.get()
        #expect(Set(reading.windows.map(\.key)) == Set(keys))
    }

    @Test func transportRefusesCleartextToAnotherHost() throws {
        let transport = PlatformTransport.make()
        #expect {
            try transport.send(HTTPRequest(url: URL(string: "http://example.com/api/oauth/usage")!,
                                           headers: [("Authorization", "Bearer \(Self.token)")], timeout: 1))
        } throws: { error in
            guard case .network(let why) = error as? TransportError else { return false }
            return why.contains("https is required")
        }
    }

    @Test func requestsAndGrantsNeverInterpolateTheirTokens() {
        let client = UsageClient(apiBase: URL(string: "https://api.anthropic.com")!, transport: PlatformTransport.make(), timeout: 1)
        let request = client.request(accessToken: Self.token)
        let grant = TokenGrant(accessToken: Self.token, refreshToken: Self.token + "-r", expiresIn: 60)
        for text in ["\(request)", String(reflecting: request), "\(grant)", String(reflecting: grant)] {
            #expect(!text.contains(Self.token))
        }
    }
}
