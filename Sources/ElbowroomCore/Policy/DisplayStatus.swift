// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// What `{status}` says, from the cache alone.
///
/// | status | when |
/// |---|---|
/// | `ok` | data is younger than `stale_after` and the last fetch did not fail |
/// | `stale` | data is older than `stale_after` |
/// | `offline` | the last fetch failed (network, timeout, 5xx, bad body, a fetcher that died mid-request): showing the last good data |
/// | `rate_limited` | a 429 cooldown is running |
/// | `expired` | the token expired and refreshing it is not ours to do: open Claude Code |
/// | `signed_out` | no usable credentials (or the token cannot read usage) |
/// | `loading` | no data yet |
public enum DisplayStatus: String, Sendable, CaseIterable, Codable {
    case ok, stale, offline
    case rateLimited = "rate_limited"
    case expired
    case signedOut = "signed_out"
    case loading

    public static func of(cache: CacheFile?, now: Date, staleAfter: TimeInterval) -> DisplayStatus {
        let fetch = cache?.fetch ?? FetchState()
        let reading = cache?.reading
        switch fetch.lastOutcome {
        case .signedOut?, .forbidden?, .unauthorized?: return .signedOut
        case .expired?: return .expired
        default: break
        }
        // A status-line reading that arrived after the failed attempt is fresh data all the same.
        let dataAfterFailure = reading.map { r in fetch.lastAttempt.map { r.fetchedAt > $0 } ?? true } ?? false
        let failedSinceData = fetch.lastAttemptFailed(now: now) && !dataAfterFailure
        let coolingDown = fetch.activeCooldown(now: now) != nil
        if fetch.lastOutcome == .rateLimited && coolingDown && failedSinceData { return .rateLimited }
        if failedSinceData { return .offline }
        guard let reading else { return .loading }
        return now.timeIntervalSince(reading.fetchedAt) > staleAfter ? .stale : .ok
    }
}
