// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
/// `text.hasPrefix(prefix)` and `text.hasSuffix(suffix)` on bytes, for the prefixes and suffixes
/// the program looks for (`/`, `~/`, `--`, `seven_day`, `_hour`, `_week`…, the separator ` · `),
/// each ASCII at the edge where it meets the rest of the text.
///
/// `hasPrefix` and `hasSuffix` compare `Character`s, the text's grapheme clusters under
/// canonical equivalence: ~220 instructions a call, and code of the standard library's that a
/// render otherwise never runs (a 64 kB window of it to fault in). On bytes the answer is the
/// same when the byte on the far side of the match is ASCII too, or there is none: then nothing
/// joins the match's edge character to its neighbour. Past ASCII (a combining mark after a
/// prefix, a prepended mark before a suffix makes one character of them) `hasPrefix` and
/// `hasSuffix` themselves answer. The prefix must not end (the suffix not start) in a line break
/// (`\r\n` is one character). One difference is left: a character canonically equal to another
/// with other bytes (`K` to the Kelvin sign, `;` to the Greek question mark, the separator's `·`
/// to the Greek ano teleia) is not taken for it; none of those is what a window's name or a
/// rendered line holds.
public enum ASCIIAffix {
    public static func hasPrefix(_ text: String, _ prefix: StaticString) -> Bool {
        var text = text
        let count = prefix.utf8CodeUnitCount
        let decided: Bool? = text.withUTF8 { bytes in
            guard bytes.count >= count else { return false }
            for i in 0..<count where bytes[i] != prefix.utf8Start[i] { return false }
            return bytes.count == count || bytes[count] < 0x80 ? true : nil
        }
        return decided ?? text.hasPrefix(prefix.description)
    }

    public static func hasSuffix(_ text: String, _ suffix: StaticString) -> Bool {
        var text = text
        let count = suffix.utf8CodeUnitCount
        let decided: Bool? = text.withUTF8 { bytes in
            guard bytes.count >= count else { return false }
            let start = bytes.count - count
            for i in 0..<count where bytes[start + i] != suffix.utf8Start[i] { return false }
            return start == 0 || bytes[start - 1] < 0x80 ? true : nil
        }
        return decided ?? text.hasSuffix(suffix.description)
    }
}
