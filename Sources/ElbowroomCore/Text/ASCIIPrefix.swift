// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
/// `text.hasPrefix(prefix)` on bytes, for the ASCII prefixes the program looks for (`/`, `~/`,
/// `--`, `seven_day`).
///
/// `hasPrefix` compares `Character`s, the text's grapheme clusters under canonical equivalence:
/// ~220 instructions a call, and code of the standard library's that a render otherwise never
/// runs (a page of its own to fault in). On bytes the answer is the same when the byte after
/// the prefix is ASCII too, or there is none: then nothing joins the prefix's last character to
/// what follows. Past ASCII (a combining mark after the prefix makes one character of them)
/// `hasPrefix` itself answers. The prefix must not end in a carriage return (`\r\n` is one
/// character) nor hold `K`, `;` or `` ` ``, which a non-ASCII character is canonically equal to.
public enum ASCIIPrefix {
    public static func matches(_ text: String, _ prefix: StaticString) -> Bool {
        var text = text
        let count = prefix.utf8CodeUnitCount
        let decided: Bool? = text.withUTF8 { bytes in
            guard bytes.count >= count else { return false }
            for i in 0..<count where bytes[i] != prefix.utf8Start[i] { return false }
            return bytes.count == count || bytes[count] < 0x80 ? true : nil
        }
        return decided ?? text.hasPrefix(prefix.description)
    }
}
