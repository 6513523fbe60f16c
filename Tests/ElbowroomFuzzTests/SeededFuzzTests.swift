import Foundation
import Testing
import ElbowroomCore
import ElbowroomTemplate
import ElbowroomTestSupport

/// Deterministic fuzzing inside `swift test`: a few thousand inputs per parser, made by
/// structured mutation of real inputs (template grammar pieces, TOML lines, usage and status-line
/// JSON, i3bar click lines) from a fixed seed, each held to `FuzzChecks` (no crash, output bounded
/// by the input, positioned errors) and to a time limit. `scripts/fuzz` runs the same checks
/// under libFuzzer for millions of inputs.
@Suite struct SeededFuzzTests {
    /// No single input may take more CPU than this (debug build). Measured as this thread's CPU
    /// time, not the wall clock: a runaway input burns CPU, while a loaded machine (other tests,
    /// other builds) only stretches the wall clock.
    static let perInputLimit = 0.5

    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    static func run(_ target: FuzzTarget, count: Int, seed: UInt64,
                    sourceLocation: SourceLocation = #_sourceLocation,
                    make: (inout SplitMix64) -> [UInt8]) {
        var rng = SplitMix64(seed: seed)
        var failures = 0
        for _ in 0..<count {
            let input = make(&rng)
            let start = Self.threadCPUSeconds()
            let problem = target.check(input)
            let elapsed = Self.threadCPUSeconds() - start
            if problem != nil || elapsed > perInputLimit {
                failures += 1
                let shown = String(decoding: input.prefix(300), as: UTF8.self).debugDescription
                Issue.record("\(target.rawValue): \(problem ?? "took \(elapsed) s of CPU") for \(input.count) bytes: \(shown)",
                             sourceLocation: sourceLocation)
                if failures >= 5 { return }  // the first few say enough
            }
        }
    }

    @Test func templates() {
        Self.run(.template, count: 3000, seed: 0x7e3a_11) { Array(Generators.template(&$0).utf8) }
    }

    @Test func configs() {
        Self.run(.config, count: 3000, seed: 0xc0_f16) { Array(Generators.config(&$0).utf8) }
    }

