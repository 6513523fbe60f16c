#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// The built-in sample `--demo` renders: no credentials, no network, plausible numbers relative
/// to `now` so countdowns and pace look real.
public enum DemoReading {
    public static func cache(now: Date) -> CacheFile {
        let observed = now.addingTimeInterval(-42)
        let reading = Reading(
            windows: [
                UsageWindow(key: "five_hour", used: 63, resetsAt: now.addingTimeInterval(2 * 3600 + 13 * 60), observedAt: observed),
                UsageWindow(key: "seven_day", used: 41, resetsAt: now.addingTimeInterval(3 * 86400 + 4 * 3600), observedAt: observed),
                UsageWindow(key: "seven_day_sonnet", used: 18, resetsAt: now.addingTimeInterval(3 * 86400 + 4 * 3600), observedAt: observed),
                UsageWindow(key: "seven_day_opus", used: 92, resetsAt: now.addingTimeInterval(3 * 86400 + 4 * 3600), observedAt: observed),
            ],
            extra: ExtraUsage(isEnabled: true, monthlyLimitMinor: 5000, usedMinor: 1234, utilization: 24.68, currency: "USD"),
            plan: "max", fetchedAt: observed, source: .demo)
        var fetch = FetchState()
        fetch.recordSuccess(at: observed)
        return CacheFile(account: "demo", reading: reading, fetch: fetch)
    }
}
