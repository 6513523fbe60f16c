#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// When `RefreshPolicy` will next say a fetch is due (`urgency` `whenDue`, as a render asks), for
/// a process that sleeps until then (`guard --until`) instead of asking every second.
public enum RefreshSchedule {
    /// The earliest time at or after `now` when a render would start a fetch, given `cache` as it
    /// is: the end of a cooldown, else when `max_age` (or, while the status line keeps the data
    /// fresh, `stale_after`) has passed since the last success. `now` when due already.
    public static func nextDue(cache: CacheFile?, config: Config, now: Date) -> Date {
        let fetch = cache?.fetch ?? FetchState()
        var due = now
        if let reading = cache?.reading, let success = fetch.lastSuccess,
           success.timeIntervalSince(now) <= FetchState.clockSlack, reading.fetchedAt.timeIntervalSince(now) <= FetchState.clockSlack {
            // Due once both the success and the data are max_age old, or the success alone is
            // max(max_age, stale_after) old (RefreshPolicy.decide).
            let byAge = max(success, reading.fetchedAt).addingTimeInterval(config.maxAge)
            let bySuccess = success.addingTimeInterval(max(config.maxAge, config.staleAfter))
            due = max(now, min(byAge, bySuccess))
        }
        if let until = fetch.activeCooldown(now: now) { due = max(due, until) }
        return due
    }
}
