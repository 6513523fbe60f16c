// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// JSON strings for the line protocols (waybar, i3bar, i3blocks, json, plugins); `JSONValue`
/// builds whole values with it.
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
        var text = text  // (`withUTF8` copies only a string that is not contiguous UTF-8 already)
        return text.withUTF8 { quote(bytes: $0) } ?? "\"" + text + "\""
    }

    /// The quoted bytes, or `nil` when the text needs no escape (then it is quoted as it is).
    /// On UTF-8 bytes: only scalars led by 0xC2 0x80–0x9F (the C1 controls), 0xD8 0x9C (U+061C)
    /// and 0xE2 0x80/0x81 (the bidi controls and line separators) are decoded and looked at; the
    /// rest is copied run by run.
    static func quote(bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var plain = true
        for b in bytes where b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b == 0x7F
            || b == 0xC2 || b == 0xD8 || b == 0xE2 {
            plain = false
            break
        }
        if plain { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 18)
        quote(bytes: bytes, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `bytes` quoted, the quotes included, to `out`.
    static func quote(bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Runs of bytes that stand as they are are copied whole.
        var run = 0
        var i = 0
        func flush() {
            if run < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<i])) }
        }
        while i < bytes.count {
            let b = bytes[i]
            if b < 0x80 {
                if b >= 0x20 && b != UInt8(ascii: "\"") && b != UInt8(ascii: "\\") && b != 0x7F {
                    i += 1
                    continue
                }
                flush()
                switch b {
                case UInt8(ascii: "\""): out.append(0x5C); out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C); out.append(0x5C)
                case 0x0A: out.append(0x5C); out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(0x5C); out.append(UInt8(ascii: "r"))
                case 0x09: out.append(0x5C); out.append(UInt8(ascii: "t"))
                case 0x08: out.append(0x5C); out.append(UInt8(ascii: "b"))
                case 0x0C: out.append(0x5C); out.append(UInt8(ascii: "f"))
                default: appendUnicodeEscape(UInt32(b), to: &out)
                }
                i += 1
                run = i
                continue
            }
            let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
            // Only these leads, with these second bytes, can start a scalar escaped here (the
            // same test as `Pango.isSpecial`): a bar's or sparkline's blocks (0xE2 0x96 …) are
            // not decoded.
            if i + 1 < bytes.count, b == 0xC2 ? bytes[i + 1] < 0xA0
                : b == 0xD8 ? bytes[i + 1] == 0x9C
                : b == 0xE2 ? bytes[i + 1] == 0x80 || bytes[i + 1] == 0x81 : false {
                var value = UInt32(b) & (length == 2 ? 0x1F : 0x0F)
                for k in 1..<length where i + k < bytes.count { value = value << 6 | UInt32(bytes[i + k] & 0x3F) }
                if let scalar = Unicode.Scalar(value), SafeText.isDropped(scalar) || SafeText.isLineBreak(scalar) {
                    flush()
                    appendUnicodeEscape(value, to: &out)
                    i += length
                    run = i
                    continue
                }
            }
            i += length
        }
        i = min(i, bytes.count)
        flush()
        out.append(UInt8(ascii: "\""))
    }

    /// Appends `text` quoted to `out`.
    static func quote(_ text: String, into out: inout [UInt8]) {
        var text = text
        text.withUTF8 { quote(bytes: $0, into: &out) }
    }

    /// `\u` and four lowercase hex digits, as bytes.
    static func appendUnicodeEscape(_ value: UInt32, to out: inout [UInt8]) {
        func hex(_ nibble: UInt32) -> UInt8 {
            nibble < 10 ? UInt8(ascii: "0") + UInt8(nibble) : UInt8(ascii: "a") + UInt8(nibble - 10)
        }
        out.append(0x5C)
        out.append(UInt8(ascii: "u"))
        out.append(hex(value >> 12 & 15))
        out.append(hex(value >> 8 & 15))
        out.append(hex(value >> 4 & 15))
        out.append(hex(value & 15))
    }
}
