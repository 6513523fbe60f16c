// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// Number text without `String(format:)` (which FoundationEssentials lacks).
public enum NumberText {
    /// `value` rounded to `decimals` places (half away from zero unless told): `36.6`, `37`, `-0.5`.
    public static func fixed(_ value: Double, decimals: Int,
                      rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded(rule)
        guard scaled < 9e15 else { return String(value) }
        let whole = Int64(scaled)
        let factor = Int64(scale)
        var text = String(whole / factor)
        if decimals > 0 {
            let fraction = String(whole % factor)
            text += "." + String(repeating: "0", count: decimals - fraction.count) + fraction
        }
        return (value < 0 && scaled != 0 ? "-" : "") + text
    }

    public static func money(minor: Double, currency: String, decimals: Int) -> String {
        let amount = fixed(minor / 100, decimals: decimals)
        let negative = amount.hasPrefix("-")
        let digits = negative ? String(amount.dropFirst()) : amount
        let sign = negative ? "-" : ""
        switch currency.uppercased() {
        case "USD": return sign + "$" + digits
        case "EUR": return sign + "€" + digits
        case "GBP": return sign + "£" + digits
        case "JPY": return sign + "¥" + digits
        case "": return sign + digits
        default: return sign + digits + " " + SafeText.clean(currency.uppercased(), lines: .join)
        }
    }
}
