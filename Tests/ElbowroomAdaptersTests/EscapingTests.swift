import ElbowroomAdapters
import ElbowroomCore
import Testing

/// Every escaping rule, byte for byte.
@Suite struct EscapingTests {
    @Test(arguments: [
        ("10%", "10%%"), ("%F{red}", "%%F{red}"), ("%%", "%%%%"), ("a\u{1B}[31mb", "a[31mb"),
        ("two\nlines", "two\nlines"), ("#$`\\!", "#$`\\!"),
        // A mark glued to `%` makes one Character that is not `%`: escaping is by scalar.
        ("\u{600}%n", "\u{600}%%n"), ("%\u{301}F{red}", "%%\u{301}F{red}"), ("\u{D4E}%%", "\u{D4E}%%%%"),
        ("a\r\nb\u{2028}c", "a\nb\nc"), ("\u{9B}31m\u{202E}", "31m"),
    ])
    func zsh(input: String, expected: String) {
        #expect(Array(ZshEscaping.escape(input).unicodeScalars) == Array(expected.unicodeScalars))
    }

    @Test(arguments: [
        ("#", "##"), ("#[fg=red]", "##[fg=red]"), ("##S", "####S"), ("10%", "10%"),
        ("a\nb", "a b"), ("\u{1B}[0m", "[0m"),
        ("\u{600}#[fg=red]", "\u{600}##[fg=red]"), ("#\u{301}{pane_id}", "##\u{301}{pane_id}"),
        ("#\u{200D}#\u{FE0F}", "##\u{200D}##\u{FE0F}"), ("a\r\nb", "a b"), ("\u{9D}0;x\u{9C}", "0;x"),
    ])
    func tmux(input: String, expected: String) {
        #expect(Array(TmuxEscaping.escape(input).unicodeScalars) == Array(expected.unicodeScalars))
    }

    @Test(arguments: [
        ("&<>\"'", "&amp;&lt;&gt;&quot;&#39;"), ("a & b", "a &amp; b"), ("&amp;", "&amp;amp;"),
        ("<span>", "&lt;span&gt;"), ("x\ny\tz", "x\ny\tz"), ("bell\u{07}esc\u{1B}", "bellesc"), ("%{#}|", "%{#}|"),
        ("\u{600}<b>", "\u{600}&lt;b&gt;"), ("&\u{301}", "&amp;\u{301}"), ("\u{202E}x\u{9B}", "x"),
        ("\u{FFFE}\u{FFFF}", ""), ("a\r\nb", "a\nb"),
    ])
    func pango(input: String, expected: String) {
        #expect(Array(Pango.escape(input).unicodeScalars) == Array(expected.unicodeScalars))
    }

