// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// Numbers as JSON (and Prometheus) want them: whole numbers without a fraction (`63`, not
/// `63.0`), others in Swift's shortest round-trip form; non-finite values become `null`.
public enum JSONNumber {
    public static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        // A whole number by `NumberText` (what `String(Int64(value))` writes, without the standard
        // library's integer printing: code a waybar render otherwise never runs, two 64 kB windows).
        if value == value.rounded() && abs(value) < 1e15 { return NumberText.fixed(value, decimals: 0) }
        return "\(value)"
    }

    /// Rounded to `places` decimals, for numbers people read (percentages, pace).
    public static func rounded(_ value: Double, places: Int) -> Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}
