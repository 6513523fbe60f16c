import Testing
import ElbowroomCore
@testable import ElbowroomTemplate

struct RendererTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var template: String
        var fixture: Fixture = .fresh
        var expected: String
        var testDescription: String { "\(template) on \(fixture) → \(expected)" }
    }

    static let cases: [Case] = [
        // Default formatting per type.
        Case(template: "{5h.left}%", expected: "37%"),
        Case(template: "{5h.used}% used", expected: "63% used"),
        Case(template: "{5h.resets_in}", expected: "2h13m"),
        Case(template: "{7d.resets_in}", expected: "3d4h"),
        Case(template: "{age}", expected: "42s"),
        Case(template: "{5h.resets_at}", expected: "18:19"),
        Case(template: "{7d.resets_at}", expected: "Wed 20:06"),
        Case(template: "{5h.pace}", expected: "114"),
        Case(template: "{5h.eta}", expected: "1h36m"),
        Case(template: "{opus.eta}", expected: "7h59m"),
        Case(template: #"\[{7d.eta}\]"#, expected: "[]"),
        Case(template: "{5h.level} {opus.level} {level}", expected: "ok critical critical"),
        Case(template: "{5h.label}/{7d.label}/{opus.label}/{5h.name}", expected: "Session/Weekly/Opus/5h"),
        Case(template: "{worst.name} {worst.left}%", expected: "opus 8%"),
        Case(template: "{five_hour.left}", expected: "37"),
        Case(template: "{status} {plan}", expected: "ok max"),
        Case(template: "{extra.used}/{extra.limit} \\({extra.percent|fixed(1)}%\\) left {extra.left}", expected: "$12.34/$50.00 (24.7%) left $37.66"),
        Case(template: "({extra.enabled}on)", expected: "on"),
        // Filters.
        Case(template: "{5h.used|fixed(1)}", expected: "63.0"),
        Case(template: "{extra.left|fixed(0)}", expected: "$38"),
        Case(template: "{5h.pace|round}", expected: "114"),
        Case(template: "{5h.left|pad(4)}|", expected: "  37|"),
        Case(template: "{5h.label|pad(-8)}|", expected: "Session |"),
        Case(template: "{5h.used|bar(8)}|", expected: "█████   |"),
        Case(template: "{7d.used|bar(4, \"░\")}", expected: "█▋░░"),
        Case(template: "{opus.used|bar(1)}", expected: "▉"),
        Case(template: "{5h.left|icon(○,◔,◑,◕,●)}", expected: "◔"),
        Case(template: "{opus.level|icon(🟢,🟡,🔴)}", expected: "🔴"),
        Case(template: "{7d.resets_at|time(\"%Y-%m-%d %H:%M\")}", expected: "2025-06-18 20:06"),
        Case(template: "{5h.resets_in|duration(long)}", expected: "2 hours 13 minutes"),
        Case(template: "{5h.resets_in|duration(short)}", expected: "2h13m"),
        Case(template: "{5h.label|upper} {status|upper|lower}", expected: "SESSION ok"),
        Case(template: "{error|default(\"none\")}", expected: "none"),
        Case(template: "{7d.eta|default(\"—\")|pad(3)}", expected: "  —"),
        Case(template: "({5h.left|exists}yes)({5h.left|not}no)", expected: "yes"),
        // Conditional groups.
        Case(template: "({stale}stale)", expected: ""),
        Case(template: "({stale|not}fresh)", expected: "fresh"),
        Case(template: "({7d.eta}out in {7d.eta})x", expected: "x"),
        Case(template: "({seven_day_cowork.left}%)x", expected: "x"),
        Case(template: "(a ({stale}b) c {5h.left})", expected: "a  c 37"),
        Case(template: "({claude.model})none", expected: "none"),
        // A group stops at its first missing value; only the group goes, never what follows it.
        Case(template: "({7d.eta} {5h.left} ({5h.left}))|{5h.left}", expected: "|37"),
        Case(template: "([{7d.eta}](level) {5h.left})[{5h.left}](level)", expected: "37"),
        Case(template: "{7d.eta|default(-)} {5h.left}", expected: "- 37"),
        Case(template: "({seven_day_cowork.left}{each.name})({5h.left}{7d.left} {each.name})", expected: "3759 sonnet3759 opus"),
        Case(template: "{5h.left}{claude.model}.", expected: "37."),
        // A group is rendered in place and taken back: text it merged into the span before it
        // (short, or long enough to have outgrown a small string) is cut off again.
        Case(template: "before( merged into what came before {5h.left}% then {7d.eta})after", expected: "beforeafter"),
        Case(template: "a long line of text well past fifteen bytes( and {7d.eta}) ends", expected: "a long line of text well past fifteen bytes ends"),
        // Escapes.
        Case(template: #"a\{b\}\[c\]\(d\)\\e"#, expected: #"a{b}[c](d)\e"#),
        Case(template: #"x\ny"#, expected: "x\ny"),
        Case(template: "a\\\nb", expected: "ab"),
        Case(template: "a|b, \"c\"", expected: "a|b, \"c\""),
        // Other readings.
        Case(template: "{status}({stale} stale {age})", fixture: .stale, expected: "stale stale 20m"),
        Case(template: "{status}|{error}|({offline}off)({stale}stale)", fixture: .offline, expected: "offline|network unreachable|off"),
        Case(template: "{5h.used}%({5h.resets_in})({5h.pace}) {5h.level}", fixture: .resetWindow, expected: "0% ok"),
        Case(template: #"({5h.left})\[{7d.left}\]"#, fixture: .missingWindows, expected: "[59]"),
        Case(template: "({5h.left}){opus.left} {worst.name}", fixture: .limitsOnly, expected: "70 opus"),
        Case(template: "{status}: {error}({5h.left})", fixture: .signedOut, expected: "signed_out: sign in to Claude Code"),
        Case(template: "{status}: {error} {5h.left}", fixture: .expiredWithData, expected: "expired: open Claude Code to refresh 37"),
        Case(template: "{status}({age})({error}){level}", fixture: .loading, expected: "loadingok"),
    ]

    @Test(arguments: cases)
    func rendersText(_ c: Case) throws {
        let template = try Template.parse(c.template)
        #expect(template.text(c.fixture) == c.expected)
    }

    @Test func statusLineVariables() throws {
        let template = try Template.parse("{claude.model} · ctx {claude.context}% · {claude.cost}")
        let input = StatusLineInput(modelName: "Opus 4", costUSD: 0.42, contextUsedPercent: 23.4)
        #expect(template.text(.fresh, statusLine: input) == "Opus 4 · ctx 23% · $0.42")
    }

    /// 1e308 dollars is a finite number, and `$inf` in cents; a context "used" far past 100 %
    /// is no percentage either: both are bounded where Claude Code's input is read.
    @Test(arguments: ["1e308", "-1e308", "\"1.7e308\"", "5e300"])
    func claudeCostAndContextAreBounded(_ number: String) throws {
        let json = #"{"cost":{"total_cost_usd":\#(number)},"context_window":{"used_percentage":\#(number)}}"#
        let input = try #require(StatusLineInput.decode(Data(json.utf8), observedAt: Date(timeIntervalSince1970: 0)))
        let text = try Template.parse("{claude.cost}|{claude.context}").text(.fresh, statusLine: input)
        #expect(!text.contains("inf") && !text.contains("nan"), "\(text)")
        #expect(text.hasSuffix(number.hasPrefix("-") ? "|0" : "|100"), "\(text)")
        #expect(text.utf8.count < 60, "\(text)")
    }

    struct StyleCase: CustomTestStringConvertible, Sendable {
        var template: String
        var expected: [Span]
        var testDescription: String { template }
    }

    static let warn = Style(semantic: .warn)
    static let styleCases: [StyleCase] = [
        StyleCase(template: "[{5h.left}%](level)", expected: [Span("37%", style: Style(semantic: .ok))]),
        StyleCase(template: "[{opus.left}%](level)", expected: [Span("8%", style: Style(semantic: .critical))]),
        StyleCase(template: "[{5h.left} {opus.left}](level)", expected: [Span("37 8", style: Style(semantic: .critical))]),
        // No window inside: the overall level.
        StyleCase(template: "[{status}](level)", expected: [Span("ok", style: Style(semantic: .critical))]),
        StyleCase(template: "[{5h.left}](level bold)", expected: [Span("37", style: Style(semantic: .ok, bold: true))]),
        StyleCase(template: "a[b[c](bold)d](warn)", expected: [
            Span("a"), Span("b", style: warn), Span("c", style: Style(semantic: .warn, bold: true)), Span("d", style: warn),
        ]),
        StyleCase(template: "[x[y](red)](warn underline)", expected: [
            Span("x", style: Style(semantic: .warn, underline: true)),
            Span("y", style: Style(foreground: .named(.red), underline: true)),
        ]),
        StyleCase(template: "[a](#ff8800 bg:blue)", expected: [
            Span("a", style: Style(foreground: .rgb(255, 136, 0), background: .named(.blue))),
        ]),
        // Adjacent text in one style merges; empty results leave no spans.
        StyleCase(template: "[a](ok)[b](ok)({stale}[c](dim))", expected: [Span("ab", style: Style(semantic: .ok))]),
        // A group taken back leaves the span before it as it was, and what follows merges on.
        StyleCase(template: "[a](ok)([b](ok) {7d.eta})[c](ok)", expected: [Span("ac", style: Style(semantic: .ok))]),
    ]

    @Test(arguments: styleCases)
    func rendersStyles(_ c: StyleCase) throws {
        let spans = try Template.parse(c.template).render(Fixture.fresh.view, localTime: Fixture.localTime)
        #expect(spans == c.expected)
    }
}

struct FormattingTests {
    @Test(arguments: [
        (0.0, "0s", "0 seconds"), (45, "45s", "45 seconds"), (60, "1m", "1 minute"), (61, "1m", "1 minute"),
        (3600, "1h", "1 hour"), (7980, "2h13m", "2 hours 13 minutes"), (86400, "1d", "1 day"),
        (273_600, "3d4h", "3 days 4 hours"), (-5, "0s", "0 seconds"),
        (1e300, "11574074074d1h", "11574074074 days 1 hour"), (.infinity, "0s", "0 seconds"), (9.3e18, "11574074074d1h", "11574074074 days 1 hour"),
    ])
    func durations(seconds: Double, short: String, long: String) {
        #expect(DurationText.short(seconds) == short)
        #expect(DurationText.long(seconds) == long)
    }

    @Test(arguments: [
        (36.6, 0, "37"), (36.6, 1, "36.6"), (0.05, 1, "0.1"), (-0.4, 0, "0"), (-2.5, 0, "-3"), (100, 2, "100.00"), (7.005, 2, "7.01"),
    ])
    func fixedNumbers(value: Double, decimals: Int, expected: String) {
        #expect(NumberText.fixed(value, decimals: decimals) == expected)
    }

    /// `NumberText.fixed` writes its digits into a buffer: the same text as the joined strings it
    /// replaced (kept here as the reference), for values across the range it handles, every
    /// number of decimals a filter allows, both signs and both rounding rules.
    @Test func fixedNumbersEqualTheirReference() {
        func reference(_ value: Double, _ decimals: Int, _ rule: FloatingPointRoundingRule) -> String {
            guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
            var scale = 1.0
            for _ in 0..<decimals { scale *= 10 }
            let scaled = (abs(value) * scale).rounded(rule)
            guard scaled < 9e15 else { return String(value) }
            let whole = Int64(scaled)
            let factor = Int64(scale)
            var text = String(whole / factor)
            if decimals > 0 {
                let fraction = String(whole % factor)
                text += "." + String(repeating: "0", count: decimals - fraction.count) + fraction
            }
            return (value < 0 && scaled != 0 ? "-" : "") + text
        }
        var values: [Double] = [0, -0.0, 0.004, 0.005, 0.05, 0.5, 0.95, 1, 9.99, 10, 99.5, 100, 123456.789, 8.9e14, 9e15, 1e300, .nan, .infinity]
        var state: UInt64 = 0x5EED
        for _ in 0..<2000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            values.append(Double(state >> 11) / Double(1 << 53) * pow(10, Double(state % 9)) - 1)
        }
        for value in values + values.map({ -$0 }) {
            for decimals in 0...6 {
                for rule in [FloatingPointRoundingRule.toNearestOrAwayFromZero, .down] {
                    let got = NumberText.fixed(value, decimals: decimals, rule: rule)
                    guard got == reference(value, decimals, rule) else {
                        Issue.record("\(value) with \(decimals): \(got) != \(reference(value, decimals, rule))")
                        return
                    }
                }
            }
        }
    }

    @Test(arguments: [
        (0.0, 4, "    "), (100, 4, "████"), (50, 4, "██  "), (12.5, 1, "▏"), (3, 8, "▎       "), (1, 8, "▏       "), (150, 2, "██"),
    ])
    func bars(percent: Double, width: Int, expected: String) {
        let bar = Filter.bar(percent, width: width, fill: " ")
        #expect(bar == expected)
        #expect(bar.count == width)
    }

    @Test func money() {
        #expect(NumberText.money(minor: 1234, currency: "EUR", decimals: 2) == "€12.34")
        #expect(NumberText.money(minor: 1234, currency: "chf", decimals: 2) == "12.34 CHF")
    }

    @Test func localTimeUsesTheOffset() {
        #expect(LocalTime.fixed(offsetSeconds: 0).format(Fixture.now, "%a %H:%M:%S") == "Sun 15:06:40")
        #expect(LocalTime.fixed(offsetSeconds: -5 * 3600).format(Fixture.now, "%H:%M") == "10:06")
    }

    /// The separator a missing part leaves at a line's start or end goes, compared as bytes
    /// but only as whole `Character`s, as `String.hasPrefix`/`hasSuffix` see them: a combining
    /// mark after it, or a prepended mark before it, joins its space to another character.
    @Test(arguments: [
        (" · 5h 37%", "5h 37%"), ("5h 37% · ", "5h 37%"), (" · ", ""), (" · x · ", "x"),
        (" · \u{301}x", " · \u{301}x"), ("x\u{600} · ", "x\u{600} · "), (" · é", "é"), ("é · ", "é"),
        (" ·x", " ·x"), ("·", "·"), ("", ""),
    ])
    func separatorsTrimmedAsCharacters(text: String, expected: String) {
        var spans = text.isEmpty ? [] : [Span(text)]
        Renderer.trimSeparators(&spans)
        #expect(spans.map(\.text).joined() == expected)
        #expect(Renderer.startsWithSeparator(text) == text.hasPrefix(Renderer.separator.description))
        #expect(Renderer.endsWithSeparator(text) == text.hasSuffix(Renderer.separator.description))
    }
}
