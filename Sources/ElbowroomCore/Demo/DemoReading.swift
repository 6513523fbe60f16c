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

    /// A plausible history for the demo windows, so `--demo` shows `rate`, `spark` and an `eta`
    /// at the current rate: the session window started slowly and burns about 25 %/h in the last
    /// hour; the weekly ones grew by day and rested by night.
    /// The sample for an account of `provider`: Claude's as above; a Codex account its own kind
    /// of rows (a 5-hour and a weekly window, no per-model rows, no credits); a source plugin's
    /// one window of its own (what such a program typically reports: a daily quota).
    public static func cache(now: Date, provider: Provider) -> CacheFile {
        let observed = now.addingTimeInterval(-42)
        let reading: Reading
        switch provider {
        case .claude:
            return cache(now: now)
        case .codex:
            reading = Reading(
                windows: [
                    UsageWindow(key: "five_hour", label: "Session", used: 28, resetsAt: now.addingTimeInterval(3 * 3600 + 20 * 60), observedAt: observed),
                    UsageWindow(key: "seven_day", label: "Weekly", used: 46, resetsAt: now.addingTimeInterval(4 * 86400 + 2 * 3600), observedAt: observed),
                ],
                plan: "plus", fetchedAt: observed, source: .demo)
        default:  // a source plugin's, or another agent's
            reading = Reading(
                windows: [
                    UsageWindow(key: "daily", label: "Daily", used: 20, resetsAt: now.addingTimeInterval(9 * 3600), observedAt: observed),
                ],
                fetchedAt: observed, source: .demo)
        }
        var fetch = FetchState()
        fetch.recordSuccess(at: observed)
        return CacheFile(account: "demo", reading: reading, fetch: fetch)
    }

    public static func history(now: Date) -> UsageHistory {
        let reading = cache(now: now).reading!
        let end = Int64(reading.fetchedAt.timeIntervalSince1970.rounded(.down))
        var samples: [HistorySample] = []
        for window in reading.windows {
            guard let last = HistorySample(window), let reset = last.resetsAt else { continue }
            let isSession = window.key == "five_hour"
            let step: Int64 = isSession ? 120 : 3600
            let span: Int64 = isSession ? 9600 : 3 * 86400
            // Session: 0 → 60 % of the number over the first 62.5 % of the span, the rest after.
            // Weekly: grows only between 08:00 and 20:00 UTC.
            let times = Array(stride(from: end - span, to: end, by: Int(step)))
            let activeHours = times.map { t in isSession || (8..<20).contains((t / 3600) % 24) ? 1.0 : 0.0 }
            let total = max(1, activeHours.reduce(0, +))
            var done = 0.0
            for (t, active) in zip(times, activeHours) {
                let x = Double(t - (end - span)) / Double(span)
                let shape = isSession ? (x < 0.625 ? x / 0.625 * 0.6 : 0.6 + (x - 0.625) / 0.375 * 0.4) : done / total
                done += active
                let used = (window.used * min(1, shape) * 2).rounded() / 2
                samples.append(HistorySample(at: t, key: window.key, used: used, resetsAt: reset))
            }
            samples.append(last)
        }
        samples.sort { $0.at < $1.at }
        return UsageHistory(samples: samples)
    }
}