    /// The byte-level TOML parser every render with a config file runs gives the entries and the
    /// errors (line, column in scalars, message) of the scalar-by-scalar parser it replaced, over
    /// generated configs and hand-picked edge cases (multi-byte text before an error, escapes,
    /// "\r\n", a lone "\r", a backslash at the end of a line).
    @Test func tomlParserMatchesItsReference() {
        func outcome(_ parse: () throws(TOMLSubset.ParseError) -> [TOMLSubset.Entry]) -> String {
            do throws(TOMLSubset.ParseError) { return "\(try parse())" } catch { return "error \(error)" }
        }
        var rng = SplitMix64(seed: 0x70_41)
        var inputs = (0..<3000).map { _ in Generators.config(&rng) }
        inputs += ["a = \"é\\q\"", "a = \"é\\é\"", "é = 1", "a = \"\\u00e9\\U0001F600x\"", "a = \"\\uD800\"",
                   "a = \"x\\", "a = 'li\"t' # c", "a = 'unterminated", "[colors.tmux]\nok = \"red\"\r\n",
                   "a = 1\rb", "a = 1_000\u{2003}", "a = 0x10", "a = +3", "a = ٣", "a = \"\"\"x\"\"\"", "  [ colors . x ] # t",
                   "a = \"tab\\tnl\\n\\\"q\\\\\"\u{85}", "a = tru", "a = true\u{A0}", "\u{FEFF}a = 1", "[accounts.é]",
                   // libFuzzer's find: an invalid escape right after multi-byte text, then more.
                   String(decoding: Data(base64Encoded: "W3RlbXBsYXRlc10KYSA9ICJxzc3Nzc3Nzc3Nzc3Nzc3Nzc3NMWUxOc3Nzc3NzY3Nzc3Nzc3Nzc3NzYvNzc3NMWUxOc3Nzc3Nzc3NXCJyZWZyZXNBaMqBzc3Nzc3Nzc2Lzc3Nzc3Nzc0xZTE5zc3Nzc3Nzc1cInJlZnJgc0FoyoGjis/PGs8iPwpiID0gJ0M6XHJhdycK")!, as: UTF8.self),
                   "a = \"é\\ü\"", "a = \"\\é\"", "a = \"x\\\u{1F600}\""]
        for text in inputs {
            #expect(outcome { () throws(TOMLSubset.ParseError) in try TOMLSubset.parse(text) }
                    == outcome { () throws(TOMLSubset.ParseError) in try ReferenceTOMLSubset.parse(text) }, "\(text.debugDescription)")
        }
    }

    @Test func usageBodies() {
        Self.run(.usage, count: 600, seed: 0x05a6e) { Array(Generators.usage(&$0).utf8) }
    }

    @Test func statusLineInputs() {
        Self.run(.statusline, count: 600, seed: 0x57a7_05) { Array(Generators.statusLine(&$0).utf8) }
    }

    @Test func clickLines() {
        Self.run(.click, count: 3000, seed: 0xc1_1c) { Array(Generators.click(&$0).utf8) }
    }

    /// The largest template allowed, made of the placeholders that produce the most text,
    /// parses and renders in well under a second (this is a debug build).
    @Test(arguments: ["{5h.used|bar(100)}", "{age|pad(100)}", "{5h.resets_at|time(\"%c%c%c%c%c%c%c%c%c%c%c%c\")}",
                      "[({5h.left})](level)"])
    func theLargestTemplateRendersQuickly(_ piece: String) throws {
        let source = String(repeating: piece, count: Template.maxSourceBytes / piece.utf8.count)
        let start = ContinuousClock.now
        let template = try Template.parse(source)
        let text = template.render(FuzzChecks.views[0], localTime: FuzzChecks.localTime).plainText
        #expect(ContinuousClock.now - start < .seconds(1))
        #expect(text.utf8.count <= FuzzChecks.outputBound(source.utf8.count))
    }

    /// The generators are deterministic: the same seed gives the same inputs, so a failure here
    /// reproduces on every machine.
    @Test func generatorsAreDeterministic() {
        var a = SplitMix64(seed: 42), b = SplitMix64(seed: 42)
        #expect((0..<50).map { _ in Generators.template(&a) } == (0..<50).map { _ in Generators.template(&b) })
    }
}

/// SplitMix64: tiny, fast and the same everywhere (the standard generator is seeded randomly).
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}

/// Input makers: real inputs cut, spliced and salted with the pieces each grammar is made of.
enum Generators {
    // MARK: Mutation on Unicode scalars (so a mutation can split "\r\n" or a grapheme cluster)

