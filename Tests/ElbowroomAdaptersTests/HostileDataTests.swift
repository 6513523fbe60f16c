import Foundation
import ElbowroomAdapters
import ElbowroomCore
import Testing

/// Hostile data through every data field (window key and label, error, plan, currency, Claude
/// Code's model name) and every built-in adapter: the consumer's own syntax, terminal escapes
/// (CSI, OSC 52, C1), controls, line breaks, bidi overrides, and each special glued to a
/// combining mark, joiner, Prepend code point or variation selector. Each output is read the
/// way its consumer reads it (`ConsumerModel`): nothing from the data may be syntax, the text
/// shown must be the data as `Oracle` cleans it, and one line stays one line.
@Suite struct HostileDataTests {
    static let adapters = AdapterRegistry.builtIn.map(\.name)

    /// Records at most a few failures per adapter, then a count: one broken escaper fails
    /// hundreds of payloads.
    final class Failures {
        var count = 0
        let adapter: String
        init(adapter: String) { self.adapter = adapter }

        func check(_ payload: String, _ output: String, sourceLocation: SourceLocation = #_sourceLocation,
                   _ body: () throws -> Void) {
            do { try body() } catch {
                count += 1
                if count <= 5 {
                    Issue.record("\(adapter), data \(payload.debugDescription): \(error)\noutput: \(output.debugDescription)",
                                 sourceLocation: sourceLocation)
                }
            }
        }

        func summary(sourceLocation: SourceLocation = #_sourceLocation) {
            if count > 5 { Issue.record("\(adapter): \(count) failing payloads in all", sourceLocation: sourceLocation) }
        }
    }

    struct Mismatch: Error, CustomStringConvertible {
        var description: String
        init(_ what: String, _ actual: Any, _ expected: Any) {
            description = "\(what): shows \(String(reflecting: actual)), should show \(String(reflecting: expected))"
        }
    }

    static func expectEqual(_ what: String, _ actual: String, _ expected: String) throws {
        guard Array(actual.unicodeScalars) == Array(expected.unicodeScalars) else { throw Mismatch(what, actual, expected) }
    }

    static func expectClean(_ what: String, _ text: String, newlines: Bool = false) throws {
        let bad = Oracle.forbidden(in: text, newlines: newlines)
        guard bad.isEmpty else {
            throw ConsumerModel.LiveSyntax("\(what) carries \(bad.map { "U+" + String($0.value, radix: 16, uppercase: true) })")
        }
    }

    /// A prompt's line editor counts a tab as one column where the terminal moves up to eight:
    /// prompts (and Claude Code's status line) show it as a space.
    static func expectNoTab(_ what: String, _ text: String) throws {
        guard !text.unicodeScalars.contains("\t") else { throw ConsumerModel.LiveSyntax("\(what) carries a tab") }
    }

    static func tabsAsSpaces(_ text: String) -> String {
        ConsumerModel.string(text.unicodeScalars.map { $0 == "\t" ? " " : $0 })
    }

    /// The output minus its one final newline; throws if there is another line.
    static func oneLine(_ text: String) throws -> String {
        var s = Array(text.unicodeScalars)
        guard s.last == "\n" else { throw ConsumerModel.LiveSyntax("no final newline") }
        s.removeLast()
        guard !s.contains("\n") else { throw ConsumerModel.LiveSyntax("more than one line") }
        return ConsumerModel.string(s)
    }

    /// Line breaks and tabs as spaces: how `Oracle.oneLine` shows what JSON and Prometheus keep
    /// as `\n` and `\t`.
    static func joinedLines(_ text: String) -> String {
        ConsumerModel.string(text.unicodeScalars.map { $0 == "\n" || $0 == "\t" ? " " : $0 })
    }

