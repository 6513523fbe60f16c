#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import ElbowroomCore
@testable import ElbowroomTemplate

/// `QuickParser` (what a render with a user's template runs) makes the very template the full
/// lexer and parser make, or declines and leaves it to them: for every shipped template, the
/// documented examples, odd Unicode next to the grammar's characters, and thousands of
/// generated and mutated sources.
@Suite struct QuickParserTests {
    /// The quick parse of `source`, or `nil` when it declines.
    static func quick(_ source: String) -> Template? { QuickParser.parse(source, name: "t") }

    /// Whether the two parses agree: a declined source is always fine (the full parser decides);
    /// an accepted one must be a source the full parser accepts, with the same tree, window keys,
    /// accounts and per-window groups.
    static func agree(_ source: String) -> String? {
        guard let quick = quick(source) else { return nil }
        let full: Template
        do {
            full = try Template.parseFully(source, name: "t")
        } catch {
            return "quick parser accepted what the full parser refuses (\(error.message)): \(source.debugDescription)"
        }
        if quick.program != full.program { return "trees differ: \(source.debugDescription)" }
        if quick.namedKeys != full.namedKeys { return "window keys differ \(quick.namedKeys) \(full.namedKeys): \(source.debugDescription)" }
        if quick.namesAccounts != full.namesAccounts { return "accounts differ: \(source.debugDescription)" }
        if quick.source != full.source || quick.name != full.name { return "source or name differ" }
        return nil
    }

    /// The templates people write are taken, not declined: every shipped one, and the examples
    /// of the documentation's grammar.
    static let everyday: [String] = TemplateLibrary.shipped.map(\.source) + [
        "{5h.left}%", "[{5h.left}%](level) {5h.used|bar(8, \"░\")}", "( {stale}stale {age})",
        "{5h.resets_at|time(\"%a %H:%M\")} {7d.resets_in|duration(long)}",
        "{opus.level|icon(●, ◐, ○)} {extra.used|fixed(0)}/{extra.limit}",
        "{worst.name|upper|pad(-6)} {claude.model|default(\"-\")}", "\\{ \\} \\[ \\] \\( \\) \\\\ \\n x\\\ny",
        "( {each:label} {each:5h.left}%)", "{work:5h.left} {home:status}", "[{5h.left}](bold Red)",
        "[x](#ff8800 bg:blue)", "[x](208 underline)", "{ 5h.left | pad( 4 ) }", "line\\\r\nnext", "é ↻ · 👩‍👩‍👧",
        "({other.label} {other.left}%{other.alert})", "{5h.spark|spark(12)} {7d.rate|fixed(1)}%/h",
        "{spend.used} of {spend.limit} {extra.enabled|not}", "{seven_day_opus.left} {seven_day_oauth_apps.used}",
        "{claude.context_percent}% {claude.cost|fixed(2)}", "[(x)](dim)", "((((a))))", "",
    ]

    @Test func theTemplatesPeopleWriteAreTakenAndEqualTheFullParse() throws {
        for source in Self.everyday {
            #expect(Self.quick(source) != nil, "declined: \(source.debugDescription)")
            #expect(Self.agree(source) == nil, "\(Self.agree(source) ?? "")")
        }
        for file in try CompiledTemplateTests.templateFiles() {
            #expect(Self.quick(file.source) != nil && Self.agree(file.source) == nil, "\(file.name)")
        }
    }

