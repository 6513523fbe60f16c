// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
/// How percentages are rounded for display: half to even, so a window's used and left always
/// add up to 100 (41.5 % used, 58.5 % left shows as 42 and 58 — rounding both half up would
/// show 42 and 59). Every place that prints a percentage uses this.
public enum PercentText {
    /// (A constant, not a stored `let`: read through a lazy global's accessor, it cost a
    /// percent ~40 instructions.)
    @inlinable public static var rule: FloatingPointRoundingRule { .toNearestOrEven }

    /// The whole percentage, as shown.
    public static func whole(_ value: Double) -> Int {
        Int(value.rounded(rule))
    }
}
