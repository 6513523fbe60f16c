import Foundation
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
    /// A reading arrived but neither it nor the fetch state could be written to the cache.
    case unstorable(String)

    public var outcome: FetchOutcome {
        switch self {
        case .network: return .network
        case .timeout: return .timeout
        case .unauthorized: return .unauthorized
        case .forbidden: return .forbidden
        case .rateLimited: return .rateLimited
        case .server: return .server
        case .undecodable, .redirect: return .undecodable
        case .signedOut: return .signedOut
        case .expired: return .expired
        case .config, .unstorable: return .config
        case .recorded(let outcome, _): return outcome
        }
    }

    public var retryAfter: TimeInterval? {
        if case .rateLimited(let seconds) = self { return seconds }
        return nil
    }

    public var description: String {
        switch self {
        case .network(let why): return "cannot reach the usage api: \(why)"
        case .timeout(let t): return "the usage api did not answer within \(TransportError.seconds(t))"
        case .unauthorized:
            return "the usage api rejected the login (401); sign in again with `claude` then /login"
        case .forbidden:
            return "this login cannot read usage (403): the token lacks the user:profile scope (tokens from `claude setup-token` do); sign in with `claude` then /login"
        case .rateLimited(let seconds):
            return "rate limited by the usage api; next try in \(Self.duration(seconds))"
        case .server(let status): return "the usage api had a server error (\(status)); will retry"
        case .undecodable(let why): return why
        case .redirect(let status):
            return "the usage api answered with a redirect (\(status)); not followed, so the token stays here"
        case .signedOut(let why), .expired(let why), .config(let why), .recorded(_, let why), .unstorable(let why):
            return why
        }
    }

    /// Compact, saturating (a number of seconds may come from the network).
    static func duration(_ seconds: TimeInterval) -> String {
        let s = seconds.isNaN ? 0 : Int(min(max(seconds, 0), 1e9).rounded(.up))
        if s < 60 { return "\(s)s" }
        if s < 3600 { return s % 60 == 0 ? "\(s / 60)m" : "\(s / 60)m\(s % 60)s" }
        return "\(s / 3600)h\(s % 3600 / 60)m"
    }

    static func from(_ error: TransportError) -> FetchError {
        switch error {
        case .timeout(let t): return .timeout(t)
        case .network(let why): return .network(why)
        case .oversized: return .undecodable("the usage api answered with a body over 1 MiB; ignored")
        }
    }
}
