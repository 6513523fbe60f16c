import Foundation
import Testing
import ElbowroomCore
import ElbowroomAdapters
import ElbowroomTestSupport
@testable import ElbowroomCLI

/// Every path where text from the data (the API's labels and keys, a server's message, a plugin's
/// file name) meets a person or a program other than through an adapter — adapters are walked by
/// `HostileDataTests` over the registry — walked the same way: each payload through each path,
/// and what comes out is held to the same rules. No control but newline, no DEL, C1 control or
/// bidi control, no U+2028/U+2029 (also not inside a JSON string once decoded: `jq -r` prints
/// what it decodes), one line where the consumer shows one line, markup escaped where a
/// notification daemon may render it, and nothing larger than a notification's arguments may be.
///
/// A path that prints data and is not in `paths` is a path nobody checks: add it here.
@Suite struct HostilePathsTests {
    static let payloads: [String] = [
        "\u{1B}]52;c;ZXZpbA==\u{07}", "\u{1B}[2J\u{1B}[31mred", "\u{9B}31m", "\u{9D}0;retitled\u{9C}", "\u{202E}gpj.exe",
        "\u{2066}x\u{2069}\u{200F}", "\u{00}\u{7F}\u{01}\u{02}", "a\r\nb\u{2028}c\u{85}d\u{2029}", "a\tb",
        "<b>bold</b> & <a href=\"https://example.com\">x</a><img src=\"file:///etc/passwd\"/>&amp;",
        "e" + String(repeating: "\u{0301}", count: 300_000),  // 600 KB in one character
    ]