    @Test(arguments: [
        ("plain", #""plain""#), ("a\"b", #""a\"b""#), ("back\\slash", #""back\\slash""#),
        ("a/b", #""a/b""#), ("\n\r\t", #""\n\r\t""#), ("\u{08}\u{0C}", #""\b\f""#),
        ("\u{00}\u{01}\u{1F}\u{7F}", #""\u0000\u0001\u001f\u007f""#), ("⚠ ü", "\"⚠ ü\""),
        // C1, bidi controls and the Unicode line separators are escaped too: no raw control
        // in the output, one line for a JavaScript reader.
        ("\u{9B}\u{85}\u{202E}\u{2066}\u{2028}\u{2029}", #""\u009b\u0085\u202e\u2066\u2028\u2029""#),
        ("\"\u{301}\u{600}\\", "\"\\\"\u{301}\u{600}\\\\\""),
    ])
    func jsonString(input: String, expected: String) {
        #expect(Array(JSONString.quote(input).unicodeScalars) == Array(expected.unicodeScalars))
    }

    @Test func jsonNumbers() {
        #expect(JSONNumber.format(63) == "63")
        #expect(JSONNumber.format(-0.0) == "0")
        #expect(JSONNumber.format(24.68) == "24.68")
        #expect(JSONNumber.format(1_800_000_000) == "1800000000")
        #expect(JSONNumber.format(.nan) == "null")
        #expect(JSONNumber.format(.infinity) == "null")
        // Whole numbers as the standard library prints an Int64, over the range they are used in.
        for value: Double in [0, 1, 9, 10, 99, 100, 101, 255, 1000, 65536, -1, -7, -100, -101, 1e14, 999_999_999_999_999, -999_999_999_999_999] {
            #expect(JSONNumber.format(value) == String(Int64(value)), "\(value)")
        }
        #expect(JSONNumber.format(1e15) == "\(1e15)")
        #expect(JSONNumber.rounded(66.66666, places: 1) == 66.7)
        #expect(JSONValue.object([("b", .number(1)), ("a", .array([.null, .bool(true), .string("x")]))]).encoded
                == #"{"b":1,"a":[null,true,"x"]}"#)
    }

    @Test(arguments: [
        ("%{F#f00}", "%\u{200B}{F#f00}"), ("10%", "10%"), ("%%{", "%%\u{200B}{"), ("{%}", "{%}"),
        ("a\nb", "a b"), ("%{A1:rm -rf:}x%{A}", "%\u{200B}{A1:rm -rf:}x%\u{200B}{A}"),
        // By scalar: a Prepend mark before `%` or a combining mark after `{` hides nothing, and
        // a control dropped between them does not join them unbroken.
        ("\u{600}%{A1:x:}", "\u{600}%\u{200B}{A1:x:}"), ("%{\u{301}A1:x:}", "%\u{200B}{\u{301}A1:x:}"),
        ("%\u{1B}{A1:x:}", "%\u{200B}{A1:x:}"), ("%\n{", "% {"),
    ])
    func polybar(input: String, expected: String) {
        #expect(Array(PolybarEscaping.escape(input).unicodeScalars) == Array(expected.unicodeScalars))
    }

    @Test(arguments: [
        ("a|b", "a│b"), ("|||", "│││"), ("---", "\u{200B}---"), ("--sub", "\u{200B}--sub"),
        ("~~~", "\u{200B}~~~"), ("5h 63%", "5h 63%"), ("x\ny", "x y"),
        ("\u{600}|bash=/bin/sh", "\u{600}│bash=/bin/sh"), ("|\u{301}bash=x", "│\u{301}bash=x"),
        ("-\u{301}-sub", "\u{200B}-\u{301}-sub"), ("  ---", "  \u{200B}---"), ("a\r\n--b", "a --b"),
        ("\u{202E}---", "\u{200B}---"),
    ])
    func swiftbar(input: String, expected: String) {
        #expect(Array(SwiftBarEscaping.line(input).unicodeScalars) == Array(expected.unicodeScalars))
    }

    @Test func prometheus() {
        #expect(PrometheusEscaping.labelValue(#"a\b"c"# + "\nd") == #"a\\b\"c\nd"#)
        #expect(PrometheusEscaping.help(#"a\b"c"# + "\nd") == #"a\\b"c\nd"#)
    }

    /// A mark glued to `"` or `\\` hid it from a `Character` comparison, and a CR or U+2028 split
    /// the sample line: the exposition no longer parsed.
    @Test(arguments: [
        ("\"\u{301}", "\\\"\u{301}"), ("\u{600}\"", "\u{600}\\\""), ("\\\u{301}", "\\\\\u{301}"),
        ("a\r\nb", "a\\nb"), ("a\rb", "a\\nb"), ("a\u{2028}b\u{85}c", "a\\nb\\nc"), ("\u{1B}[0m\u{9B}", "[0m"),
    ])
    func prometheusLabelValuesEscapeByScalar(input: String, expected: String) {
        #expect(Array(PrometheusEscaping.labelValue(input).unicodeScalars) == Array(expected.unicodeScalars))
    }

    /// `short_text` names the worst window, whose name may be an API key: one line, no controls.
    @Test func shortTextIsOneLineWithoutControls() {
        let cache = GoldenCase.cache(windows: [("odd\u{1B}]0;x\u{07}\r\nkey\u{202E}", 90, 60)])
        let frame = RenderedFrame(spans: [], view: UsageView(cache: cache, now: GoldenCase.now, config: Config()))
        #expect(Array(frame.shortText.unicodeScalars) == Array("odd]0;x key 10%".unicodeScalars))
    }

    @Test func safeTextDropsControlsAndBidiAndNormalisesLineBreaks() {
        #expect(SafeText.clean("a\u{1B}b\u{07}c\u{7F}d\ne\tf", lines: .keep) == "abcd\ne\tf")
        #expect(SafeText.clean("a\nb", lines: .join) == "a b")
        #expect(SafeText.clean("a\r\nb", lines: .join) == "a b", "CRLF is one break")
        #expect(SafeText.clean("a\r\nb\rc\u{85}d\u{2028}e\u{2029}f", lines: .keep) == "a\nb\nc\nd\ne\nf")
        #expect(SafeText.clean("\r\n\n", lines: .keep) == "\n\n")
        #expect(SafeText.clean("x\u{9B}31m\u{9D}0;t\u{9C}y\u{00}", lines: .keep) == "x31m0;ty", "C1 and NUL")
        #expect(SafeText.clean("\u{202E}evil\u{202C}\u{2066}a\u{2069}\u{200F}\u{061C}", lines: .keep) == "evila")
        // Marks and joiners are text, not controls: they stay.
        #expect(SafeText.clean("e\u{301}\u{200D}\u{FE0F}\u{600}", lines: .keep) == "e\u{301}\u{200D}\u{FE0F}\u{600}")
        #expect(SafeText.firstLine("one\u{301}\r\ntwo") == "one\u{301}")
        #expect(SafeText.firstLine("a\u{1B}[31mb\u{2028}c") == "a[31mb")
        // Text whose bytes share a lead byte with a control (· is C2 B7, — is E2 80 94) stays.
        #expect(SafeText.clean("5h · 63%\t— ↻ ؀", lines: .keep) == "5h · 63%\t— ↻ ؀")
        // One line is measured in columns: a tab, whose width is the terminal's guess, is a space.
        #expect(SafeText.clean("5h · 63%\t— ↻ ؀", lines: .join) == "5h · 63% — ↻ ؀")
    }

    @Test func sgrParameters() {
        let e = "\u{1B}["
        #expect(SGR.color(.named(.red), background: false) == "31")
        #expect(SGR.color(.named(.white), background: false) == "37")
        #expect(SGR.color(.named(.brightBlack), background: false) == "90")
        #expect(SGR.color(.named(.brightWhite), background: true) == "107")
        #expect(SGR.color(.named(.black), background: true) == "40")
        #expect(SGR.color(.palette(208), background: false) == "38;5;208")
        #expect(SGR.color(.palette(236), background: true) == "48;5;236")
        #expect(SGR.color(.rgb(1, 2, 3), background: false) == "38;2;1;2;3")
        #expect(SGR.color(.rgb(1, 2, 3), background: true) == "48;2;1;2;3")
        let all = Style(foreground: .named(.green), background: .named(.blue), bold: true, italic: true, underline: true)
        #expect(SGR.parameters(all) == ["1", "3", "4", "32", "44"])
        #expect(SGR.encode([StyledRun("a", style: .plain), StyledRun("b", style: Style(bold: true))])
                == "a" + e + "1mb" + e + "0m")
        #expect(SGR.encode([StyledRun("x", style: .plain)]) == "x", "no reset after plain text")
    }

    /// Semantic styles go through the palette (and `[colors]`) before any encoder sees them;
    /// neighbours that end up with the same style are one run.
    @Test func runsResolveThroughThePaletteAndMerge() {
        var config = Config()
        config.colors = ["ok": "#112233"]
        let frame = RenderedFrame(
            spans: [Span("a", style: Style(semantic: .ok)), Span("b", style: Style(foreground: .rgb(0x11, 0x22, 0x33))),
                    Span(""), Span("c"), Span("d")],
            view: UsageView(cache: nil, now: GoldenCase.now, config: config), palette: Palette(config: config))
        #expect(frame.runs(frame.spans) == [
            StyledRun("ab", style: Style(foreground: .rgb(0x11, 0x22, 0x33))),
            StyledRun("cd", style: .plain),
        ])
    }

    @Test func tmuxColoursByKind() {
        let runs = [StyledRun("#", style: Style(foreground: .named(.brightRed), background: .palette(17), italic: true))]
        #expect(TmuxAdapter.encode(runs) == "#[fg=brightred,bg=colour17,italics]###[default]")
    }

    @Test func zshLeavesNoRawEscapes() {
        for golden in GoldenCase.allCases {
            let out = ZshAdapter().render(golden.frame).text
            #expect(!out.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(golden)")
        }
    }

    @Test func waybarClassAndPercentage() throws {
        func object(_ g: GoldenCase) throws -> [String: Any] {
            try JSONChecks.object(WaybarAdapter().render(g.frame).text)
        }
        #expect(try object(.freshOK)["class"] as? String == "ok")
        #expect(try object(.stale)["class"] as? [String] == ["warn", "stale"])
        #expect(try object(.offline)["class"] as? [String] == ["ok", "offline"])
        #expect(try object(.signedOut)["class"] as? [String] == ["ok", "signed_out"])
        #expect(try object(.critical)["percentage"] as? Int == 95)
        #expect(try object(.signedOut)["percentage"] == nil)
        #expect(try object(.offline)["alt"] as? String == "offline")
    }

    /// A bare `&` would make Pango reject the whole text and waybar show nothing.
    @Test func waybarEscapesAnAmpersandInData() throws {
        let frame = RenderedFrame(spans: [Span("R&D 5h 63%")], view: GoldenCase.freshOK.frame.view)
        let text = try JSONChecks.object(WaybarAdapter().render(frame).text)["text"] as? String
        #expect(text == "R&amp;D 5h 63%")
        try JSONChecks.expectValidPango(text ?? "")
    }

    @Test func i3barUsesPlainTextWhenTheBlockColourSuffices() throws {
        let green = GoldenCase.freshOK.frame
        let block = try JSONChecks.array(I3barAdapter().render(green).text)[0]
        #expect(block["markup"] == nil)
        #expect(block["full_text"] as? String == "5h 63% · 7d 80%")
        let mixed = try JSONChecks.array(I3barAdapter().render(GoldenCase.critical.frame).text)[0]
        #expect(mixed["markup"] as? String == "pango")
        #expect(mixed["urgent"] as? Bool == true)
    }

    @Test func prometheusEscapesWindowLabels() {
        let cache = GoldenCase.cache(windows: [("we\"ird\\key", 10, 60)])
        let frame = RenderedFrame(spans: [], view: UsageView(cache: cache, now: GoldenCase.now, config: Config()))
        let text = PrometheusAdapter().render(frame).text
        #expect(text.contains(#"elbowroom_window_used_percent{window="we\"ird\\key"} 10"#))
        #expect(text.hasSuffix("\n"))
        // Each family's HELP and TYPE appear once.
        let types = text.split(separator: "\n").filter { $0.hasPrefix("# TYPE") }
        #expect(Set(types).count == types.count)
    }
}
