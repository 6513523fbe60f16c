#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ElbowroomCore

/// Why a fetch did not produce a reading. Each case maps to the outcome stored in the cache and to
/// a short, lowercase message that never contains a token.
public enum FetchError: Error, Equatable, Sendable, CustomStringConvertible {
    case network(String)
    case timeout(TimeInterval)
    /// 401: the token was not accepted.
    case unauthorized
    /// 403: the token cannot read usage (no `user:profile` scope).
    case forbidden
    /// 403 whose body is an Anthropic error (`{"error":{"type":"permission_error",…}}`): the server
    /// refused this token. Claude Code remembers that for the token and does not ask again for an
    /// hour (`refusedLoginWait`); a new login asks sooner (the credentials changed).
    case refusedLogin(type: String)
    /// 429; `retryAfter` is already resolved to seconds (0 or absent became 300).
    case rateLimited(retryAfter: TimeInterval)
    /// 5xx.
    case server(status: Int)
    /// Not usage JSON, another unexpected status, or over the size cap.
    case undecodable(String)
    /// 3xx: not followed.
    case redirect(status: Int)
    /// No usable credentials.
    case signedOut(String)
    /// Expired, and refreshing is not ours to do now.
    case expired(String)
    /// A configuration problem (e.g. a plain-http URL that is not loopback).
    case config(String)
    /// A failure another process just recorded in the cache (we waited for its fetch).
    case recorded(FetchOutcome, String)
    /// A failure at the token endpoint while refreshing (network, timeout, 3xx, 401, 429, 5xx, a
    /// bad answer): described as the token endpoint's, with the outcome of the inner error.
    indirect case refresh(FetchError)
    /// A failure at another provider's source (`codex's usage endpoint`, `source plugin gem`):
    /// described as that source's, with the outcome of the inner error.
    indirect case at(String, FetchError)
    /// A reading arrived but neither it nor the fetch state could be written to the cache.
    case unstorable(String)

    public var outcome: FetchOutcome {
        switch self {
        case .network: return .network
        case .timeout: return .timeout
        case .unauthorized: return .unauthorized
        case .forbidden, .refusedLogin: return .forbidden
        case .rateLimited: return .rateLimited
        case .server: return .server
        case .undecodable, .redirect: return .undecodable
        case .signedOut: return .signedOut
        case .expired: return .expired
        case .config, .unstorable: return .config
        case .recorded(let outcome, _): return outcome
        case .refresh(let inner), .at(_, let inner): return inner.outcome
        }
    }

    public var retryAfter: TimeInterval? {
        switch self {
        case .rateLimited(let seconds): return seconds
        case .refusedLogin: return Self.refusedLoginWait
        case .refresh(let inner), .at(_, let inner): return inner.retryAfter
        default: return nil
        }
    }

    public var description: String { describe(at: .usageAPI) }

    /// How long a token the usage api refused with an Anthropic error is not asked with again
    /// (Claude Code's 3600 s, CLAUDE-CODE.md).
    public static let refusedLoginWait: TimeInterval = 3600

    enum Endpoint: Equatable {
        case usageAPI, tokenEndpoint
        /// Another provider's source, by name.
        case named(String)

        var name: String {
            switch self {
            case .usageAPI: "the usage api"
            case .tokenEndpoint: "the token endpoint"
            case .named(let name): name
            }
        }
    }

    /// The message, naming the endpoint that failed.
    func describe(at endpoint: Endpoint) -> String {
        let name = endpoint.name
        switch self {
        case .network(let why): return "cannot reach \(name): \(why)"
        case .timeout(let t): return "\(name) did not answer within \(TransportError.seconds(t))"
        case .unauthorized where endpoint == .tokenEndpoint:
            return "the token endpoint rejected the refresh (401); sign in again with `claude` then /login"
        case .unauthorized where endpoint == .usageAPI:
            return "the usage api rejected the login (401); sign in again with `claude` then /login"
        case .unauthorized:
            return "\(name) rejected the login (401)"
        case .forbidden where endpoint == .tokenEndpoint:
            return "the token endpoint refused the refresh (403); sign in again with `claude` then /login"
        case .forbidden where endpoint != .usageAPI:
            return "\(name) refused the request (403)"
        case .forbidden:
            return "this login cannot read usage (403): the token lacks the user:profile scope (tokens from `claude setup-token` do); sign in with `claude` then /login"
        case .refusedLogin(let type):
            return "\(name) refused this login (403 \(type)); not asked again for an hour, or until you sign in again (`claude` then /login)"
        case .rateLimited(let seconds):
            return "rate limited by \(name); next try in \(Self.duration(seconds))"
        case .server(let status): return "\(name) had a server error (\(status)); will retry"
        case .undecodable(let why): return why
        case .redirect(let status) where endpoint == .tokenEndpoint:
            return "the token endpoint answered with a redirect (\(status)); not followed, so the refresh token stays here"
        case .redirect(let status):
            return "\(name) answered with a redirect (\(status)); not followed, so the token stays here"
        case .signedOut(let why), .expired(let why), .config(let why), .recorded(_, let why), .unstorable(let why):
            return why
        case .refresh(let inner): return inner.describe(at: .tokenEndpoint)
        case .at(let source, let inner): return inner.describe(at: .named(source))
        }
    }

    /// Compact, saturating (a number of seconds may come from the network).
    static func duration(_ seconds: TimeInterval) -> String {
        let s = seconds.isNaN ? 0 : Int(min(max(seconds, 0), 1e9).rounded(.up))
        if s < 60 { return "\(s)s" }
        if s < 3600 { return s % 60 == 0 ? "\(s / 60)m" : "\(s / 60)m\(s % 60)s" }
        return "\(s / 3600)h\(s % 3600 / 60)m"
    }

    /// A transport failure, as the endpoint it happened at tells it.
    static func from(_ error: TransportError, at endpoint: Endpoint = .usageAPI) -> FetchError {
        switch error {
        case .timeout(let t): return .timeout(t)
        case .network(let why): return .network(why)
        case .oversized: return .undecodable("\(endpoint.name) answered with a body over 1 MiB; ignored")
        }
    }
}
