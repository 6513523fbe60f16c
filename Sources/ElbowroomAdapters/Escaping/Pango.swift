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
        var first = 0
        while first < bytes.count && (!isSpecial(bytes, first) || bytes[first] == UInt8(ascii: "\\")) { first += 1 }
        if first == bytes.count { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        var afterCR = false
        escape(bytes: bytes, into: &out, afterCR: &afterCR)
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether the byte at `i` starts something `escape` changes (never a continuation byte).
    @inline(__always)
    static func isSpecial(_ bytes: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        let b = bytes[i]
        if b < 0x80 {
            // (A backslash too: kept as it is, unless the markup is written into JSON.)
            return b < 0x20 || b == 0x7F || b == UInt8(ascii: "&") || b == UInt8(ascii: "<") || b == UInt8(ascii: ">")
                || b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") || b == UInt8(ascii: "\\")
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

    /// Appends `bytes` escaped to `out`, runs of bytes that stand as they are copied whole.
    /// `afterCR`: the text before ended in a CR (so an LF this text starts with is the same line
    /// break); on return, whether this text does. `json`: the markup is written as the inside
    /// of a JSON string (waybar's), in the same pass: a line break as `\n`, a tab as `\t`, a
    /// backslash doubled (markup holds no other byte JSON escapes: `"` is `&quot;`, and every
    /// other control is dropped).
    static func escape(bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8], afterCR: inout Bool, json: Bool = false) {
        var run = 0
        var i = 0
        while i < bytes.count {
            guard isSpecial(bytes, i) else {
                i += 1
                continue
            }
            if run < i {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<i]))
                afterCR = false
                run = i
            }
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
                case UInt8(ascii: "\\"): if json { out.append(0x5C) }; out.append(0x5C)
                case 0x0A: if !wasAfterCR { lineBreak(into: &out, json: json) }
                case 0x0D: lineBreak(into: &out, json: json)
                case 0x09: if json { out.append(0x5C); out.append(UInt8(ascii: "t")) } else { out.append(b) }
                default: break  // the other C0 controls and DEL
                }
                i += 1
                run = i
                continue
            }
            let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
            afterCR = false
            var value = UInt32(b) & (length == 2 ? 0x1F : 0x0F)
            for k in 1..<length where i + k < bytes.count { value = value << 6 | UInt32(bytes[i + k] & 0x3F) }
            if let scalar = Unicode.Scalar(value) {
                if SafeText.isLineBreak(scalar) {
                    lineBreak(into: &out, json: json)
                    i += length
                    run = i
                    continue
                }
                if SafeText.isDropped(scalar) || value == 0xFFFE || value == 0xFFFF {
                    i += length
                    run = i
                    continue
                }
            }
            // Looked at and kept (U+00A0 and above behind 0xC2, …): part of the next run.
            i += length
        }
        if run < bytes.count {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<bytes.count]))
            afterCR = false
        }
    }

    /// A line break in markup: a newline, or `\n` inside a JSON string.
    @inline(__always)
    private static func lineBreak(into out: inout [UInt8], json: Bool) {
        if json { out.append(0x5C); out.append(UInt8(ascii: "n")) } else { out.append(0x0A) }
    }
}