    static func mutate(_ text: String, pieces: [String], rounds: Int, _ rng: inout SplitMix64) -> String {
        var s = Array(text.unicodeScalars)
        for _ in 0..<rounds {
            let i = rng.below(s.count + 1)
            switch rng.below(7) {
            case 0, 1:  // insert a piece
                s.insert(contentsOf: rng.pick(pieces).unicodeScalars, at: i)
            case 2:  // delete a short range
                guard !s.isEmpty, i < s.count else { continue }
                s.removeSubrange(i..<min(s.count, i + 1 + rng.below(8)))
            case 3:  // duplicate a range
                guard !s.isEmpty, i < s.count else { continue }
                let range = i..<min(s.count, i + 1 + rng.below(24))
                s.insert(contentsOf: Array(s[range]), at: rng.below(s.count + 1))
            case 4:  // replace one scalar by a piece
                guard !s.isEmpty, i < s.count else { continue }
                s.replaceSubrange(i...i, with: rng.pick(pieces).unicodeScalars)
            case 5:  // truncate
                s = Array(s.prefix(i))
            default:  // a scalar from anywhere in Unicode
                let value = rng.chance(50) ? UInt32(rng.below(0x80)) : UInt32(rng.below(0x11_0000))
                if let scalar = Unicode.Scalar(value) { s.insert(scalar, at: i) }
            }
        }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: s)
        return String(out)
    }

    // MARK: Templates

    static let templateSeeds: [String] = [
        "{5h.left}%", "[{5h.left}%](level) {5h.used|bar(8, \"░\")}", "( {stale}stale {age})",
        "{5h.resets_at|time(\"%a %H:%M\")} {7d.resets_in|duration(long)}",
        "{opus.level|icon(●, ◐, ○)} {extra.used|fixed(0)}/{extra.limit}",
        "{worst.name|upper|pad(-6)} {claude.model|default(\"-\")}", "\\{ \\} \\[ \\] \\( \\) \\\\ \\n x\\\ny",
    ] + TemplateLibrary.shipped.map(\.source)

    static let templatePieces: [String] = [
        "{", "}", "[", "]", "(", ")", "|", ",", "\"", "\\", "\\{", "\\n", "\\\n", "](", "](level)", "](bold red)",
        "](bg:#ff0000 fg:12)", "](lvel)", "{5h.left}", "{7d.used|bar(10)}", "{age}", "{stale}", "{status|upper}",
        "{worst.resets_in|duration(short)}", "{extra.percent|fixed(2)}", "{claude.context}", "{5h.resets_at|time(\"%c\")}",
        "5h", "7d", "opus", ".left", ".pace", ".eta", ".label", "seven_day_x", "|round", "|pad(", "|bar(", "|icon(a,b,c)",
        "|default(\"-\")", "|exists", "|not", "|lower", "100", "-100", "101", "1e9", "1000000", "-0", "+5",
        "\u{00A0}", "\u{2003}", "\u{3000}", "\r\n", "\n", "\r", "\t", "\u{0B}", "\u{2028}", "\u{85}", "\u{0301}",
        "👩‍👩‍👧", "\u{202E}", "\u{0}", "é", "%", "#", "\u{1B}[31m",
    ]

    static func template(_ rng: inout SplitMix64) -> String {
        switch rng.below(100) {
        case 0..<50:
            return mutate(rng.pick(templateSeeds), pieces: templatePieces, rounds: 1 + rng.below(6), &rng)
        case 50..<75:
            return (0..<(1 + rng.below(24))).map { _ in rng.pick(templatePieces) }.joined()
        case 75..<99:
            // Nesting around and beyond the limit, closed, unclosed or mismatched.
            let depth = rng.pick([1, 8, 31, 32, 33, 40, 200, 3000])
            let open = rng.chance(50) ? "(" : "["
            let close = open == "(" ? ")" : "](warn)"
            let inner = rng.pick(["{5h.left}", "x", "", "{"])
            let closes = rng.pick([depth, depth - 1, 0, depth + 1])
            return String(repeating: open, count: depth) + inner + String(repeating: close, count: max(0, closes))
        default:
            // Long runs of one piece: bounds on length and amplification.
            // Long runs of one piece (rare: they are slow to check in a debug build).
            return String(repeating: rng.pick(templatePieces + ["{5h.used|bar(100)}", "{age|pad(100)}"]),
                          count: rng.pick([20, 50, 200]))
        }
    }

    // MARK: Config (TOML)

    static let configSeed = """
        # elbowroom config
        max_age = 180
        stale_after = 900
        refresh = "auto"
        timeout = 10

        [thresholds]
        warn = 25
        critical = 10

        [templates]
        default = "compact"
        waybar = '[{5h.left}%](level)'
        "tmux" = "minimal"

        [colors]
        ok = "green"
        warn = "bright_yellow bold"
        critical = "196"
        stale = "grey"
        dim = "#888"
        """

    static let configPieces: [String] = [
        "max_age", "stale_after", "refresh", "timeout", "[thresholds]", "[templates]", "[colors]", "[notify]", "warn",
        "critical", "default", "ok", "=", " = ", "\"", "'", "\"\"\"", "#", "\n", "\r\n", "\r", "\\u00e9", "\\U0001F600",
        "\\u+041", "\\uD800", "\\n", "\\q", "\\", "1_000", "-", "+", "1e19", "0.1", "nan", "inf", "-inf", "0x10", "true",
        "false", "[[", "]]", ".", "{", "}", "[", "]", "\u{00A0}", "\t", "\u{0}", "\"auto\"", "\"green\"", "\"#ffaa00\"",
        "\"{5h.left}\"", "\"((((((((((((((((((((((((((((((((((x\"", "\"{\u{00A0}5h.left}\"",
    ]

    static func config(_ rng: inout SplitMix64) -> String {
        switch rng.below(4) {
        case 0, 1:
            return mutate(configSeed, pieces: configPieces, rounds: 1 + rng.below(8), &rng)
        case 2:
            // Lines made of key, '=', value from the pieces.
            return (0..<(1 + rng.below(12))).map { _ in
                rng.chance(20) ? rng.pick(configPieces)
                    : rng.pick(configPieces) + rng.pick([" = ", "=", " =", " "]) + rng.pick(configPieces)
            }.joined(separator: rng.pick(["\n", "\r\n", "\n\n"]))
        default:
            var lines = configSeed.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for _ in 0..<(1 + rng.below(4)) {
                let i = rng.below(lines.count)
                switch rng.below(3) {
                case 0: lines.insert(lines[i], at: rng.below(lines.count))  // a repeated key or table
                case 1: lines.swapAt(i, rng.below(lines.count))
                default: lines.remove(at: i)
                }
                if lines.isEmpty { break }
            }
            return lines.joined(separator: "\n")
        }
    }

    // MARK: JSON (usage and status line)

    static let jsonNumbers = ["0", "-1", "12.5", "100", "100.0000001", "1e308", "-1e308", "1e-320", "1e300", "-0",
                              "14.000000000000002", "1795370400", "1795370400000", "9007199254740993",
                              "99999999999999999999999", "3.2e9", "-3.2e9", "1e11", "1e11.5", "2000000000", "3199999999"]
    static let jsonStrings = ["\"\"", "\"12\"", "\"nan\"", "\"inf\"", "\"1e400\"", "\"\\u0000\"", "\"\\ud800\"",
                              "\"2026-11-22T18:00:00.123456+00:00\"", "\"2026-11-22T18:00:00Z\"", "\"2026-02-30T00:00:00Z\"",
                              "\"2026-11-22T14:03:07+99:99\"", "\"9999-12-31T23:59:60-23:59\"", "\"0000-01-01T00:00:00Z\"",
                              "\"2026-11-22T14:03:07.0000000000000000000001Z\"", "\"session\"", "\"weekly_all\"",
                              "\"weekly_scoped\"", "\"Sonnet\"", "\"Opus 4\"", "\"ok\"", "\"warning\"", "\"critical\"",
                              "\"USD\"", "\"EUR\"", "\"€\"", "\"\u{202E}evil\"", "\"%{F#f00}#[fg=red]<b>&amp;|\""]
    static let usageKeys = ["five_hour", "seven_day", "seven_day_sonnet", "seven_day_opus", "seven_day_oauth_apps",
                            "iguana_necktie", "extra_usage", "limits", "utilization", "resets_at", "kind", "group",
                            "percent", "severity", "scope", "model", "display_name", "surface", "is_active", "is_enabled",
                            "monthly_limit", "used_credits", "currency", "spend"]
    static let statusKeys = ["model", "display_name", "workspace", "current_dir", "cost", "total_cost_usd",
                             "context_window", "used_percentage", "rate_limits", "five_hour", "seven_day",
                             "spend_limit", "resets_at"]

    static func jsonValue(_ keys: [String], depth: Int, _ rng: inout SplitMix64) -> String {
        switch depth > 4 ? rng.below(4) : rng.below(7) {
        case 0: return rng.pick(jsonNumbers)
        case 1: return rng.pick(jsonStrings)
        case 2: return rng.pick(["null", "true", "false"])
        case 3: return rng.chance(50) ? rng.pick(jsonNumbers) : "null"
        case 4, 5:
            let fields = (0..<rng.below(5)).map { _ in
                "\"\(rng.pick(keys))\":\(jsonValue(keys, depth: depth + 1, &rng))"
            }
            return "{" + fields.joined(separator: ",") + "}"
        default:
            return "[" + (0..<rng.below(4)).map { _ in jsonValue(keys, depth: depth + 1, &rng) }.joined(separator: ",") + "]"
        }
    }

    static func json(seeds: [String], keys: [String], window: (inout SplitMix64) -> String, _ rng: inout SplitMix64) -> String {
        switch rng.below(10) {
        case 0...3:
            // Well-formed bodies of the right shape with odd values.
            let fields = (0..<(1 + rng.below(6))).map { _ in "\"\(rng.pick(keys))\":\(window(&rng))" }
            return "{" + fields.joined(separator: ",") + "}"
        case 4, 5:
            return "{" + (0..<(1 + rng.below(5))).map { _ in
                "\"\(rng.pick(keys))\":\(jsonValue(keys, depth: 0, &rng))"
            }.joined(separator: ",") + "}"
        case 6, 7, 8:
            return mutate(rng.pick(seeds), pieces: jsonNumbers + jsonStrings + ["{", "}", "[", "]", ",", ":", "\""]
                + keys.map { "\"\($0)\"" }, rounds: 1 + rng.below(5), &rng)
        default:
            // Deep nesting: the decoder must refuse it, not overflow the stack.
            let depth = rng.pick([100, 600, 5000])
            let open = rng.chance(50) ? "[" : "{\"five_hour\":"
            return String(repeating: open, count: depth) + "1" + String(repeating: open == "[" ? "]" : "}", count: depth)
        }
    }

    static func usage(_ rng: inout SplitMix64) -> String {
        json(seeds: [UsageFixtures.flat, UsageFixtures.limitsOnly, UsageFixtures.mixed, UsageFixtures.allNull,
                     UsageFixtures.codenames],
             keys: usageKeys, window: { rng in
                 if rng.chance(30) {
                     let limits = (0..<(1 + rng.below(4))).map { _ in
                         "{\"kind\":\(rng.pick(jsonStrings)),\"percent\":\(rng.pick(jsonNumbers)),\"resets_at\":\(rng.pick(jsonStrings)),"
                             + "\"scope\":{\"model\":{\"display_name\":\(rng.pick(jsonStrings))}}}"
                     }
                     return "[" + limits.joined(separator: ",") + "]"
                 }
                 return "{\"utilization\":\(rng.pick(jsonNumbers)),\"resets_at\":\(rng.chance(50) ? rng.pick(jsonStrings) : rng.pick(jsonNumbers))}"
             }, &rng)
    }

    static let statusLineSeed = """
        {"model":{"display_name":"Opus"},"workspace":{"current_dir":"/home/u"},"cost":{"total_cost_usd":1.25},\
        "context_window":{"used_percentage":23},"rate_limits":{"five_hour":{"used_percentage":37,"resets_at":1795370400},\
        "seven_day":{"used_percentage":12,"resets_at":1795800000}}}
        """

    static func statusLine(_ rng: inout SplitMix64) -> String {
        json(seeds: [statusLineSeed], keys: statusKeys, window: { rng in
            let limits = (0..<(1 + rng.below(3))).map { _ in
                "\"\(rng.pick(["five_hour", "seven_day", "spend_limit", "x"]))\":{\"used_percentage\":\(rng.pick(jsonNumbers)),"
                    + "\"resets_at\":\(rng.chance(70) ? rng.pick(jsonNumbers) : rng.pick(jsonStrings))}"
            }
            return rng.chance(70) ? "{" + limits.joined(separator: ",") + "}" : "{\"display_name\":\(rng.pick(jsonStrings))}"
        }, &rng)
    }

    // MARK: Click lines

    static func click(_ rng: inout SplitMix64) -> String {
        let lines = (0..<(1 + rng.below(4))).map { _ -> String in
            let fields = (0..<rng.below(5)).map { _ in
                "\"\(rng.pick(["name", "instance", "button", "modifiers", "x", "relative_x", "width"]))\":"
                    + rng.pick(["1", "3", "5", "-1", "0", "9223372036854775807", "9223372036854775808", "1e3", "2.5",
                                "null", "\"elbowroom\"", "\"\"", "[\"Shift\"]", "[]", "{}", "\"\u{0}\""])
            }
            let object = "{" + fields.joined(separator: ",") + "}"
            let line = rng.pick(["", "[", ",", " , ", "[,", "[[", "]"]) + rng.pick([object, object, "", "[", "not json"])
                + rng.pick(["", ",", " ", "]", ",,"])
            return rng.chance(30) ? mutate(line, pieces: ["{", "}", "[", ",", "\"", ":", "\n"], rounds: 2, &rng) : line
        }
        return lines.joined(separator: "\n")
    }
}
