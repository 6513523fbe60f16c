import Foundation
import ElbowroomCore

/// `GET {api}/api/oauth/usage` with exactly the headers Claude Code sends.
public struct UsageClient: Sendable {
    /// The agent string. The endpoint answers other agents with a permanent 429 (`retry-after: 0`).
    public static let userAgent = "claude-code/2.0.0"
    public static let betaHeader = "oauth-2025-04-20"
    public static let usagePath = "/api/oauth/usage"

    public let apiBase: URL
    public let transport: any HTTPTransport
    public let timeout: TimeInterval

    public init(apiBase: URL, transport: any HTTPTransport, timeout: TimeInterval) {
        self.apiBase = apiBase
        self.transport = transport
        self.timeout = timeout
    }

    public var usageURL: URL { Self.url(apiBase, path: Self.usagePath) }

    /// The request for `accessToken`, or without `Authorization` for a reachability probe.
    public func request(accessToken: String?) -> HTTPRequest {
        var headers: [(name: String, value: String)] = []
        if let accessToken { headers.append(("Authorization", "Bearer \(accessToken)")) }
        headers += [("anthropic-beta", Self.betaHeader), ("User-Agent", Self.userAgent),
                    ("Accept", "application/json")]
        return HTTPRequest(method: "GET", url: usageURL, headers: headers, timeout: timeout)
    }

    /// The raw usage body, or the typed reason there is none.
    public func fetchBody(accessToken: String, now: Date) throws(FetchError) -> Data {
        let response: HTTPResponse
        do {
            response = try transport.send(request(accessToken: accessToken))
        } catch {
            throw FetchError.from(error)
        }
        try Self.check(response, now: now)
        return response.body
    }

    /// The reading, decoded with Core's decoder.
    public func fetch(accessToken: String, plan: String?, now: Date) throws(FetchError) -> Reading {
        let body = try fetchBody(accessToken: accessToken, now: now)
        do {
            return try UsageDecoder.decode(body, observedAt: now, plan: plan)
        } catch {
            throw FetchError.undecodable("the usage api answered with something that is not usage json")
        }
    }

    /// Maps a status to success or a `FetchError`.
    static func check(_ response: HTTPResponse, now: Date) throws(FetchError) {
        switch response.status {
        case 200..<300: return
        case 300..<400: throw .redirect(status: response.status)
        case 401: throw .unauthorized
        case 403: throw .forbidden
        case 429: throw .rateLimited(retryAfter: RetryAfter.seconds(response.header("retry-after"), now: now))
        case 500..<600: throw .server(status: response.status)
        default: throw .undecodable("the usage api answered with an unexpected status (\(response.status))")
        }
    }

    /// `base` + `path`, keeping any path prefix the base has (`http://127.0.0.1:8080/prefix`).
    static func url(_ base: URL, path: String) -> URL {
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text + path) ?? base
    }
}
