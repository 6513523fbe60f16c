// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// Durations as people read them: `short` is `2h13m`, `3d4h`, `45s` (rounded down); `long` is
/// `2 hours 13 minutes`. Command output (`cache show`, `doctor`) uses the same forms.
public enum DurationText {
    private static func parts(_ seconds: TimeInterval) -> (d: Int, h: Int, m: Int, s: Int) {
        // Saturating: a duration beyond ~30 million years (an absurd date) never traps.
        let total = seconds.isFinite ? Int(min(max(seconds, 0), 1e15).rounded(.down)) : 0
        return (total / 86400, total % 86400 / 3600, total % 3600 / 60, total % 60)
    }

    public static func short(_ seconds: TimeInterval) -> String {
        let (d, h, m, s) = parts(seconds)
        if d > 0 { return h > 0 ? "\(d)d\(h)h" : "\(d)d" }
        if h > 0 { return m > 0 ? "\(h)h\(m)m" : "\(h)h" }
        if m > 0 { return "\(m)m" }
        return "\(s)s"
    }

    public static func long(_ seconds: TimeInterval) -> String {
        func unit(_ n: Int, _ name: String) -> String { "\(n) \(name)\(n == 1 ? "" : "s")" }
        let (d, h, m, s) = parts(seconds)
        if d > 0 { return h > 0 ? unit(d, "day") + " " + unit(h, "hour") : unit(d, "day") }
        if h > 0 { return m > 0 ? unit(h, "hour") + " " + unit(m, "minute") : unit(h, "hour") }
        if m > 0 { return unit(m, "minute") }
        return unit(s, "second")
    }
}
