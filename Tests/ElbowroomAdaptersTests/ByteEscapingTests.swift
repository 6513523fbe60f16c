import Testing
import ElbowroomCore
@testable import ElbowroomAdapters

/// JSON strings and Pango markup are escaped on UTF-8 bytes (on every waybar, i3bar and json
/// render); these hold the byte versions equal to the scalar-by-scalar versions they replaced,
/// over every scalar class either one treats specially, in random mixtures.
@Suite struct ByteEscapingTests {
    /// Every scalar either escaper looks at, plus neighbours of each (same UTF-8 lead byte,
    /// neighbouring values), multi-byte text and combining marks.
    static let alphabet: [String] = [
        "a", " ", "\"", "\\", "&", "<", ">", "'", "/", "\n", "\r", "\r\n", "\t", "\u{08}", "\u{0C}", "\u{00}", "\u{01}",
        "\u{1B}", "\u{1F}", "\u{7F}", "\u{80}", "\u{85}", "\u{9B}", "\u{9F}", "\u{A0}", "\u{BF}", "é", "\u{061B}",
        "\u{061C}", "\u{061D}", "\u{0600}", "\u{200B}", "\u{200D}", "\u{200E}", "\u{200F}", "\u{2028}", "\u{2029}",
        "\u{202A}", "\u{202E}", "\u{202F}", "\u{2066}", "\u{2069}", "\u{206A}", "—", "…", "↻", "░", "█", "\u{FFFD}",
        "\u{FFFE}", "\u{FFFF}", "\u{FEFF}", "\u{E000}", "😀", "\u{10FFFF}", "e\u{301}", "#\u{301}", "\"\u{301}",
    ]

    static func samples() -> [String] {
        var result = alphabet + ["", "plain text 5h 37% · 7d 59%", "Claude usage\n5h ▉▉ 37% left"]
        var state: UInt64 = 0xE5CA9E
        func next() -> Int {
            state &+= 0x9e37_79b9_7f4a_7c15
            var z = state
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return Int(truncatingIfNeeded: (z ^ (z >> 31)) >> 1)
        }
        for _ in 0..<3000 {
            var text = ""
            for _ in 0..<(next() % 12) { text += alphabet[next() % alphabet.count] }
            result.append(text)
        }
        return result
    }

    /// Every scalar of the Basic Multilingual Plane (and the planes' ends), alone and between
    /// letters: the byte escapers equal their references, and `SafeText.mayNeedCleaning` (which
    /// lets most text through untouched) is true for every scalar cleaning changes.
    @Test func everyScalarEscapesAsItsReferenceAndIsSeenWhenCleaningChangesIt() {
        var failures = 0
        for value in Array(0...0xFFFF) + [0x10000, 0x1F600, 0xE0001, 0x10FFFF] {
            guard let scalar = Unicode.Scalar(UInt32(value)) else { continue }
            for text in [String(Character(scalar)), "a" + String(Character(scalar)) + "b"] {
                if SafeText.clean(text, lines: .keep) != SafeText.map(text, lines: .keep, escape: { _ in nil }) { failures += 1 }
                if SafeText.map(text, lines: .keep, escape: { _ in nil }) != text && !SafeText.mayNeedCleaning(text) { failures += 1 }
                if JSONString.quote(text) != JSONString.quoteByScalars(text) { failures += 1 }
                if Pango.escape(text) != Pango.escapeByScalars(text) { failures += 1 }
            }
        }
        #expect(failures == 0)
    }

    /// `SafeText.mayNeedCleaning` passes printable ASCII over eight bytes at a time: every scalar
    /// cleaning changes (and the printable ones around them) is still seen at every offset in
    /// and across those words, and printable ASCII of any length is passed.
    @Test func mayNeedCleaningSeesAChangedScalarAtEveryOffset() {
        let changed = Array(0...0x7F).filter { !(0x20...0x7E).contains($0) }
            + Array(0x80...0x9F) + [0x061C, 0x200E, 0x200F, 0x2028, 0x2029] + Array(0x202A...0x202E) + Array(0x2066...0x2069)
        let printable = String(decoding: (0x20...0x7E).map { UInt8($0) }, as: UTF8.self)
        var failures = 0
        for length in 0...printable.utf8.count where SafeText.mayNeedCleaning(String(printable.prefix(length))) {
            failures += 1
        }
        for value in changed + [0x20, 0x41, 0x7E, 0xA0, 0xB7, 0x2588, 0x1F600] {
            let scalar = String(Character(Unicode.Scalar(UInt32(value))!))
            let changes = SafeText.map(scalar, lines: .join, escape: { _ in nil }) != scalar
            #expect(changes == changed.contains(value), "U+\(String(value, radix: 16))")
            for offset in 0...17 {
                for after in [0, 1, 9] {
                    let text = String(repeating: "x", count: offset) + scalar + String(repeating: "y", count: after)
                    if changes && !SafeText.mayNeedCleaning(text) { failures += 1 }
                    if !changes && value < 0x80 && SafeText.mayNeedCleaning(text) { failures += 1 }
                }
            }
        }
        #expect(failures == 0)
    }

