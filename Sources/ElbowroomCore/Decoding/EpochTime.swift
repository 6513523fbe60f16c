// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// The one bound on times and durations from outside data (a usage body, a session log, a
/// plugin's output), applied where each is decoded. A Unix time above `millisecondsAbove` is
/// milliseconds (an ordinary mistake: `1795780000000`); a time more than about a century from
/// 1970, a negative or non-finite one, or a sentinel such as `1e300` is no time at all. The cache
/// keeps the same bound (`CacheFile.decode`), so a value that passed here can never make a cache
/// unreadable, and every whole-second conversion of a date saturates instead of trapping.
public enum EpochTime {
    /// Seconds from 1970 either way that a date may lie (2071; the cache's own bound).
    public static let limit: TimeInterval = 3.2e9
    /// Above this a Unix time is read as milliseconds (as seconds it would be the year 5138).
    public static let millisecondsAbove: Double = 1e11
    /// The longest duration believed: a window's length or a time until a reset (400 days).
    public static let maxDuration: TimeInterval = 400 * 86400

    /// A Unix time in seconds (or milliseconds, by magnitude) as a date; `nil` when it is not one.
    public static func date(unix value: Double) -> Date? {
        guard value.isFinite, value > 0 else { return nil }
        let seconds = value > millisecondsAbove ? value / 1000 : value
        return seconds < limit ? Date(timeIntervalSince1970: seconds) : nil
    }

    /// A duration in seconds, `0…maxDuration`; `nil` when it is not one.
    public static func duration(_ seconds: Double) -> TimeInterval? {
        seconds.isFinite && seconds >= 0 && seconds <= maxDuration ? seconds : nil
    }

    /// Whether a date lies within `limit` of 1970 (what the cache accepts).
    public static func isSane(_ date: Date) -> Bool {
        let t = date.timeIntervalSince1970
        return t.isFinite && abs(t) < limit
    }

    /// Whole seconds since 1970, rounded down and saturating: never traps, whatever the date.
    public static func seconds(_ date: Date) -> Int64 {
        let t = date.timeIntervalSince1970.rounded(.down)
        guard t.isFinite else { return t.isNaN ? 0 : (t > 0 ? Int64.max : Int64.min) }
        return t >= 9.2e18 ? Int64.max : t <= -9.2e18 ? Int64.min : Int64(t)
    }
}
