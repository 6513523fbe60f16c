import ElbowroomCore

/// JSON string and value encoding for the line protocols (waybar, i3bar, i3blocks, json, plugins).
///
/// Written by hand rather than with `JSONEncoder` so that key order is fixed (golden files and
/// diffs stay stable) and `/` is not escaped. Escapes what RFC 8259 requires: `"`, `\` and
/// U+0000…U+001F (as `\n`, `\t`, … or `\u00XX`); and, as `\uXXXX`, every other scalar `SafeText`
/// drops or breaks lines on (DEL, C1 controls, bidi controls, U+2028, U+2029), so the output never
/// carries a raw control and a JavaScript reader sees one line. Works on Unicode scalars, never on
/// `Character`s (a combining mark glued to `"` must not hide it).
public enum JSONString {
    public static func quote(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\u{00}"..."\u{1F}":
                out += unicodeEscape(scalar)
            default:
                if scalar.value >= 0x7F && (SafeText.isDropped(scalar) || SafeText.isLineBreak(scalar)) {
                    out += unicodeEscape(scalar)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// `\u` and four lowercase hex digits (every scalar escaped this way is below U+10000).
    static func unicodeEscape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}

/// A JSON value with objects kept in the order they were built.
public indirect enum JSONValue: Sendable, Equatable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool { a.encoded == b.encoded }

    /// `nil` becomes `null`.
    public static func string(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
    public static func number(_ value: Double?) -> JSONValue { value.map { .number($0) } ?? .null }

    /// Compact, one line, no spaces.
    public var encoded: String {
        switch self {
        case .string(let s): return JSONString.quote(s)
        case .number(let n): return JSONNumber.format(n)
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .array(let items): return "[" + items.map(\.encoded).joined(separator: ",") + "]"
        case .object(let pairs):
            return "{" + pairs.map { JSONString.quote($0.0) + ":" + $0.1.encoded }.joined(separator: ",") + "}"
        }
    }
}

/// Numbers as JSON (and Prometheus) want them: whole numbers without a fraction (`63`, not
/// `63.0`), others in Swift's shortest round-trip form; non-finite values become `null`.
public enum JSONNumber {
    public static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// Rounded to `places` decimals, for numbers people read (percentages, pace).
    public static func rounded(_ value: Double, places: Int) -> Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}