    /// Waybar writes its Pango markup straight into its JSON strings (`json: true`): the same
    /// bytes as writing the markup and quoting it as any text, for runs of every sample and style
    /// (tags with quotes, a CR ending one run and an LF starting the next), and for a tooltip's
    /// spans.
    @Test func markupWrittenIntoJSONEqualsMarkupQuoted() {
        func quoted(_ markup: [UInt8]) -> [UInt8] {
            var out: [UInt8] = []
            markup.withUnsafeBufferPointer { JSONString.quote(bytes: $0, into: &out) }
            return out
        }
        let styles: [Style] = [.plain, Style(foreground: .named(.red), bold: true), Style(background: .rgb(1, 2, 3), italic: true, underline: true)]
        let texts = Self.samples()
        var frame = Hostile.frame("x")
        var checked = 0
        for start in stride(from: 0, to: texts.count - 4, by: 2) {
            let runs = (0..<4).map { k in StyledRun(texts[start + k], style: styles[(start + k) % styles.count]) }
            var markup: [UInt8] = []
            Pango.encode(runs, into: &markup)
            var direct: [UInt8] = [0x22]
            Pango.encode(runs, into: &direct, json: true)
            direct.append(0x22)
            frame.tooltip = runs
            var fromSpans: [UInt8] = []
            Pango.encode(frame.tooltip, of: frame, into: &fromSpans)
            var fromSpansDirect: [UInt8] = [0x22]
            Pango.encode(frame.tooltip, of: frame, into: &fromSpansDirect, json: true)
            fromSpansDirect.append(0x22)
            if direct != quoted(markup) || fromSpansDirect != quoted(fromSpans) {
                Issue.record("\(runs.map(\.text).debugDescription): \(String(decoding: direct, as: UTF8.self).debugDescription)")
                return
            }
            checked += 1
        }
        #expect(checked > 1_400)
        var out: [UInt8] = []
        Pango.encode([StyledRun("a\r\nb\\\t\u{2028}\"")], into: &out, json: true)
        #expect(String(decoding: out, as: UTF8.self) == #"a\nb\\\t\n&quot;"#)
    }

    @Test func jsonQuotingOnBytesEqualsQuotingOnScalars() {
        for text in Self.samples() where JSONString.quote(text) != JSONString.quoteByScalars(text) {
            Issue.record("\(text.debugDescription): \(JSONString.quote(text).debugDescription) != \(JSONString.quoteByScalars(text).debugDescription)")
            return
        }
    }

    @Test func pangoEscapingOnBytesEqualsEscapingOnScalars() {
        for text in Self.samples() where Pango.escape(text) != Pango.escapeByScalars(text) {
            Issue.record("\(text.debugDescription): \(Pango.escape(text).debugDescription) != \(Pango.escapeByScalars(text).debugDescription)")
            return
        }
    }

    /// A tooltip's markup is written straight from its spans (waybar): the same bytes as
    /// resolving and merging the spans into runs and encoding those, whatever the spans hold —
    /// a CR ending one span and an LF starting the next, specials split across spans, spans of
    /// one style next to each other or not, empty ones.
    @Test func markupFromSpansEqualsMarkupFromRuns() {
        let styles: [Style] = [.plain, Style(bold: true), Style(semantic: .warn), Style(semantic: .ok), .plain]
        var frame = Hostile.frame("x")
        let texts = Self.samples()
        var cases: [[Span]] = [[Span("a\r"), Span("\nb"), Span("\r", style: Style(bold: true)), Span(""), Span("\n", style: Style(bold: true))]]
        for start in stride(from: 0, to: texts.count - 6, by: 3) {
            cases.append((0..<6).map { k in Span(texts[start + k], style: styles[(start + k * 7) % styles.count]) })
        }
        for spans in cases {
            frame.tooltip = spans
            var bytes: [UInt8] = []
            Pango.encode(frame.tooltip, of: frame, into: &bytes)
            let direct = String(decoding: bytes, as: UTF8.self)
            let throughRuns = Pango.encode(frame.runs(frame.tooltip))
            if direct != throughRuns {
                Issue.record("\(frame.tooltip.map(\.text).debugDescription): \(direct.debugDescription) != \(throughRuns.debugDescription)")
                return
            }
        }
    }
}