    /// What it does not know by heart, and every error, goes to the full parser: the same error
    /// text through `Template.parse` as before.
    @Test func errorsAndRareNamesAreLeftToTheFullParser() {
        let declined = [
            "{5h.lft}", "{", "}", "[x]", "[x](nope)", "(x", "x)", "{5h.left|pad(200)}", "{5h.left|bar(0)}",
            "{seven_day_fable.left}", "{5h\u{00A0}.left}", "{5h.left\u{00A0}}", "]\u{0301}", "{5h.left}\u{0301}",
            "\u{0600}{5h.left}", "\\\u{0301}", "\\é", "\\n\u{1F3FB}", "\\{\u{0301}", "x\\\u{0301}", "\\\u{2028}x", "{5h.left|default(\"a\u{2028}b\")}",
            "{5h.left|time(\"%H\")}", "{age|icon(a, b)}", "{level|icon(a, b)}", "{5h.left|bar(3, ab)}",
            "{x:y:5h.left}", "{:5h.left}", "{w@rk:5h.left}", String(repeating: "(", count: 33) + String(repeating: ")", count: 33),
            "{" + String(repeating: "a", count: 129) + "}", "[x](\tbold)", "[x](é)", "[x](   )", "[x]()",
        ]
        for source in declined {
            #expect(Self.quick(source) == nil, "taken: \(source.debugDescription)")
        }
        // The errors are the full parser's, position and did-you-mean included.
        #expect(throws: TemplateError.self) { try Template.parse("{5h.lft}") }
        do {
            _ = try Template.parse("ok {5h.lft}")
        } catch {
            #expect(error.description == "template:1:5: error: unknown variable '5h.lft'\nok {5h.lft}\n    ^~~~~~\ndid you mean '5h.left'?")
        }
        // Declined but valid: the full parser's template.
        #expect((try? Template.parse("{seven_day_fable.left}"))?.namedKeys == ["seven_day_fable"])
    }

