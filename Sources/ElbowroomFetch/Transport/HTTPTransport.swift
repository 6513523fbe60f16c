#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One HTTP request as the fetch side sends it. Headers are an ordered list so tests can assert
/// exactly what goes on the wire.
public struct HTTPRequest: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    public var method: String
    public var url: URL
    public var headers: [(name: String, value: String)]
    public var body: Data?
    /// Seconds for the whole exchange.
    public var timeout: TimeInterval

    public init(method: String = "GET", url: URL, headers: [(name: String, value: String)] = [],
                body: Data? = nil, timeout: TimeInterval = 10) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    /// Method, URL and header names only: values (the bearer token) and the body (a refresh
    /// token) never show up in an interpolation.
    public var description: String {
        "\(method) \(url.absoluteString) [\(headers.map(\.name).joined(separator: ", "))]\(body.map { " body: \($0.count) bytes" } ?? "")"
    }
    public var debugDescription: String { description }
}

/// A complete answer. A 3xx arrives here as itself: transports never follow redirects.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    /// Header names lowercased.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
        self.body = body
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// Why no complete answer arrived. Messages are lowercase and never contain a header value.
public enum TransportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No answer within the timeout.
    case timeout(TimeInterval)
    /// Could not connect, connection dropped, TLS failure, not HTTP.
    case network(String)
    /// The body was larger than the cap; reading stopped there.
    case oversized(limit: Int)

    public var description: String {
        switch self {
        case .timeout(let seconds): return "no answer within \(Self.seconds(seconds))"
        case .network(let why): return why
        case .oversized(let limit): return "response larger than \(limit / 1024 / 1024) MiB"
        }
    }

    static func seconds(_ t: TimeInterval) -> String {
        t.isFinite && abs(t) < 1e15 && t == t.rounded() ? "\(Int(t))s" : "\(t)s"
    }
}

/// Sends one request and waits for the answer. Implementations must not follow redirects and
/// must stop reading a body past `HTTPTransport.bodyLimit`.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest) throws(TransportError) -> HTTPResponse
}

public enum HTTPLimits {
    /// Usage and token answers are a few hundred bytes; anything past this is not one of them.
    public static let bodyLimit = 1 << 20
}

/// The transport the fetcher uses on this platform: the system libcurl through `elbowroom-http`
/// on Linux (`HelperTransport`), URLSession on Apple platforms (`URLSessionTransport`).
public enum PlatformTransport {
    public static func make(bodyLimit: Int = HTTPLimits.bodyLimit) -> any HTTPTransport {
        #if os(Linux)
        return HelperTransport(bodyLimit: bodyLimit)
        #else
        return URLSessionTransport(bodyLimit: bodyLimit)
        #endif
    }
}