    /// The scalars nobody may get from the data: `HostileOutputTests.forbidden` (a tab is data
    /// inside a JSON string, as the `json` adapter keeps it).
    static func check(_ path: String, _ payload: String, _ text: String, oneLine: Bool, tabs: Bool = false,
                      sourceLocation: SourceLocation = #_sourceLocation) {
        let shown = payload.prefix(40).debugDescription
        let bad = HostileOutputTests.forbidden(text).filter { !(tabs && $0 == "U+9") }
        #expect(bad.isEmpty, "\(path), data \(shown): carries \(bad.prefix(8)) in \(text.prefix(300).debugDescription)",
                sourceLocation: sourceLocation)
        if oneLine {
            #expect(!text.dropLast(text.hasSuffix("\n") ? 1 : 0).contains("\n"),
                    "\(path), data \(shown): more than one line", sourceLocation: sourceLocation)
        }
    }

    /// Every string inside a JSON document, decoded.
    static func strings(inJSON data: Data) throws -> [String] {
        func walk(_ value: Any) -> [String] {
            switch value {
            case let s as String: [s]
            case let a as [Any]: a.flatMap(walk)
            case let o as [String: Any]: o.keys.map { $0 } + o.values.flatMap(walk)
            default: []
            }
        }
        return walk(try JSONSerialization.jsonObject(with: data))
    }

    /// A cache whose window label, plan and last message carry `payload`, at 95 % used, so
    /// `notify` has a critical crossing to send (keys come from a small alphabet, or nothing
    /// notifies: `HistoryFile.isStorableKey`). Written as an older version may have written it:
    /// the label is not cut.
    static func seed(_ s: CLISandbox, _ payload: String) throws {
        let now = s.clock.now
        let observed = now.addingTimeInterval(-30)
        let key = "seven_day_k"
        let reading = Reading(
            windows: [UsageWindow(key: key, label: "L" + payload, used: 95, resetsAt: now.addingTimeInterval(1800), observedAt: observed)],
            plan: "P" + SafeText.prefix(payload, maxBytes: 200), fetchedAt: observed, source: .api)
        var cache = CacheFile(account: s.store.account, reading: reading)
        cache.fetch.recordSuccess(at: observed)
        cache.fetch.recordFailure(.server, message: "E" + SafeText.prefix(payload, maxBytes: 200), at: now.addingTimeInterval(-5))
        try s.store.save(cache)
    }

    /// A plugin whose file name, and a `PATH` directory whose name, carry `payload` (as far as a
    /// file name can: no `/`, no NUL, at most 200 bytes; no `:` either, which splits `PATH`).
    static func plant(_ s: CLISandbox, _ payload: String) throws {
        let name = String(String.UnicodeScalarView(SafeText.prefix(payload, maxBytes: 200).unicodeScalars.map { $0 == "/" || $0 == "\u{0}" || $0 == ":" ? "_" : $0 }))
        let plugins = s.paths.userAdaptersDir
        let bin = s.sandbox.root + "/bin" + name
        for dir in [plugins, bin, s.paths.userTemplatesDir] { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        for file in [plugins + "/elbowroom-adapter-" + name, plugins + "/elbowroom-adapter-ok", bin + "/elbowroom-adapter-fine"] {
            _ = FileManager.default.createFile(atPath: file, contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755])
        }
        _ = FileManager.default.createFile(atPath: s.paths.userTemplatesDir + "/" + name + ".tmpl", contents: Data("{5h.left}".utf8))
        s.extraEnvironment["PATH"] = bin + ":/usr/bin:/bin"
    }

    struct OutputPath: Sendable, CustomTestStringConvertible {
        var name: String
        var testDescription: String { name }
        /// Runs the path with `payload` in the data; checks what it gives.
        var walk: @Sendable (String) throws -> Void
    }

    static let paths: [OutputPath] = [
        OutputPath(name: "notify: stdout") { payload in
            let s = CLISandbox()
            s.writeConfig("notify_command = \"true\"\n")
            try seed(s, payload)
            #expect(s.run("notify", "--offline") == 0)
            #expect(!s.stdout.text.isEmpty, "nothing was notified")
            for line in s.stdout.text.split(separator: "\n") { check("notify stdout", payload, String(line), oneLine: true) }
        },
        OutputPath(name: "notify: notify-send arguments") { payload in
            let s = CLISandbox()
            try plant(s, "x")
            _ = FileManager.default.createFile(atPath: s.sandbox.root + "/binx/notify-send", contents: Data("#!/bin/sh\n".utf8),
                                               attributes: [.posixPermissions: 0o755])
            try seed(s, payload)
            #expect(s.run("notify", "--offline") == 0)
            let run = try #require(s.spawner.runs.first)
            let arguments = run.arguments
            #expect(arguments.count == 6)
            // An argument list the kernel takes (a 600 KB label made "Argument list too long").
            #expect(arguments.map(\.utf8.count).reduce(0, +) < 4096)
            for argument in arguments { check("notify-send argument", payload, argument, oneLine: true) }
            // The body may be read as markup: nothing in it is a tag, every `&` starts an entity.
            let body = arguments[5]
            #expect(!body.contains("<") && !body.contains(">"), "\(body)")
            #expect(body.split(separator: "&", omittingEmptySubsequences: false).dropFirst()
                .allSatisfy { part in ["amp;", "lt;", "gt;", "quot;", "#39;"].contains { part.hasPrefix($0) } })
        },
        OutputPath(name: "notify: notify_command's JSON") { payload in
            let s = CLISandbox()
            s.writeConfig("notify_command = \"my-notifier\"\n")
            try seed(s, payload)
            #expect(s.run("notify", "--offline") == 0)
            let run = try #require(s.spawner.runs.first)
            let line = String(decoding: run.stdin, as: UTF8.self)
            check("notify_command stdin", payload, line, oneLine: true)
            let strings = try strings(inJSON: run.stdin)
            #expect(strings.contains { $0.hasPrefix("L") }, "the label reached the JSON")
            for string in strings { check("a notify_command JSON string", payload, string, oneLine: false, tabs: true) }
            #expect(run.stdin.count < 4096)
        },
        OutputPath(name: "adapters") { payload in
            let s = CLISandbox()
            try plant(s, payload)
            #expect(s.run("adapters") == 0)
            #expect(s.stdout.text.contains("\nok ") && s.stdout.text.contains("\nfine "), "\(payload.prefix(30).debugDescription): \(s.stdout.text.prefix(2000))")
            for line in s.stdout.text.split(separator: "\n") { check("adapters", payload, String(line), oneLine: true) }
        },
        OutputPath(name: "completions --list adapters") { payload in
            let s = CLISandbox()
            try plant(s, payload)
            #expect(s.run("completions", "--list", "adapters") == 0)
            for line in s.stdout.text.split(separator: "\n") {
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
                #expect(fields.count <= 2, "NAME<TAB>SUMMARY: \(line)")
                for field in fields { check("completion list", payload, String(field), oneLine: true) }
            }
        },
        OutputPath(name: "templates list") { payload in
            let s = CLISandbox()
            try plant(s, payload)
            #expect(s.run("templates", "list") == 0)
            for line in s.stdout.text.split(separator: "\n") { check("templates list", payload, String(line), oneLine: true) }
        },
        OutputPath(name: "cache show") { payload in
            let s = CLISandbox()
            try seed(s, payload)
            #expect(s.run("cache", "show") == 0)
            check("cache show", payload, s.stdout.text, oneLine: false)
        },
        OutputPath(name: "doctor") { payload in
            let s = CLISandbox()
            try seed(s, payload)
            s.run("doctor")
            check("doctor", payload, s.stdout.text, oneLine: false)
        },
        OutputPath(name: "history (text, --json, --csv)") { payload in
            let s = CLISandbox()
            try seed(s, payload)
            try HistoryStore(paths: s.paths).record(try #require(s.store.load()?.reading))
            for format in [[], ["--json"], ["--csv"]] {
                s.stdout.clear()
                #expect(ElbowroomMain.run(["history"] + format, context: s.context) == 0)
                check("history \(format)", payload, s.stdout.text, oneLine: false)
            }
        },
        OutputPath(name: "guard: its line on stderr") { payload in
            let s = CLISandbox()
            try seed(s, payload)
            #expect(s.run("guard", "--offline") == 1)
            check("guard", payload, s.stderr.text, oneLine: true)
            s.stderr.clear()
            #expect(s.run("guard", "--offline", "--window", "W" + payload) == GuardCommand.noData)
            check("guard --window", payload, s.stderr.text, oneLine: true)
        },
        OutputPath(name: "hook: its output") { payload in
            let s = CLISandbox()
            try seed(s, payload)
            s.stdin = Data(#"{"hook_event_name":"UserPromptSubmit"}"#.utf8)
            #expect(s.run("hook", "--offline") == 0)
            check("hook", payload, s.stdout.text, oneLine: true)
            let strings = try strings(inJSON: Data(s.stdout.text.utf8))
            #expect(strings.contains { $0.hasPrefix("L") }, "the label reached the hook's line")
            for string in strings { check("a hook JSON string", payload, string, oneLine: true) }
        },
        OutputPath(name: "mcp: get_headroom and the resource") { payload in
            let s = CLISandbox()
            try seed(s, payload)
            var fds: [Int32] = [0, 0]
            #expect(pipe(&fds) == 0)
            let requests = [
                #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
                #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_headroom","arguments":{}}}"#,
                #"{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"elbowroom://headroom"}}"#,
            ].joined(separator: "\n") + "\n"
            #expect(write(fds[1], requests, requests.utf8.count) == requests.utf8.count)
            close(fds[1])
            defer { close(fds[0]) }
            var context = s.context
            context.stdinFD = fds[0]
            #expect(ElbowroomMain.run(["mcp", "--offline"], context: context) == 0)
            let lines = s.stdout.text.split(separator: "\n")
            #expect(lines.count == 3, "\(s.stdout.text.prefix(500))")
            for line in lines {
                check("an mcp answer", payload, String(line), oneLine: true)
                for string in try strings(inJSON: Data(line.utf8)) { check("an mcp JSON string", payload, string, oneLine: false, tabs: true) }
            }
        },
        OutputPath(name: "fetch --json") { payload in
            // The real fetcher against a loopback server whose answer carries the payload in a
            // model's display name, the label (short: a key made from a long one is over
            // `ReadingLimits.maxKeyBytes`, and that window is left out).
            let reset = ISO8601.format(Date().addingTimeInterval(3600))
            let name = String(decoding: try JSONSerialization.data(withJSONObject: ["M" + SafeText.prefix(payload, maxBytes: 40)]), as: UTF8.self)
            let body = #"{"limits":[{"kind":"session","percent":10,"resets_at":"\#(reset)"},"#
                + #"{"kind":"weekly_scoped","percent":50,"resets_at":"\#(reset)","scope":{"model":{"display_name":\#(name.dropFirst().dropLast())}}}]}"#
            let e = try EndToEnd(usage: .json(200, body))
            let run = try e.run(["fetch", "--json"])
            #expect(run.status == 0, "\(run.stderr)")
            check("fetch --json", payload, run.stdout, oneLine: true)
            let strings = try strings(inJSON: Data(run.stdout.utf8))
            #expect(strings.contains { $0.hasPrefix("M") }, "\(payload.prefix(30).debugDescription): the label reached the output: \(run.stdout.prefix(500))")
            for string in strings { check("a fetch --json string", payload, string, oneLine: false, tabs: true) }
        },
        OutputPath(name: "tray: title, tooltip and menu rows") { payload in
            // What the item puts on the bus (TrayItem sends these as they are, the tooltip
            // escaped as markup).
            let s = CLISandbox()
            try seed(s, payload)
            var invocation = Invocation()
            invocation.adapter = "plain"
            invocation.color = .never
            invocation.tooltip = "tooltip"
            let setup = try RenderSetup.make(invocation, context: s.context)
            let cache = CacheStore(paths: s.context.paths).load()
            let frame = setup.frame(cache: cache, now: s.clock.now, provider: .claude)
            let view = TrayView(frame: frame, palette: Palette(defaults: TrayIcon.colors), now: s.clock.now)
            check("tray title", payload, view.title, oneLine: true)
            check("tray tooltip", payload, view.tooltip, oneLine: false)
            #expect(!view.rows.isEmpty)
            for row in view.rows { check("tray menu row", payload, row, oneLine: true) }
            let markup = Pango.escape(view.tooltip)
            #expect(!markup.contains("<") && !markup.contains(">"), "\(markup.prefix(200))")
        },
    ]

    /// Commands whose data reaches the user only through an adapter (`HostileDataTests` walks
    /// those), and commands that print nothing from the data.
    static let walkedThroughAdapters = ["render", "watch", "serve"]
    static let printNoData = ["init", "help"]

    /// A new command is walked here, or said to need no walk: like the adapter registry, the
    /// list of commands is the one to cover.
    @Test func everyCommandIsWalked() {
        let walked = Self.paths.map { String($0.name.prefix { $0 != " " && $0 != ":" }) }
        for command in ArgumentParser.commands {
            #expect(walked.contains(command) || Self.walkedThroughAdapters.contains(command) || Self.printNoData.contains(command),
                    "\(command) prints data: add its paths to HostilePathsTests.paths")
        }
    }

    @Test(arguments: paths)
    func dataMeetsAPersonOrAProgramOnlyCleaned(_ path: OutputPath) throws {
        for payload in Self.payloads { try path.walk(payload) }
    }

    /// Seeded fuzzing of the same walk (fewer through the real fetcher, a process each).
    /// The counts are in docs/development.md.
    static let generatedCount = 60
    static let generatedFetchCount = 12

    @Test(arguments: paths)
    func generatedDataMeetsAPersonOrAProgramOnlyCleaned(_ path: OutputPath) throws {
        let count = path.name == "fetch --json" ? Self.generatedFetchCount : Self.generatedCount
        for payload in Self.generated(count: count, seed: 0x9a7b5) { try path.walk(payload) }
    }

    /// Payloads from a fixed seed: one to five pieces of the payloads above, controls, bidi
    /// controls, markup, tabs, runs of combining marks, scalars from anywhere in Unicode.
    static func generated(count: Int, seed: UInt64) -> [String] {
        var state = seed
        func next(_ n: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15  // SplitMix64
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(n))
        }
        let pieces = payloads.dropLast() + ["\t", "\u{1B}", "\u{07}", "\u{9B}", "\u{85}", "\u{2028}", "\u{202D}", "<", "&", "%", "#", "\\", "\""]
        return (0..<count).map { _ in
            var payload = ""
            for _ in 0..<(1 + next(5)) {
                switch next(4) {
                case 0, 1: payload += pieces[next(pieces.count)]
                case 2: payload += "e" + String(repeating: "\u{0301}", count: 1 + next(3000))
                default:
                    let value = next(2) == 0 ? UInt32(next(0x100)) : UInt32(next(0x11_0000))
                    payload.unicodeScalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
                }
            }
            return payload
        }
    }
}
