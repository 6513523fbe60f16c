import Testing

/// Every input that ever crashed, hung or broke a check, found by hand or by `scripts/fuzz`,
/// replayed through the same checks. Add each new crasher here (as a Swift literal) with a line
/// saying what it did.
@Suite struct RegressionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var target: FuzzTarget
        var input: [UInt8]
        var what: String
        var testDescription: String { "\(target.rawValue): \(what)" }

        init(_ target: FuzzTarget, _ text: String, _ what: String) {
            self.target = target
            input = Array(text.utf8)
            self.what = what
        }

        init(_ target: FuzzTarget, bytes: [UInt8], _ what: String) {
            self.target = target
            input = bytes
            self.what = what
        }
    }

    static let cases: [Case] = [
        // The reliability issue's class B.
        Case(.template, "{\u{00A0}5h.left}", "a non-breaking space inside {…} made the lexer loop forever"),
        Case(.template, "{5h.left\u{2003}|pad(3)}", "an em space before '|' did the same"),
        Case(.template, String(repeating: "(", count: 50_000), "thousands of '(' overflowed the parser's stack"),
        Case(.template, String(repeating: "[", count: 50_000) + "x", "thousands of '[' did the same"),
        Case(.template, String(repeating: "[(", count: 20) + "{5h.left}" + String(repeating: ")](bold)", count: 20),
             "mixed nesting past the limit"),
        Case(.template, "{5h.used|bar(1000000)}", "bar(1000000) allocated a million cells per render"),
        Case(.template, "{age|pad(1e9)}", "pad(1e9) would allocate a gigabyte"),
        Case(.template, String(repeating: "{5h.left}", count: 120_000), "a 1 MB template was parsed in full"),
        Case(.template, "{" + String(repeating: "Q", count: 60_000) + ".left}", "did-you-mean on a huge name took a second"),
        Case(.template, "{5h.left|bar(8, \"e" + String(repeating: "\u{0301}", count: 3000) + "\")}",
             "a fill character of thousands of combining marks, repeated per cell"),
        Case(.config, "max_age = 1\r\n" + String(repeating: "# x\r\n", count: 70_000), "a config of 350 KB"),
        Case(.config, bytes: [0x5b, 0x74, 0x65, 0x6d, 0x70, 0x6c, 0x61, 0x74, 0x65, 0x73, 0x5d, 0x0a, 0x61, 0x20, 0x3d, 0x20, 0x22, 0x71, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0x31, 0x65, 0x31, 0x39, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0x8d, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0x8b, 0xcd, 0xcd, 0xcd, 0xcd, 0x31, 0x65, 0x31, 0x39, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0x5c, 0x22, 0x72, 0x65, 0x66, 0x72, 0x65, 0x73, 0x41, 0x68, 0xca, 0x81, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0x8b, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0x31, 0x65, 0x31, 0x39, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0xcd, 0x5c, 0x22, 0x72, 0x65, 0x66, 0x72, 0x60, 0x73, 0x41, 0x68, 0xca, 0x81, 0xa3, 0x8a, 0xcf, 0xcf, 0x1a, 0xcf, 0x22, 0x3f, 0x0a, 0x62, 0x20, 0x3d, 0x20, 0x27, 0x43, 0x3a, 0x5c, 0x72, 0x61, 0x77, 0x27, 0x0a],
             "combining marks (U+034B, U+034D) before an error: its column, in scalars, passed the line's length in Characters"),
        Case(.config, "[templates]\ndefault = \"" + String(repeating: "(", count: 10_000) + "\"",
             "a config template nested thousands deep"),
        Case(.usage, "{\"five_hour\":{\"utilization\":50,\"resets_at\":\"2026-02-30T00:00:00Z\"}}",
             "an impossible date was accepted (rolled over to 2 March)"),
        Case(.usage, "{\"five_hour\":{\"utilization\":50,\"resets_at\":\"2026-11-22T14:03:07+99:99\"}}",
             "an offset of +99:99 was accepted"),
        Case(.usage, String(repeating: "[", count: 100_000), "JSON nested a hundred thousand deep"),
        Case(.statusline, String(repeating: "{\"rate_limits\":", count: 20_000), "status-line JSON nested deep"),
        Case(.click, String(repeating: "[", count: 100_000) + "{\"button\":1}", "a click line of brackets"),
    ]

    @Test(arguments: cases)
    func replays(_ c: Case) {
        let start = ContinuousClock.now
        #expect(c.target.check(c.input) == nil)
        #expect(ContinuousClock.now - start < .seconds(1))
    }
}
