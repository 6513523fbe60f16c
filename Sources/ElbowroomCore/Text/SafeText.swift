// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
/// Text that comes from the data (API window keys and labels, error messages, plan, currency,
/// Claude Code's status-line input) on its way to a consumer: a terminal, a shell prompt, a bar.
///
/// `map` is the one pass every escaper is built on. It walks Unicode scalars, never `Character`s:
/// a combining mark (U+0301), a joiner (U+200D), a variation selector (U+FE0F) or a Prepend code
/// point (U+0600) glued to `#`, `%`, `{`, `|` or `"` makes a `Character` that is not equal to the
/// special one, so a `Character` comparison lets the raw byte through to a consumer that reads
/// bytes. On the way:
///
/// | in the data | becomes |
/// |---|---|
/// | C0 controls (NUL, BEL, ESC, …) except tab, DEL, C1 controls (U+0080–U+009F: CSI U+009B, OSC U+009D, …) | dropped: no escape sequence reaches a terminal |
/// | bidi controls: U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069 | dropped: no reordered (spoofed) text |
/// | line breaks: LF, CR, CRLF (one break), NEL U+0085, U+2028, U+2029 | `\n` (`.keep`) or a space (`.join`) |
/// | tab | a space with `.join` (one line is measured in columns, and a tab's width is the terminal's guess) |
/// | everything else | handed to the consumer's `escape` |
public enum SafeText {
    /// What a line break in the data becomes.
    public enum Lines: Sendable {
        /// `\n`, for consumers that show several lines.
        case keep
        /// One space, for one-line consumers; a tab is a space too.
        case join
    }

    /// `text` with controls and bidi controls dropped, line breaks as `lines` says, and every
    /// other scalar replaced by `escape`'s answer (`nil` keeps it). `escape` sees line breaks
    /// already turned into `\n` or a space, so it can escape them too. Inlinable, so each
    /// escaper's closure is inlined into the loop (this runs on every prompt).
    @inlinable
    public static func map(_ text: String, lines: Lines, escape: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        map(text, lines: lines, into: &out, escape: escape)
        return out
    }

    /// `map(_:lines:escape:)` appended to `out` (an adapter's line: no string of its own that
    /// is freed once copied, see `GrowingText`).
    public static func map(_ text: String, lines: Lines, into out: inout String, escape: (Unicode.Scalar) -> String?) {
        GrowingText.reserve(text.utf8.count, in: &out)
        var afterCR = false
        for scalar in text.unicodeScalars {
            var s = scalar
            if isLineBreak(scalar) {
                let isLFAfterCR = afterCR && scalar == "\n"
                afterCR = scalar == "\r"
                if isLFAfterCR { continue }
                s = lines == .keep ? "\n" : " "
            } else {
                afterCR = false
                if isDropped(scalar) { continue }
                if lines == .join && scalar == "\t" { s = " " }
            }
            if let replacement = escape(s) {
                out += replacement
            } else {
                out.unicodeScalars.append(s)
            }
        }
    }

    /// `text` safe to print: controls and bidi controls dropped, line breaks as `lines` says.
    @inlinable
    public static func clean(_ text: String, lines: Lines) -> String {
        mayNeedCleaning(text) ? map(text, lines: lines) { _ in nil } : text
    }

    /// `clean(text, lines:)` appended to `out` (an adapter's line, see `GrowingText`); `escape`
    /// as `map`'s, for what the consumer needs besides (`nil`: the scalar as it is).
    public static func clean(_ text: String, lines: Lines, into out: inout String,
                             escape: (Unicode.Scalar) -> String? = { _ in nil }) {
        if mayNeedCleaning(text) {
            map(text, lines: lines, into: &out, escape: escape)
        } else {
            GrowingText.append(text, to: &out)
        }
    }

    /// Whether `text` has bytes that may be something `map` changes: a C0 control, DEL, or the
    /// first two UTF-8 bytes of the C1 controls and NEL (0xC2 0x80–0x9F), U+061C (0xD8 0x9C), and
    /// the other bidi controls and line separators (0xE2 0x80 and 0xE2 0x81: U+2000–U+207F).
    /// Most text has none — a `·` (0xC2 0xB7) or a bar's `█` (0xE2 0x96 0x88) is not one — and is
    /// returned as it is (every prompt and tooltip). A test holds this true for every scalar
    /// `map` changes.
    @inlinable
    public static func mayNeedCleaning(_ text: String) -> Bool {
        var text = text  // (`withUTF8` copies only a string that is not contiguous UTF-8 already)
        return text.withUTF8(mayNeedCleaning(bytes:))
    }

    /// Printable ASCII is passed over at once, eight bytes at a time while it lasts (a label
    /// byte by byte cost ~180 instructions); a byte of 0x80 or more is looked at with the byte
    /// after it (the pairs above).
    @inlinable
    static func mayNeedCleaning(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while i &+ 8 <= bytes.count {
                let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                // Some byte below 0x20 (a borrow into a high bit that was clear), or some byte
                // above 0x7E (a carry into, or a high bit already set): exact for "some byte".
                let below = (word &- 0x2020_2020_2020_2020) & ~word
                let above = (word &+ 0x0101_0101_0101_0101) | word
                if (below | above) & 0x8080_8080_8080_8080 != 0 { break }
                i &+= 8
            }
        }
        while i < bytes.count {
            let byte = bytes[i]
            i += 1
            if byte >= 0x20 && byte < 0x7F { continue }
            if byte < 0x80 { return true }  // a C0 control or DEL
            guard i < bytes.count else { return false }
            let next = bytes[i]
            switch byte {
            case 0xC2: if next < 0xA0 { return true }
            case 0xD8: if next == 0x9C { return true }
            case 0xE2: if next == 0x80 || next == 0x81 { return true }
            default: break
            }
        }
        return false
    }

    /// The text before the first line break, cleaned: for one-line error output.
    public static func firstLine(_ text: String) -> String {
        var first = ""
        for scalar in text.unicodeScalars {
            if isLineBreak(scalar) { break }
            first.unicodeScalars.append(scalar)
        }
        return clean(first, lines: .join)
    }

    /// The longest prefix of `text` that fits in `maxBytes` bytes of UTF-8, cut between scalars.
    /// Caps on text from the data count bytes, never `Character`s: one grapheme cluster can
    /// hold any number of combining marks, so 64 characters can be megabytes.
    public static func prefix(_ text: String, maxBytes: Int) -> String {
        guard text.utf8.count > maxBytes else { return text }
        var out = String.UnicodeScalarView()
        var bytes = 0
        for scalar in text.unicodeScalars {
            bytes += UTF8.width(scalar)
            if bytes > maxBytes { break }
            out.append(scalar)
        }
        return String(out)
    }

    /// LF, CR, NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR.
    @inlinable
    public static func isLineBreak(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x0A, 0x0D, 0x85, 0x2028, 0x2029: return true
        default: return false
        }
    }

    /// Dropped wherever data is shown: C0 controls other than tab (line breaks are not asked
    /// about here), DEL, C1 controls and the bidi controls.
    @inlinable
    public static func isDropped(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x09: return false
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
