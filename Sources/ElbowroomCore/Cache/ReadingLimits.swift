#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// Bounds on what one reading may put in the cache. A usage response is capped at 1 MiB, but
/// 20 000 tiny windows in it would make a cache over what readers accept (`CacheStore.readLimit`),
/// and a cache nobody can read means a fetch on every render. Real accounts have a handful of
/// windows; these limits are far above that and keep any reading a few dozen KiB.
public enum ReadingLimits {
    public static let maxWindows = 64
    /// Window keys longer than this are not windows (real ones are like `seven_day_sonnet`).
    public static let maxKeyBytes = 64
    /// Labels and the plan are cut to this many bytes of UTF-8 (between scalars). Bytes, not
    /// characters: one character can carry any number of combining marks.
    public static let maxTextBytes = 256
    /// Money in minor units, either sign.
    public static let maxMoney: Double = 1e15
    /// Extra-usage utilization, percent.
    public static let maxUtilization: Double = 1e6
}

extension Reading {
    /// This reading as the cache keeps it: at most `ReadingLimits.maxWindows` windows (the known
    /// ones first, in display order), no window with an over-long key, labels and plan cut short,
    /// every number finite and within bounds, every time one the cache accepts (`EpochTime`: a
    /// window with an absurd observation or reset is left out, never the whole reading).
    /// `dropped` counts the windows left out.
    public func limitedForCache() -> (reading: Reading, dropped: Int) {
        var kept: [UsageWindow] = []
        var dropped = 0
        for window in windows {
            guard kept.count < ReadingLimits.maxWindows, window.key.utf8.count <= ReadingLimits.maxKeyBytes,
                  CacheFile.isSane(window) else {
                dropped += 1
                continue
            }
            var w = window
            w.used = w.used.isFinite ? min(max(w.used, 0), 100) : 0
            w.label = w.label.map { SafeText.prefix($0, maxBytes: ReadingLimits.maxTextBytes) }
            w.detail = w.detail.map { SafeText.prefix($0, maxBytes: ReadingLimits.maxTextBytes) }
            if let severity = w.severity, severity.utf8.count > 32 { w.severity = nil }
            kept.append(w)
        }
        let limited = Reading(windows: kept, extra: extra.map(Self.limited),
                              plan: plan.map { SafeText.prefix($0, maxBytes: ReadingLimits.maxTextBytes) },
                              fetchedAt: fetchedAt, source: source, notes: notes,
                              unknownKeys: unknownKeys.map { Array($0.filter { $0.utf8.count <= ReadingLimits.maxKeyBytes }.prefix(32)) })
        return (limited, dropped)
    }

    static func limited(_ extra: ExtraUsage) -> ExtraUsage {
        func bound(_ value: Double?, _ low: Double, _ high: Double) -> Double? {
            value.flatMap { $0.isFinite ? min(max($0, low), high) : nil }
        }
        return ExtraUsage(
            isEnabled: extra.isEnabled,
            monthlyLimitMinor: bound(extra.monthlyLimitMinor, -ReadingLimits.maxMoney, ReadingLimits.maxMoney),
            usedMinor: bound(extra.usedMinor, -ReadingLimits.maxMoney, ReadingLimits.maxMoney),
            utilization: bound(extra.utilization, 0, ReadingLimits.maxUtilization),
            currency: MinorUnits.code(extra.currency),
            exponent: extra.exponent.flatMap { (0...6).contains($0) ? $0 : nil },
            organisation: extra.organisation,
            disabledReason: extra.disabledReason.map { SafeText.prefix($0, maxBytes: ReadingLimits.maxTextBytes) },
            limitReached: extra.limitReached,
            period: extra.period.map { String($0.prefix(32)) },
            resetsAt: extra.resetsAt.flatMap { EpochTime.isSane($0) ? $0 : nil }, source: extra.source)
    }
}
