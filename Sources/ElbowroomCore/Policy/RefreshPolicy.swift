// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// How much a caller wants fresh data.
public enum FetchUrgency: String, Sendable {
    /// The renderer and `watch`: only when `max_age` has passed and no cooldown runs.
    case whenDue = "when-due"
    /// A click or `elbowroom fetch`: ignore `max_age`, still obey a cooldown.
    case now
    /// `elbowroom fetch --force`: ignore everything.
    case force
}

/// Decides whether a fetch should happen. Every process asks the same question of the same cache,
/// and the fetcher asks again after taking the fetch lock, so racing prompts make one request.
public enum RefreshPolicy {
    public struct Decision: Equatable, Sendable {
        public var shouldFetch: Bool
        /// Why not (for `fetch` and `doctor`), or why.
        public var reason: String
    }

    /// - Parameter credentialsChanged: when the credentials file last changed; a change after the
    ///   last attempt (the user signed in again) ends any cooldown but a 429's.
    public static func decide(cache: CacheFile?, now: Date, config: Config, urgency: FetchUrgency,
                              credentialsChanged: Date? = nil) -> Decision {
        if urgency == .force { return Decision(shouldFetch: true, reason: "forced") }
        let fetch = cache?.fetch ?? FetchState()
        if let until = fetch.activeCooldown(now: now) {
            let signedInAgain = fetch.lastOutcome != .rateLimited
                && credentialsChanged.map { changed in fetch.lastAttempt.map { changed > $0 } ?? true } == true
            if !signedInAgain {
                let what = fetch.lastOutcome == .rateLimited ? "rate limited" : "backing off after \(fetch.lastOutcome?.rawValue ?? "a failure")"
                return Decision(shouldFetch: false, reason: "\(what) until \(ISO8601.format(until))")
            }
        }
        if urgency == .now { return Decision(shouldFetch: true, reason: "requested") }
        guard let reading = cache?.reading else { return Decision(shouldFetch: true, reason: "no data yet") }
        // A success or reading "in the future" means the clock moved back: its age is unknown, so due.
        let sinceSuccess = fetch.lastSuccess.map { now.timeIntervalSince($0) }
            .flatMap { $0 < -FetchState.clockSlack ? nil : $0 } ?? .infinity
        // While Claude Code's status line keeps the main windows fresh, ask the API (which
        // Claude Code's own limit is shared with) only every `stale_after` for the rest.
        var dataAge = now.timeIntervalSince(reading.fetchedAt)
        if dataAge < -FetchState.clockSlack { dataAge = .infinity }
        let dueAfter = dataAge < config.maxAge ? max(config.maxAge, config.staleAfter) : config.maxAge
        if sinceSuccess >= dueAfter {
            let age = min(sinceSuccess, dataAge)
            return Decision(shouldFetch: true, reason: age.isFinite ? "data is \(Int(min(age, 1e12)))s old" : "data age unknown (clock moved?)")
        }
        return Decision(shouldFetch: false, reason: "fresh for another \(Int(dueAfter - sinceSuccess))s")
    }
}
