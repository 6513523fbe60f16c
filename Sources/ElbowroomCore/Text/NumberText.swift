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
        // Digits written right to left into a buffer on the stack, the point among them: a
        // percent in a tooltip is formatted dozens of times a render, and the strings joined
        // here before cost each one ~1.4 k instructions.
        let negative = value < 0 && scaled != 0
        if decimals == 0 && !negative && scaled <= 100 { return wholes[Int(scaled)] }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
            var start = buffer.count
            var rest = Int64(scaled)
            var written = 0
            repeat {
                start -= 1
                buffer[start] = 0x30 + UInt8(rest % 10)
                rest /= 10
                written += 1
                if written == decimals {
                    start -= 1
                    buffer[start] = UInt8(ascii: ".")
                }
            } while rest > 0 || written <= decimals
            if negative {
                start -= 1
                buffer[start] = UInt8(ascii: "-")
            }
            let digits = UnsafeBufferPointer(rebasing: buffer[start...])
            // A capacity of 15 or less makes a small string, and ASCII in one is not validated.
            guard digits.count <= 15 else { return String(decoding: digits, as: UTF8.self) }
            return String(unsafeUninitializedCapacity: digits.count) { out in
                for i in 0..<digits.count { out[i] = digits[i] }
                return digits.count
            }
        }
    }

    /// `0`…`100`: a render's most formatted numbers (whole percents), as the strings they are,
    /// not written and decoded (~250 instructions each).
    static let wholes: [String] = [
        "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19",
        "20", "21", "22", "23", "24", "25", "26", "27", "28", "29", "30", "31", "32", "33", "34", "35", "36", "37", "38",
        "39", "40", "41", "42", "43", "44", "45", "46", "47", "48", "49", "50", "51", "52", "53", "54", "55", "56", "57",
        "58", "59", "60", "61", "62", "63", "64", "65", "66", "67", "68", "69", "70", "71", "72", "73", "74", "75", "76",
        "77", "78", "79", "80", "81", "82", "83", "84", "85", "86", "87", "88", "89", "90", "91", "92", "93", "94", "95",
        "96", "97", "98", "99", "100",
    ]

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
