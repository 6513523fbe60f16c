// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// Pango markup (waybar `text`/`tooltip`, i3bar with `"markup":"pango"`).
///
/// The five XML specials become entities (`&amp; &lt; &gt; &quot; &#39;`), as
/// `g_markup_escape_text` writes them; a single bare `&` would otherwise make Pango reject the
/// whole string and the bar show nothing. Controls are dropped (`SafeText`; GMarkup refuses them
/// even as character references), and so are U+FFFE and U+FFFF, which XML does not allow; line
/// breaks are `\n`. Held equal to its reference, `escapeByScalars`
/// (Tests/ElbowroomAdaptersTests/Support/ReferenceEscaping.swift).
public enum Pango {
    public static func escape(_ text: String) -> String {
        var text = text  // (`withUTF8` copies only a string that is not contiguous UTF-8 already)
        return text.withUTF8 { escape(bytes: $0) } ?? text
    }

    /// The escaped bytes, or `nil` when there is nothing to change (most text: one pass over
    /// the bytes finds that out). On UTF-8 bytes, with `SafeText.map(lines: .keep)`'s rules (a
    /// test holds the two equal): only C0 controls, DEL, the five specials, and scalars led by
    /// 0xC2 0x80–0x9F (C1 controls, NEL), 0xD8 0x9C (U+061C), 0xE2 0x80/0x81 (bidi controls, line
    /// separators) and 0xEF 0xBF (U+FFFE, U+FFFF) are looked at; the rest is copied run by run.
    static func escape(bytes: UnsafeBufferPointer<UInt8>) -> String? {
        func special(_ i: Int) -> Bool {
            let b = bytes[i]
            if b < 0x80 {
                return b < 0x20 || b == 0x7F || b == UInt8(ascii: "&") || b == UInt8(ascii: "<") || b == UInt8(ascii: ">")
                    || b == UInt8(ascii: "\"") || b == UInt8(ascii: "'")
            }
            guard i + 1 < bytes.count else { return false }
            let next = bytes[i + 1]
            switch b {
            case 0xC2: return next < 0xA0
            case 0xD8: return next == 0x9C
            case 0xE2: return next == 0x80 || next == 0x81
            case 0xEF: return next == 0xBF
            default: return false
            }
        }
        var first = 0
        while first < bytes.count && !special(first) { first += 1 }
        if first == bytes.count { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[0..<first]))
        var afterCR = false
        var i = first
        while i < bytes.count {
            let b = bytes[i]
            if b < 0x80 {
                let wasAfterCR = afterCR
                afterCR = b == 0x0D
                switch b {
                case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
                case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
                case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
                case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
                case UInt8(ascii: "'"): out.append(contentsOf: "&#39;".utf8)
                case 0x0A: if !wasAfterCR { out.append(0x0A) }
                case 0x0D: out.append(0x0A)
                case 0x09: out.append(b)
                case 0x00...0x1F, 0x7F: break
                default: out.append(b)
                }
                i += 1
                continue
            }
            let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
            afterCR = false
            if special(i) {
                var value = UInt32(b) & (length == 2 ? 0x1F : 0x0F)
                for k in 1..<length where i + k < bytes.count { value = value << 6 | UInt32(bytes[i + k] & 0x3F) }
                if let scalar = Unicode.Scalar(value) {
                    if SafeText.isLineBreak(scalar) {
                        out.append(0x0A)
                        i += length
                        continue
                    }
                    if SafeText.isDropped(scalar) || value == 0xFFFE || value == 0xFFFF {
                        i += length
                        continue
                    }
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i..<min(i + length, bytes.count)]))
            i += length
        }
        return String(decoding: out, as: UTF8.self)
    }
}
