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

    /// `minor` in units of 10^-`exponent` of `currency`, with `decimals` places and thousands
    /// grouped: `$5,000.00`, `€3.10`, `¥1,234`, `12.34 CHF`. A code that is not three letters
    /// is not shown.
    public static func money(minor: Double, currency: String, exponent: Int = 2, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<min(max(exponent, 0), 12) { scale *= 10 }
        let amount = fixed(minor / scale, decimals: decimals)
        let negative = amount.hasPrefix("-")
        var digits = negative ? String(amount.dropFirst()) : amount
        digits = grouped(digits)
        let sign = negative ? "-" : ""
        switch currency.uppercased() {
        case "USD": return sign + "$" + digits
        case "EUR": return sign + "€" + digits
        case "GBP": return sign + "£" + digits
        case "JPY": return sign + "¥" + digits
        case "KRW": return sign + "₩" + digits
        default:
            guard let code = MinorUnits.code(currency) else { return sign + digits }
            return sign + digits + " " + code
        }
    }

    /// `5000.00` → `5,000.00`: commas every three digits of the whole part.
    public static func grouped(_ number: String) -> String {
        let point = number.firstIndex(of: ".") ?? number.endIndex
        let whole = number[..<point]
        guard whole.count > 3, whole.allSatisfy({ $0.isASCII && $0.isNumber }) else { return number }
        var out = ""
        for (i, ch) in whole.enumerated() {
            if i > 0 && (whole.count - i) % 3 == 0 { out.append(",") }
            out.append(ch)
        }
        return out + number[point...]
    }
}