    /// The switches stand for `init(rawValue:)`, for every case and for names that are not one.
    @Test func theNameSwitchesEqualTheRawValues() {
        let others = ["", "lft", "Left", "left ", "resets", "context_", "limit_is_your"]
        typealias Word = QuickParser.Word
        for f in Variable.WindowField.allCases { #expect(Word.with(f.rawValue, QuickParser.windowField) == f) }
        for f in Variable.TopField.allCases { #expect(Word.with(f.rawValue, QuickParser.topField) == f) }
        for f in Variable.SpendField.allCases { #expect(Word.with(f.rawValue, QuickParser.spendField) == f) }
        for f in Variable.ExtraField.allCases { #expect(Word.with(f.rawValue, QuickParser.extraField) == f) }
        for f in Variable.ClaudeField.allCases { #expect(Word.with(f.rawValue, QuickParser.claudeField) == f) }
        for name in others {
            #expect(Word.with(name, QuickParser.windowField) == Variable.WindowField(rawValue: name))
            #expect(Word.with(name, QuickParser.topField) == Variable.TopField(rawValue: name))
            #expect(Word.with(name, QuickParser.spendField) == Variable.SpendField(rawValue: name))
            #expect(Word.with(name, QuickParser.extraField) == Variable.ExtraField(rawValue: name))
            #expect(Word.with(name, QuickParser.claudeField) == Variable.ClaudeField(rawValue: name))
        }
    }

    /// Every filter, on every type, with every kind of argument list: the quick binding is
    /// `Filter.bind`'s, or declined where `Filter.bind` refuses.
    @Test func filterBindingEqualsFilterBind() {
        let types: [ValueType] = [.percent, .duration, .date, .level, .text, .money, .flag, .spark]
        let argumentLists: [[String]] = [
            [], ["1"], ["0"], ["6"], ["7"], ["-100"], ["101"], ["+5"], ["-0"], ["x"], ["short"], ["long"], ["1", "░"],
            ["1", "ab"], ["10", " "], ["a", "b", "c"], ["a", "b"], Array(repeating: "i", count: 100),
            Array(repeating: "i", count: 101), ["%H:%M"], ["e\u{0301}"], ["1", "e\u{0301}"],
        ]
        let reporter = ErrorReporter(name: "t", source: "")
        let range = SourceRange(offset: 0, line: 1, column: 1, length: 1)
        var taken = 0
        for name in Filter.names + ["nope", "Round"] {
            for type in types {
                for arguments in argumentLists {
                    let reference = try? Filter.bind(
                        name: name, nameRange: range, arguments: arguments.map { Filter.Argument(text: $0, range: range) },
                        argumentsRange: range, input: type, subject: "s", reporter: reporter)
                    let quick = QuickParser.Word.with(name) { try? QuickParser.bind($0, arguments: arguments, input: type) }
                    #expect(quick?.0 == reference?.0 && quick?.1 == reference?.1, "\(name) \(type) \(arguments)")
                    if quick != nil { taken += 1 }
                }
            }
        }
        #expect(taken > 100)
    }

    /// Thousands of generated templates: grammar pieces, odd characters and mutations of the
    /// everyday ones. What the quick parser takes equals the full parse; most are taken.
    @Test func generatedTemplatesAgree() {
        var rng = Generator(seed: 0x51_c4_36)
        var taken = 0, valid = 0
        for _ in 0..<20_000 {
            let source = Self.generate(&rng)
            if Self.quick(source) != nil { taken += 1 }
            if (try? Template.parseFully(source, name: "t")) != nil { valid += 1 }
            if let problem = Self.agree(source) {
                Issue.record("\(problem)")
                return
            }
        }
        // Most generated sources are errors; of the valid ones, those the quick parser leaves
        // to the full one are the odd ones (a mark next to a bracket, a space other than ASCII).
        print("QuickParserTests: \(valid) of 20000 generated templates valid, \(taken) taken by the quick parser")
        #expect(taken * 10 > 20_000 && taken * 10 > valid * 8, "\(taken) taken of \(valid) valid")
    }

    static let pieces: [String] = [
        "{", "}", "[", "]", "(", ")", "|", ",", "\"", "\\", "\\{", "\\n", "\\\n", "\\\r\n", "](", "](level)", "](bold red)",
        "](bg:#ff0000 fg:12)", "](lvel)", "](dim)", "](warn bold)", "{5h.left}", "{7d.used|bar(10)}", "{age}", "{stale}",
        "{status|upper}", "{worst.resets_in|duration(short)}", "{extra.percent|fixed(2)}", "{claude.context}",
        "{5h.resets_at|time(\"%c\")}", "{each.label}", "{each:label}", "{work:7d.left}", "{other.left}",
        "5h", "7d", "opus", "each", "work:", ".left", ".pace", ".eta", ".label", "seven_day_x", "|round", "|pad(", "|bar(",
        "|icon(a,b,c)", "|default(\"-\")", "|exists", "|not", "|lower", "100", "-100", "101", "1e9", "-0", "+5", " ", "  ",
        "\u{00A0}", "\u{2003}", "\u{3000}", "\r\n", "\n", "\r", "\t", "\u{0B}", "\u{2028}", "\u{85}", "\u{0301}", "\u{200D}",
        "\u{0600}", "\u{0903}", "\u{1F3FB}", "👩‍👩‍👧", "\u{202E}", "\u{0}", "é", "e\u{0301}", "·", "↻", "░", "%", "#",
        "\"a\\\"b\"", "\"x\\\\\"", "\u{1B}[31m", ":", ".", "x",
    ]

    static func generate(_ rng: inout Generator) -> String {
        switch rng.below(10) {
        case 0..<6:
            // An everyday template with pieces inserted, deleted or replaced (on scalars, so
            // marks land next to anything).
            var scalars = Array(everyday[rng.below(everyday.count)].unicodeScalars)
            for _ in 0..<(1 + rng.below(4)) {
                let at = rng.below(scalars.count + 1)
                switch rng.below(3) {
                case 0: scalars.insert(contentsOf: pieces[rng.below(pieces.count)].unicodeScalars, at: at)
                case 1: if at < scalars.count { scalars.remove(at: at) }
                default:
                    if at < scalars.count { scalars.replaceSubrange(at...at, with: pieces[rng.below(pieces.count)].unicodeScalars) }
                }
            }
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars)
            return String(view)
        default:
            return (0..<(1 + rng.below(16))).map { _ in pieces[rng.below(pieces.count)] }.joined()
        }
    }

    struct Generator {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
    }
}
