// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// JSON string and value encoding for the line protocols (waybar, i3bar, i3blocks, json, plugins).
///
/// Written by hand rather than with `JSONEncoder` so that key order is fixed (golden files and
/// diffs stay stable) and `/` is not escaped. Escapes what RFC 8259 requires: `"`, `\` and
/// U+0000…U+001F (as `\n`, `\t`, … or `\u00XX`); and, as `\uXXXX`, every other scalar `SafeText`
/// drops or breaks lines on (DEL, C1 controls, bidi controls, U+2028, U+2029), so the output never
/// carries a raw control and a JavaScript reader sees one line. Works on Unicode scalars, never on
/// `Character`s (a combining mark glued to `"` must not hide it). Held equal to its reference,
/// `quoteByScalars` (Tests/ElbowroomAdaptersTests/Support/ReferenceEscaping.swift).
public enum JSONString {
    public static func quote(_ text: String) -> String {
        // On UTF-8 bytes: most text has nothing to escape and is copied whole; the rest is
        // copied run by run. 0xC2, 0xD8 and 0xE2 lead the C1 controls, U+061C, and the bidi
        // controls and line separators: only scalars with those leads are decoded and looked at.
        var plain = true
        for byte in text.utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
            || byte == 0x7F || byte == 0xC2 || byte == 0xD8 || byte == 0xE2 {
            plain = false
            break
        }
        if plain { return "\"" + text + "\"" }
        let bytes = Array(text.utf8)
        var out: [UInt8] = [UInt8(ascii: "\"")]
        out.reserveCapacity(bytes.count + 16)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b < 0x80 {
                switch b {
                case UInt8(ascii: "\""): out += [0x5C, 0x22]
                case UInt8(ascii: "\\"): out += [0x5C, 0x5C]
                case 0x0A: out += [0x5C, UInt8(ascii: "n")]
                case 0x0D: out += [0x5C, UInt8(ascii: "r")]
                case 0x09: out += [0x5C, UInt8(ascii: "t")]
                case 0x08: out += [0x5C, UInt8(ascii: "b")]
                case 0x0C: out += [0x5C, UInt8(ascii: "f")]
                case 0x00...0x1F, 0x7F: appendUnicodeEscape(UInt32(b), to: &out)
                default: out.append(b)
                }
                i += 1
                continue
            }
            let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
            if b == 0xC2 || b == 0xD8 || b == 0xE2 {
                var value = UInt32(b) & (length == 2 ? 0x1F : 0x0F)
                for k in 1..<length { value = value << 6 | UInt32(bytes[i + k] & 0x3F) }
                if let scalar = Unicode.Scalar(value), SafeText.isDropped(scalar) || SafeText.isLineBreak(scalar) {
                    appendUnicodeEscape(value, to: &out)
                    i += length
                    continue
                }
            }
            out.append(contentsOf: bytes[i..<i + length])
            i += length
        }
        out.append(UInt8(ascii: "\""))
        return String(decoding: out, as: UTF8.self)
    }

    /// `\u` and four lowercase hex digits, as bytes.
    static func appendUnicodeEscape(_ value: UInt32, to out: inout [UInt8]) {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        out += [0x5C, UInt8(ascii: "u"), digits[Int(value >> 12 & 15)], digits[Int(value >> 8 & 15)],
                digits[Int(value >> 4 & 15)], digits[Int(value & 15)]]
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
        case .array(let items):
            var out = "["
            for i in items.indices {
                if i > 0 { out += "," }
                out += items[i].encoded
            }
            return out + "]"
        case .object(let pairs):
            var out = "{"
            for i in pairs.indices {
                if i > 0 { out += "," }
                out += JSONString.quote(pairs[i].0) + ":" + pairs[i].1.encoded
            }
            return out + "}"
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