    static func jsonObject(_ line: String) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw ConsumerModel.LiveSyntax("not a JSON object")
        }
        return object
    }

    /// Every string inside a decoded JSON value.
    static func strings(in value: Any) -> [String] {
        switch value {
        case let s as String: [s]
        case let a as [Any]: a.flatMap(strings)
        case let o as [String: Any]: o.values.flatMap(strings)
        default: []
        }
    }

    /// Checks one adapter's output as its consumer reads it. `expected` is the frame over cleaned
    /// data (what the user should see); `nil` for error output, where only safety is checked.
    static func validate(_ adapter: String, _ output: String, expected: RenderedFrame?) throws {
        let shown = expected.map { $0.spans.plainText }
        switch adapter {
        case "plain":
            guard let shown else { guard output.isEmpty else { throw ConsumerModel.LiveSyntax("error output") }; return }
            let text = try oneLine(output)
            try expectClean("plain", text)
            try expectEqual("plain", text, shown)
        case "ansi", "claude", "bash", "fish":
            if adapter == "ansi" && expected == nil { guard output.isEmpty else { throw ConsumerModel.LiveSyntax("error output") }; return }
            let body = adapter == "fish" ? output : try oneLine(output)
            let text = try ConsumerModel.sgr(body, wrapped: adapter == "bash")
            try expectClean(adapter, text)
            try expectNoTab(adapter, text)
            if let shown { try expectEqual(adapter, text, tabsAsSpaces(shown)) }
        case "zsh":
            let text = try ConsumerModel.zsh(try oneLine(output))
            try expectClean("zsh", text)
            try expectNoTab("zsh", text)
            if let shown { try expectEqual("zsh", text, tabsAsSpaces(shown)) }
        case "tmux":
            let text = try ConsumerModel.tmux(try oneLine(output))
            try expectClean("tmux", text)
            if let shown { try expectEqual("tmux", text, shown) }
        case "polybar":
            let text = try ConsumerModel.polybar(try oneLine(output))
            try expectClean("polybar", text)
            if let shown { try expectEqual("polybar", text, shown) }
        case "waybar":
            let line = try oneLine(output)
            try expectClean("waybar line", line)
            let object = try jsonObject(line)
            guard Set(object.keys).isSubset(of: ["text", "alt", "tooltip", "class", "percentage"]) else {
                throw ConsumerModel.LiveSyntax("waybar keys \(object.keys.sorted())")
            }
            let text = try ConsumerModel.pango(object["text"] as? String ?? "")
            let tooltip = try ConsumerModel.pango(object["tooltip"] as? String ?? "")
            try expectClean("waybar text", text)
            try expectClean("waybar tooltip", tooltip, newlines: true)
            if let expected, let shown {
                try expectEqual("waybar text", text, shown)
                try expectEqual("waybar tooltip", tooltip, expected.tooltip.plainText)
            }
        case "i3bar", "i3blocks-json":
            let line = try oneLine(output)
            try expectClean(adapter + " line", line)
            let object: [String: Any]
            if adapter == "i3bar" {
                guard let array = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [[String: Any]], array.count == 1 else {
                    throw ConsumerModel.LiveSyntax("not one block in an array")
                }
                object = array[0]
            } else {
                object = try jsonObject(line)
            }
            guard Set(object.keys).isSubset(of: ["name", "full_text", "short_text", "color", "urgent", "markup"]) else {
                throw ConsumerModel.LiveSyntax("block keys \(object.keys.sorted())")
            }
            let markup = object["markup"] as? String == "pango"
            func shownText(_ key: String) throws -> String {
                let raw = object[key] as? String ?? ""
                let text = markup ? try ConsumerModel.pango(raw) : raw
                try expectClean(adapter + " " + key, text)
                return text
            }
            let full = try shownText("full_text"), short = try shownText("short_text")
            if let expected, let shown {
                try expectEqual(adapter + " full_text", full, shown)
                try expectEqual(adapter + " short_text", short, expected.shortText)
            }
        case "i3blocks":
            var lines = Array(output.unicodeScalars).split(separator: "\n", omittingEmptySubsequences: false).map(ConsumerModel.string)
            guard lines.count == 4, lines.removeLast().isEmpty else { throw ConsumerModel.LiveSyntax("not three lines") }
            for line in lines { try expectClean("i3blocks", line) }
            guard ConsumerModel.isHexColour(lines[2]) else { throw ConsumerModel.LiveSyntax("third line is not a colour") }
            if let expected, let shown {
                try expectEqual("i3blocks full_text", lines[0], shown)
                try expectEqual("i3blocks short_text", lines[1], expected.shortText)
            }
        case "json":
            let line = try oneLine(output)
            try expectClean("json line", line)
            let object = try jsonObject(line)
            for s in strings(in: object) { try expectClean("a json string", s, newlines: true) }
            guard let expected else {
                guard Set(object.keys) == ["error", "status"] else { throw ConsumerModel.LiveSyntax("error keys \(object.keys.sorted())") }
                return
            }
            guard Set(object.keys) == ["account", "account_type", "age", "cooldown_until", "error", "extra", "level", "notice", "now", "offline",
                                       "plan", "source", "spend", "stale", "status", "unknown_keys", "version", "windows"] else {
                throw ConsumerModel.LiveSyntax("json keys \(object.keys.sorted())")
            }
            let windows = object["windows"] as? [[String: Any]] ?? []
            guard windows.count == expected.view.windows.count, windows.allSatisfy({
                Set($0.keys) == ["age", "binding", "detail", "eta", "has_reset", "key", "label", "left", "level", "name", "pace", "rate",
                                 "resets_at", "resets_in", "shown", "source", "title", "used"]
            }) else { throw ConsumerModel.LiveSyntax("json windows \(windows)") }
            // The data itself, cleaned (JSON may keep a line break, escaped).
            let hostile = try #require(windows.first { $0["key"] as? String != "five_hour" })
            let wanted = try #require(expected.view.windows.first { $0.key != "five_hour" })
            let extra = object["extra"] as? [String: Any]
            for (what, actual, want) in [("key", hostile["key"], wanted.key), ("label", hostile["label"], wanted.label),
                                         ("name", hostile["name"], wanted.name), ("error", object["error"], expected.view.error),
                                         ("plan", object["plan"], expected.view.plan), ("currency", extra?["currency"], expected.view.extra?.currency)] {
                try expectEqual("json " + what, joinedLines(actual as? String ?? ""), want ?? "")
            }
        case "prometheus":
            let samples = try ConsumerModel.prometheus(output)
            for sample in samples {
                for label in sample.labels { try expectClean("label value", label.value, newlines: true) }
            }
            if let expected {
                let windows = Set(samples.flatMap { $0.labels.filter { $0.name == "window" }.map { joinedLines($0.value) } })
                let keys = Set(expected.view.windows.map(\.key))
                guard windows == keys else { throw Mismatch("window labels", windows.sorted(), keys.sorted()) }
            }
        case "swiftbar":
            let lines = try ConsumerModel.swiftbar(output)
            for line in lines { try expectClean("swiftbar", line.title) }
            if let expected, let shown {
                // A title as shown: without the space before our ` | `, `│` standing for `|`,
                // zero width spaces invisible.
                func visible(_ line: ConsumerModel.MenuLine) -> String {
                    var s = Array(line.title.unicodeScalars)
                    if !line.parameters.isEmpty && s.last == " " { s.removeLast() }
                    return ConsumerModel.string(s.filter { $0 != "\u{200B}" }.map { $0 == "│" ? "|" : $0 })
                }
                try expectEqual("swiftbar title", visible(lines[0]), shown)
                let dropdown = lines.drop(while: { $0.title != "---" }).dropFirst().prefix(while: { $0.title != "---" })
                let tooltip = Array(expected.tooltip.plainText.unicodeScalars)
                    .split(separator: "\n").map(ConsumerModel.string).filter { !$0.isEmpty }
                let wanted = tooltip + (expected.view.error.map { ["⚠ " + $0] } ?? [])
                let got = dropdown.map(visible)
                guard got.map({ Array($0.unicodeScalars) }) == wanted.map({ Array($0.unicodeScalars) }) else {
                    throw Mismatch("swiftbar dropdown", got, wanted)
                }
            }
        default:
            throw ConsumerModel.LiveSyntax("no consumer model for adapter \(adapter)")
        }
    }

    @Test(arguments: adapters)
    func dataIsShownLiterallyAndNeverInterpreted(adapter name: String) throws {
        let adapter = try #require(AdapterRegistry.builtIn(named: name))
        let failures = Failures(adapter: name)
        for (payload, frame, expected) in Hostile.cases {
            let output = adapter.render(frame).text
            failures.check(payload, output) { try Self.validate(name, output, expected: expected) }
        }
        failures.summary()
    }

    /// Seeded fuzzing of the same check: labels, keys, errors, plans and currencies made of the
    /// payloads' pieces, tabs, consumer specials, long runs of combining marks and scalars from
    /// anywhere in Unicode, through every adapter. (The count is in docs/development.md.)
    static let generatedCount = 300
    static let generatedCases: [(payload: String, frame: RenderedFrame, expected: RenderedFrame)] =
        Hostile.generated(count: generatedCount, seed: 0x1abe1).map { ($0, Hostile.frame($0), Hostile.expectedFrame($0)) }

    @Test(arguments: adapters)
    func generatedDataIsShownLiterallyAndNeverInterpreted(adapter name: String) throws {
        let adapter = try #require(AdapterRegistry.builtIn(named: name))
        let failures = Failures(adapter: name)
        for (payload, frame, expected) in Self.generatedCases {
            let output = adapter.render(frame).text
            failures.check(payload, output) { try Self.validate(name, output, expected: expected) }
        }
        failures.summary()
    }

    /// Error output carries a message (a template or config error, a plugin failure) that may
    /// quote the user's text: it is as safe as a render.
    @Test(arguments: adapters)
    func errorOutputNeverCarriesLiveSyntax(adapter name: String) throws {
        let adapter = try #require(AdapterRegistry.builtIn(named: name))
        let failures = Failures(adapter: name)
        for payload in Hostile.all {
            let output = adapter.renderError(payload).text
            failures.check(payload, output) { try Self.validate(name, output, expected: nil) }
        }
        failures.summary()
    }

    /// The validators themselves: each one rejects the live syntax of its consumer, so a pass
    /// above means something.
    @Test func consumerModelsRejectLiveSyntax() {
        #expect((try? ConsumerModel.tmux("a\u{600}#[fg=red]X")) == "a\u{600}X", "a style from the data is not shown")
        #expect(throws: ConsumerModel.LiveSyntax.self) { try ConsumerModel.tmux("#{pane_id}") }
        #expect(throws: ConsumerModel.LiveSyntax.self) { try ConsumerModel.zsh("%n") }
        #expect(throws: ConsumerModel.LiveSyntax.self) { try ConsumerModel.zsh("%F{$(x)}") }
        #expect(throws: ConsumerModel.LiveSyntax.self) { try ConsumerModel.polybar("%{A1:rm:}x%{A}") }
        #expect(throws: ConsumerModel.LiveSyntax.self) { try ConsumerModel.sgr("\u{1B}]52;c;eA==\u{07}", wrapped: false) }
        #expect(throws: ConsumerModel.LiveSyntax.self) { try ConsumerModel.sgr("\u{1B}[31m", wrapped: true) }
        #expect(throws: ConsumerModel.LiveSyntax.self) { try ConsumerModel.pango("<b>x</b>") }
        #expect(throws: (any Error).self) { try ConsumerModel.pango("a & b") }
        #expect(throws: ConsumerModel.LiveSyntax.self) { try ConsumerModel.prometheus("m{window=\"a\"\u{301}\"} 1\n") }
        #expect(throws: ConsumerModel.LiveSyntax.self) { try ConsumerModel.prometheus("m{window=\"a\rb\"} 1\r\n") }
        #expect(throws: ConsumerModel.LiveSyntax.self) { try ConsumerModel.swiftbar("x \u{600}|bash=/bin/sh\n") }
        #expect(throws: ConsumerModel.LiveSyntax.self) { try ConsumerModel.swiftbar("--sub\n") }
        #expect(throws: ConsumerModel.LiveSyntax.self) { try Self.expectClean("x", "a\u{202E}b") }
        #expect(throws: ConsumerModel.LiveSyntax.self) { try Self.expectClean("x", "a\u{9B}b") }
        #expect((try? ConsumerModel.tmux("##[x]#[fg=red,bold]y#[default]")) == "#[x]y")
        #expect((try? ConsumerModel.zsh("%%n%B%F{208}x%f%b")) == "%nx")
        #expect((try? ConsumerModel.polybar("%\u{200B}{A1:x:}%{F#ff0000}y%{F-}")) == "%{A1:x:}y")
        #expect((try? ConsumerModel.prometheus("# HELP m h\n# TYPE m gauge\nm{window=\"a\\\"\\n\"} 1\n"))?.first?.labels.first?.value == "a\"\n")
    }

    /// A line break in the data is a space: a one-line template stays one line in every prompt,
    /// and no adapter's output gains a line (a bar's protocol line, a Prometheus sample) from it.
    @Test(arguments: adapters)
    func aLineBreakInTheDataDoesNotAddALine(adapter name: String) throws {
        let adapter = try #require(AdapterRegistry.builtIn(named: name))
        func breaks(_ text: String) -> Int { text.unicodeScalars.filter { Oracle.isLineBreak($0) }.count }
        let lines = breaks(adapter.render(Hostile.frame("a b")).text)
        for payload in ["a\nb", "a\r\nb", "a\rb", "a\u{2028}b", "a\u{85}b"] {
            let output = adapter.render(Hostile.frame(payload)).text
            #expect(breaks(output) == lines, "\(name) \(payload.debugDescription): \(output.debugDescription)")
        }
    }

    /// Keys that differ only in what the cleaning drops or merges were one series, and
    /// node_exporter kept one of the two (it kept the harmless one and dropped the critical one).
    /// Every window is a series of its own; a key shown as it is keeps its label value.
    @Test func keysThatDifferOnlyInWhatTheCleaningDropsAreSeparateSeries() throws {
        let now = Hostile.now
        let keys = ["seven_day_x\u{1B}", "seven_day_x", "seven_day_\u{202E}x", "seven_day_x (2)", "a\rb", "a\nb", "a\r\nb"]
        let reading = Reading(
            windows: keys.enumerated().map { i, key in
                UsageWindow(key: key, used: Double(10 * i), resetsAt: now.addingTimeInterval(3600), observedAt: now)
            },
            fetchedAt: now, source: .api)
        let view = UsageView(cache: CacheFile(account: "a", reading: reading), now: now, config: Config())
        let frame = RenderedFrame(spans: [], tooltip: [], view: view, palette: Palette(), useColor: false)
        let text = PrometheusAdapter().render(frame).text
        let used = try ConsumerModel.prometheus(text).filter { $0.name == "elbowroom_window_used_percent" }
        let labels = used.map { $0.labels.first { $0.name == "window" }?.value ?? "" }
        #expect(used.count == keys.count)
        #expect(Set(labels.map { Array($0.unicodeScalars) }).count == keys.count, "\(labels)")
        // The clean keys keep their own values; their windows' numbers stay with them.
        for line in [#"{window="seven_day_x"} 10"#, #"{window="seven_day_x (2)"} 30"#, #"{window="a\nb"} 50"#] {
            #expect(text.contains("\nelbowroom_window_used_percent" + line + "\n"), "\(line) in \(text)")
        }
    }

    /// The payloads each reach the output: a frame that lost the data would pass every check.
    @Test func everyFieldReachesTheOutput() {
        let frame = Hostile.frame("zz")
        let text = frame.spans.plainText
        for field in ["kzz", "LzzL", "Ezz", "Pzz", "ZZC", "Mzz"] {
            #expect(Oracle.scalars(text, contain: field), "\(field) not in \(text.debugDescription)")
        }
        let json = JSONAdapter().render(frame).text
        for field in ["kzz", "LzzL", "Ezz", "Pzz", "zzC"] { #expect(json.contains(field), "\(field)") }
        #expect(PrometheusAdapter().render(frame).text.contains("window=\"kzz\""))
        #expect(frame.tooltip.plainText.contains("LzzL"))
    }
}
