// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// How a fetch attempt ended. Stored in the cache so every process sees it.
public enum FetchOutcome: String, Codable, Sendable, CaseIterable {
    case ok
    /// No connection, DNS failure, dropped connection.
    case network
    case timeout
    /// 401 that a refresh could not fix.
    case unauthorized
    /// 403: the token cannot read usage (e.g. from `claude setup-token`).
    case forbidden
    case rateLimited = "rate_limited"
    /// 5xx.
    case server
    /// 200 with a body that is not usage JSON, or larger than the cap.
    case undecodable
    /// No usable credentials (missing, logged out, MCP-only, `invalid_grant`).
    case signedOut = "signed_out"
    /// The access token expired and refreshing it is not ours to do right now.
    case expired
    /// A configuration problem (e.g. an `http://` API URL that is not loopback).
    case config
    /// The fetcher stopped before it recorded how the attempt ended (a crash, `kill -9`, an
    /// out-of-memory kill). Written before the request as the fetch lock's marker, and replaced
    /// by the real outcome when the attempt ends, so even a fetcher that dies mid-request leaves
    /// an attempt and its backoff behind: politeness holds however a fetch ends.
    case interrupted

    public var isFailure: Bool { self != .ok }
}

/// The fetch side's memory: every attempt and its outcome, so that every process — the renderer
/// deciding whether to start a fetch, a second fetcher, `elbowroom fetch` — obeys cooldowns.
public struct FetchState: Codable, Sendable, Equatable {
    public var lastAttempt: Date?
    public var lastSuccess: Date?
    public var lastOutcome: FetchOutcome?
    /// A short, token-free description of the last failure, for `{error}` and `doctor`.
    public var message: String?
    public var consecutiveFailures: Int
    /// No request before this time (429 `Retry-After`, or the failure backoff).
    public var cooldownUntil: Date?

    public init(lastAttempt: Date? = nil, lastSuccess: Date? = nil, lastOutcome: FetchOutcome? = nil,
                message: String? = nil, consecutiveFailures: Int = 0, cooldownUntil: Date? = nil) {
        self.lastAttempt = lastAttempt
        self.lastSuccess = lastSuccess
        self.lastOutcome = lastOutcome
        self.message = message
        self.consecutiveFailures = consecutiveFailures
        self.cooldownUntil = cooldownUntil
    }

    /// Records a successful fetch: failures and cooldown are cleared.
    public mutating func recordSuccess(at date: Date) {
        recordSuccess(at: date, note: nil)
    }

    /// A successful fetch with `note`: something the user should know although the fetch worked
    /// (e.g. refreshed tokens that could not be saved), for `doctor` and `cache show`.
    public mutating func recordSuccess(at date: Date, note: String?) {
        lastAttempt = date
        lastSuccess = date
        lastOutcome = .ok
        message = note
        consecutiveFailures = 0
        cooldownUntil = nil
    }

    /// Records a failure. A 429 waits `retryAfter` (the caller passes 300 s when the server sent
    /// 0 or nothing); other failures back off exponentially from 30 s up to 1 h. Failures that
    /// no retry can fix (signed out, forbidden, config) wait the full hour.
    public mutating func recordFailure(_ outcome: FetchOutcome, message: String?, at date: Date,
                                       retryAfter: TimeInterval? = nil) {
        lastAttempt = date
        lastOutcome = outcome
        self.message = message
        // Saturating: the count comes from a file anyone can edit, and past 20 it changes nothing.
        consecutiveFailures = min(max(consecutiveFailures, 0), Self.maxCountedFailures - 1) + 1
        let wait: TimeInterval
        switch outcome {
        case .rateLimited:
            // Bounded here too, whoever the caller: at least a second, at most a day.
            wait = min(max(retryAfter.flatMap { $0.isFinite ? $0 : nil } ?? Self.defaultRetryAfter, 1), 86400)
        case .signedOut, .forbidden, .config, .expired:
            // These end when the user acts (signs in, opens Claude Code); doctor and `fetch` retry
            // on demand, and the renderer checks again after this while — or after the wait the
            // server's refusal asks for (a 403 with an Anthropic error: an hour), at most a day.
            wait = retryAfter.flatMap { $0.isFinite ? min(max($0, 1), 86400) : nil }
                ?? Self.backoff(failures: consecutiveFailures, cap: Self.maxBackoff / 4)
        default:
            wait = Self.backoff(failures: consecutiveFailures)
        }
        cooldownUntil = date.addingTimeInterval(wait)
    }

    /// The end of the cooldown as seen at `now`, or `nil` when none runs. A cooldown recorded
    /// "in the future" (the wall clock moved back since the attempt) is not trusted: it would
    /// otherwise last as long as the jump. One more request after a clock jump is the price.
    public func activeCooldown(now: Date) -> Date? {
        guard let until = cooldownUntil, until > now else { return nil }
        if let attempt = lastAttempt, attempt.timeIntervalSince(now) > Self.clockSlack { return nil }
        return until
    }

    /// How long an `interrupted` attempt may still be a fetch under way (three requests at the
    /// longest timeout, and some): until then it is not shown as a failure.
    public static let inFlightGrace: TimeInterval = 120

    /// The last attempt failed, as a display sees it at `now`: an `interrupted` one that may
    /// still be running is not (yet) a failure.
    public func lastAttemptFailed(now: Date) -> Bool {
        guard let outcome = lastOutcome, outcome.isFailure else { return false }
        if outcome == .interrupted, let attempt = lastAttempt, now.timeIntervalSince(attempt) < Self.inFlightGrace {
            return false
        }
        return true
    }

    /// How far in the future a recorded time may be before it means the clock moved back.
    public static let clockSlack: TimeInterval = 60

    public static let defaultRetryAfter: TimeInterval = 300
    public static let maxBackoff: TimeInterval = 3600
    static let maxCountedFailures = 1000

    /// 30 s, 60 s, 120 s, … capped at `cap` (1 h).
    public static func backoff(failures: Int, cap: TimeInterval = maxBackoff) -> TimeInterval {
        let exponent = failures <= 1 ? 0 : min(failures - 1, 20)
        return min(30 * Double(1 << exponent), cap)
    }
}
