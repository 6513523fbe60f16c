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
        // On UTF-8 bytes, with `SafeText.map(lines: .keep)`'s rules (a test holds the two equal):
        // most text has nothing to escape or drop and is returned as it is. 0xEF leads U+FFFE
        // and U+FFFF; see `SafeText.mayNeedCleaning` for the other leads worth decoding.
        var plain = true
        for byte in text.utf8 where byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == 0xEF {
            plain = false
            break
        }
        if plain && !SafeText.mayNeedCleaning(text) { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        var afterCR = false
        var i = 0
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
            if b == 0xC2 || b == 0xD8 || b == 0xE2 || b == 0xEF {
                var value = UInt32(b) & (length == 2 ? 0x1F : 0x0F)
                for k in 1..<length { value = value << 6 | UInt32(bytes[i + k] & 0x3F) }
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
            out.append(contentsOf: bytes[i..<i + length])
            i += length
        }
        return String(decoding: out, as: UTF8.self)
    }
}
