#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ElbowroomCore
@testable import ElbowroomTemplate

/// Readings built in code, at a fixed `now` (Sunday 2025-06-15 15:06:40 UTC), rendered in UTC+1.
enum Fixture: String, CaseIterable, CustomStringConvertible {
    case fresh, stale, offline, resetWindow, missingWindows, limitsOnly, signedOut, expiredWithData, loading

    var description: String { rawValue }

    static let now = Date(timeIntervalSince1970: 1_750_000_000)
    static let localTime = LocalTime.fixed(offsetSeconds: 3600)

    static func windows(observed: Date) -> [UsageWindow] {
        [
            UsageWindow(key: "five_hour", used: 63, resetsAt: now.addingTimeInterval(2 * 3600 + 13 * 60), observedAt: observed),
            UsageWindow(key: "seven_day", used: 41, resetsAt: now.addingTimeInterval(3 * 86400 + 4 * 3600), observedAt: observed),
            UsageWindow(key: "seven_day_sonnet", used: 18, resetsAt: now.addingTimeInterval(3 * 86400 + 4 * 3600), observedAt: observed),
            UsageWindow(key: "seven_day_opus", used: 92, resetsAt: now.addingTimeInterval(3 * 86400 + 4 * 3600), observedAt: observed),
        ]
    }

    static let extra = ExtraUsage(isEnabled: true, monthlyLimitMinor: 5000, usedMinor: 1234, utilization: 24.68, currency: "USD")

    var cache: CacheFile? {
        let now = Self.now
        func cache(_ windows: [UsageWindow], at fetched: Date, extra: ExtraUsage? = nil) -> CacheFile {
            var fetch = FetchState()
            fetch.recordSuccess(at: fetched)
            return CacheFile(account: "test",
                             reading: Reading(windows: windows, extra: extra, plan: "max", fetchedAt: fetched, source: .api),
                             fetch: fetch)
        }
        switch self {
        case .fresh:
            let observed = now.addingTimeInterval(-42)
            return cache(Self.windows(observed: observed), at: observed, extra: Self.extra)
        case .stale:
            let observed = now.addingTimeInterval(-1200)
            return cache(Self.windows(observed: observed), at: observed)
        case .offline:
            var file = cache(Self.windows(observed: now.addingTimeInterval(-600)), at: now.addingTimeInterval(-600))
            file.fetch.recordFailure(.network, message: "network unreachable", at: now.addingTimeInterval(-30))
            return file
        case .resetWindow:
            let observed = now.addingTimeInterval(-4 * 3600)
            return cache([
                UsageWindow(key: "five_hour", used: 80, resetsAt: now.addingTimeInterval(-60), observedAt: observed),
                UsageWindow(key: "seven_day", used: 41, resetsAt: now.addingTimeInterval(86400), observedAt: observed),
            ], at: now.addingTimeInterval(-60))
        case .missingWindows:
            let observed = now.addingTimeInterval(-42)
            return cache([Self.windows(observed: observed)[1]], at: observed)
        case .limitsOnly:
            let observed = now.addingTimeInterval(-42)
            return cache([UsageWindow(key: "seven_day_opus", used: 30, resetsAt: now.addingTimeInterval(86400), observedAt: observed)],
                         at: observed)
        case .signedOut:
            var fetch = FetchState()
            fetch.recordFailure(.signedOut, message: nil, at: now.addingTimeInterval(-5))
            return CacheFile(account: "test", fetch: fetch)
        case .expiredWithData:
            var file = cache(Self.windows(observed: now.addingTimeInterval(-300)), at: now.addingTimeInterval(-300))
            file.fetch.recordFailure(.expired, message: nil, at: now.addingTimeInterval(-5))
            return file
        case .loading:
            return nil
        }
    }

    var view: UsageView { UsageView(cache: cache, now: Self.now, config: Config()) }
}

extension Template {
    /// Renders a fixture in the fixed time zone, as plain text.
    func text(_ fixture: Fixture, statusLine: StatusLineInput? = nil) -> String {
        render(fixture.view, statusLine: statusLine, localTime: Fixture.localTime).plainText
    }
}
