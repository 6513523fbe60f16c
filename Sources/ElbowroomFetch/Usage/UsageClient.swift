#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ElbowroomCore

/// `GET {api}/api/oauth/usage` with exactly the headers Claude Code 2.1 sends to it:
/// `Authorization`, `anthropic-beta`, `Content-Type: application/json` and its usage-endpoint
/// agent string (`claude-cli/<version> (external, cli)`, not the `claude-code/<version>` it sends
/// elsewhere). `user_agent` in the config replaces the agent string, so a server change can be
/// followed without a release.
public struct UsageClient: Sendable {
    /// The endpoint answers agents it does not know with a permanent 429 (`retry-after: 0`).
    public static let defaultUserAgent = "claude-cli/2.1.331 (external, cli)"
    public static let betaHeader = "oauth-2025-04-20"
    public static let usagePath = "/api/oauth/usage"
    /// The longest wait a 429 or 403 is given, whatever `Retry-After` says (Claude Code's bound).
    public static let longestRetryAfter: TimeInterval = 3600

    public let apiBase: URL
    public let transport: any HTTPTransport
    public let timeout: TimeInterval
    public let userAgent: String

    public init(apiBase: URL, transport: any HTTPTransport, timeout: TimeInterval,
                userAgent: String = UsageClient.defaultUserAgent) {
        self.apiBase = apiBase
        self.transport = transport
        self.timeout = timeout
        self.userAgent = userAgent
    }

    public var usageURL: URL { Self.url(apiBase, path: Self.usagePath) }

    /// The request for `accessToken`, or without `Authorization` for a reachability probe.
    public func request(accessToken: String?) -> HTTPRequest {
        var headers: [(name: String, value: String)] = []
        if let accessToken { headers.append(("Authorization", "Bearer \(accessToken)")) }
        headers += [("anthropic-beta", Self.betaHeader), ("Content-Type", "application/json"),
                    ("User-Agent", userAgent)]
        return HTTPRequest(method: "GET", url: usageURL, headers: headers, timeout: timeout)
    }

    /// The raw usage body, or the typed reason there is none. `scopes`: the login's, when known
    /// (a 403 is a missing scope only when they lack `user:profile`).
    public func fetchBody(accessToken: String, scopes: [String]? = nil, now: Date) throws(FetchError) -> Data {
        let response: HTTPResponse
        do {
            response = try transport.send(request(accessToken: accessToken))
        } catch {
            throw FetchError.from(error)
        }
        try Self.check(response, scopes: scopes, now: now)
        try Self.checkEnvelope(response.body)
        return response.body
    }

    /// The reading, decoded with Core's decoder.
    public func fetch(accessToken: String, plan: String?, scopes: [String]? = nil, now: Date) throws(FetchError) -> Reading {
        let body = try fetchBody(accessToken: accessToken, scopes: scopes, now: now)
        do {
            return try UsageDecoder.decode(body, observedAt: now, plan: plan)
        } catch {
            throw FetchError.undecodable("the usage api answered with something that is not usage json")
        }
    }

    /// Maps a status to success or a `FetchError`. Like Claude Code, a 403 whose body is an
    /// Anthropic error (`error.type` a string) refuses this token: not asked again for an hour
    /// (`refusedLogin`); any other 403 is rate limiting (`Retry-After`, else 5 min, at most 1 h)
    /// unless the login's scopes really lack `user:profile`: only then is it "this login cannot
    /// read usage" (CLAUDE-CODE.md, corrected 2026-11-27).
    static func check(_ response: HTTPResponse, scopes: [String]? = nil, now: Date) throws(FetchError) {
        switch response.status {
        case 200..<300: return
        case 300..<400: throw .redirect(status: response.status)
        case 401: throw .unauthorized
        case 403 where scopes.map({ !$0.contains("user:profile") }) == true:
            throw .forbidden
        case 403:
            if let type = anthropicErrorType(response.body) { throw .refusedLogin(type: type) }
            throw .rateLimited(retryAfter: min(RetryAfter.seconds(response.header("retry-after"), now: now), longestRetryAfter))
        case 429:
            throw .rateLimited(retryAfter: min(RetryAfter.seconds(response.header("retry-after"), now: now), longestRetryAfter))
        case 500..<600: throw .server(status: response.status)
        default: throw .undecodable("the usage api answered with an unexpected status (\(response.status))")
        }
    }

    /// `error.type` of an Anthropic error body (`{"type":"error","error":{"type":"permission_error",
    /// "message":…}}`), cleaned and short; `nil` for anything else (an HTML page, no body, a
    /// proxy's JSON without a string `error.type`).
    static func anthropicErrorType(_ body: Data) -> String? {
        guard body.count < 64 * 1024,
              body.firstIndex(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }).map({ body[$0] == 0x7B }) == true,
              let type = (try? JSONDocument.parse(body))?["error"]?["type"]?.stringValue, !type.isEmpty else { return nil }
        return SafeText.clean(SafeText.prefix(type, maxBytes: 64), lines: .join)
    }

    /// A 200 whose body is an error envelope (`{"error":{"type":"rate_limit_error"}}`) is rate
    /// limiting, not a body that failed to parse; another error type is said as such.
    static func checkEnvelope(_ body: Data) throws(FetchError) {
        guard body.count < 64 * 1024, body.firstIndex(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }).map({ body[$0] == 0x7B }) == true,
              let error = (try? JSONDocument.parse(body))?["error"], !error.isNull else { return }
        let type = error["type"]?.stringValue ?? error.stringValue ?? "unknown"
        if type == "rate_limit_error" { throw .rateLimited(retryAfter: FetchState.defaultRetryAfter) }
        throw .undecodable("the usage api answered with an error (\(SafeText.clean(SafeText.prefix(type, maxBytes: 64), lines: .join)))")
    }

    /// `base` + `path`, keeping any path prefix the base has (`http://127.0.0.1:8080/prefix`).
    static func url(_ base: URL, path: String) -> URL {
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text + path) ?? base
    }
}
