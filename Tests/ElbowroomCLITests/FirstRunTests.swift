import Foundation
import Testing
import ElbowroomCore
import ElbowroomAdapters
import ElbowroomTestSupport
@testable import ElbowroomCLI

/// What a new user meets in the first ten minutes (issue 23): `init` snippets that work where
/// bars run and agree with the docs, names typed from memory, a `doctor` that tells one story,
/// colour switches honoured by the prompts, and numbers that say what they count.
@Suite struct FirstRunTests {
    /// Runs with this program living at `own` (as `/proc/self/exe` would say).
    static func run(_ s: CLISandbox, own: String?, _ arguments: String...) -> Int32 {
        var context = s.context
        context.ownExecutable = { own }
        return ElbowroomMain.run(arguments, context: context)
    }

    /// Doctor's output with its folded lines joined again.
    static func unfolded(_ text: String) -> String { text.replacingOccurrences(of: "\n     ", with: " ") }

    // MARK: init

    @Test func initNamesTheProgramInFullWhenItLivesOutsideTheSystemPath() throws {
        let s = CLISandbox()
        #expect(Self.run(s, own: "/home/u/.local/bin/elbowroom", "init", "waybar") == 0)
        #expect(s.stdout.text.contains(#""exec": "/home/u/.local/bin/elbowroom -a waybar""#), "\(s.stdout.text)")
        #expect(s.stdout.text.contains(#""on-click": "/home/u/.local/bin/elbowroom fetch"#))
        #expect(s.stderr.text.contains("/home/u/.local/bin is not on the PATH"))
        // Prose in comments keeps the word.
        let i3 = CLISandbox()
        _ = Self.run(i3, own: "/home/u/.local/bin/elbowroom", "init", "i3")
        #expect(i3.stdout.text.contains("status_command /home/u/.local/bin/elbowroom watch -a i3bar"))
        #expect(i3.stdout.text.contains("use i3blocks instead: elbowroom init i3blocks"))
        let unit = CLISandbox()
        _ = Self.run(unit, own: "/home/u/.local/bin/elbowroom", "init", "systemd-notify")
        #expect(unit.stdout.text.contains("\nExecStart=/home/u/.local/bin/elbowroom notify\n"))
    }

    @Test func initKeepsThePlainNameOnTheSystemPathAndForShellPrompts() {
        let s = CLISandbox()
        _ = Self.run(s, own: "/usr/bin/elbowroom", "init", "tmux")
        #expect(s.stdout.text == IntegrationSnippets.snippet(named: "tmux"))
        let bash = CLISandbox()
        _ = Self.run(bash, own: "/home/u/.local/bin/elbowroom", "init", "bash")
        #expect(bash.stdout.text == IntegrationSnippets.snippet(named: "bash"))
    }

    @Test func initSaysWhyWhenItCannotNameTheProgram() {
        for own in [nil, "/home/u/my tools/elbowroom"] as [String?] {
            let s = CLISandbox()
            _ = Self.run(s, own: own, "init", "waybar")
            #expect(s.stdout.text == IntegrationSnippets.snippet(named: "waybar"))
            #expect(s.stderr.text.contains("cannot tell where this elbowroom is"), "\(s.stderr.text)")
        }
    }

    @Test func initSaysWhatTheNumbersCount() {
        let s = CLISandbox()
        _ = Self.run(s, own: "/usr/bin/elbowroom", "init", "tmux")
        #expect(s.stderr.text.contains("what is left of each window"))
        let used = CLISandbox()
        used.writeConfig("display = \"used\"\n")
        _ = Self.run(used, own: "/usr/bin/elbowroom", "init", "tmux")
        #expect(used.stderr.text.contains("how much of each window is used"))
    }

    @Test(arguments: [("i3bar", "i3"), ("swaybar", "sway"), ("node-exporter", "prometheus")])
    func initTakesTheNamesTypedFromMemory(alias: String, name: String) {
        let s = CLISandbox()
        #expect(Self.run(s, own: "/usr/bin/elbowroom", "init", alias) == 0)
        #expect(s.stdout.text == IntegrationSnippets.snippet(named: name))
        #expect(s.stderr.text.contains("'\(alias)' is '\(name)'"))
    }

    @Test func thePrometheusSnippetIsCalledWhatItSetsUp() throws {
        let text = try #require(IntegrationSnippets.snippet(named: "prometheus"))
        #expect(text.contains("textfile collector"))
        #expect(!IntegrationSnippets.names.contains("systemd"))
    }

    /// The snippets in docs/adapters.md are `init`'s, byte for byte (scripts/generate writes them).
    @Test func theDocsShowWhatInitPrints() throws {
        let docs = try ShippedFiles.read("docs/adapters.md") + ShippedFiles.read("docs/history-and-notifications.md")
            + ShippedFiles.read("docs/programs.md") + ShippedFiles.read("docs/tray.md")
        for snippet in IntegrationSnippets.snippets {
            #expect(docs.contains("\n" + snippet.text + "\n```"), "docs lack init \(snippet.name)'s snippet")
        }
        let readme = try ShippedFiles.read("README.md")
        for name in IntegrationSnippets.names {
            #expect(readme.contains("`elbowroom init \(name)`"), "README lacks init \(name)")
        }
        #expect(!readme.contains("<this repo>"))
    }

    @Test func promptSnippetsStayQuietOnceElbowroomIsGone() throws {
        for name in ["bash", "zsh"] {
            #expect(try #require(IntegrationSnippets.snippet(named: name)).contains("command -v elbowroom >/dev/null && elbowroom -a \(name)"))
        }
        #expect(try #require(IntegrationSnippets.snippet(named: "fish")).contains("command -q elbowroom; and elbowroom -a fish"))
    }

    // MARK: names

    @Test(arguments: ["i3", "sway", "swaybar"])
    func theWindowManagersNamesRenderTheI3barProtocol(name: String) {
        let s = CLISandbox()
        s.saveCache(used: ["five_hour": 37], age: 5)
        #expect(s.run("-a", name, "--offline") == 0)
        #expect(s.stdout.text.hasPrefix(#"[{"name":"elbowroom","full_text":"5h 63%"#), "\(s.stdout.text)")
    }

    @Test func aNearMissOfAnAliasSuggestsTheAlias() {
        let s = CLISandbox()
        #expect(s.run("-a", "swaybarr") == 2)
        #expect(s.stderr.text.contains("did you mean 'swaybar'?"), "\(s.stderr.text)")
        let i = CLISandbox()
        #expect(i.run("init", "i3barr") == 2)
        #expect(i.stderr.text.contains("did you mean 'i3bar'?"), "\(i.stderr.text)")
    }

    // MARK: doctor

    @Test func doctorNamesTheTemplateKeyAtFault() {
        let s = CLISandbox()
        s.saveCache(used: ["five_hour": 37], age: 5)
        s.writeConfig("[templates]\ntmux = \"{5h.lft}\"\nwaybar = \"compact\"\n")
        #expect(s.run("doctor") == 1)
        #expect(Self.unfolded(s.stdout.text).contains("FAIL template: config.toml [templates] tmux:1:2: unknown variable '5h.lft' (did you mean '5h.left'?)"),
                "\(s.stdout.text)")
        #expect(!s.stdout.text.contains("waybar:"))
        // The render says the same key.
        s.stderr.clear()
        _ = s.run("-a", "tmux", "--offline")
        #expect(s.stderr.text.contains("config.toml [templates] tmux:1:2: error: unknown variable"), "\(s.stderr.text)")
    }

    @Test func doctorWithoutALoginReportsOneCause() throws {
        let s = CLISandbox()
        try? FileManager.default.removeItem(atPath: s.sandbox.credentialsFile)
        var cache = CacheFile(account: s.store.account, reading: nil)
        cache.fetch.recordFailure(.signedOut, message: "sign in to Claude Code", at: s.clock.now)
        try s.store.save(cache)
        #expect(s.run("doctor") == 1)
        let fails = s.stdout.text.split(separator: "\n").filter { $0.hasPrefix("FAIL") }
        #expect(fails.count == 1, "\(s.stdout.text)")
        #expect(fails.first?.hasPrefix("FAIL credentials:") == true)
        #expect(s.stdout.text.contains("\n--   cache: "), "the cache's signed_out follows from it: \(s.stdout.text)")
        #expect(s.stdout.text.contains("\nok   api: reachable"), "the tokenless probe still runs")
    }

    @Test func doctorLinesFitEightyColumnsOnATerminal() {
        let s = CLISandbox()
        s.writeConfig("[templates]\ntmux = \"{5h.lft} and a long tail of literal text that goes on and on past the edge\"\n")
        var context = s.context
        context.stdoutIsTTY = true
        s.extraEnvironment["NO_COLOR"] = "1"
        context.environment = ElbowroomEnvironment(s.environment)
        _ = ElbowroomMain.run(["doctor"], context: context)
        for line in s.stdout.text.split(separator: "\n") {
            // A path longer than a line stands alone; nothing else passes 80.
            #expect(line.count <= 80 || !line.dropFirst(5).contains(" "), "\(line.count): \(line)")
        }
        #expect(s.stdout.text.contains("\n     "), "folded lines are indented under the text")
    }

    @Test func doctorColoursItsMarksOnATerminalUnlessNoColor() {
        let s = CLISandbox()
        var context = s.context
        context.stdoutIsTTY = true
        _ = ElbowroomMain.run(["doctor"], context: context)
        // Badges: black on green, white on red (readable on a light terminal and a dark one).
        #expect(s.stdout.text.contains("\u{1B}[38;5;16;42mok  \u{1B}[0m "), "\(s.stdout.text)")
        #expect(s.stdout.text.contains("\u{1B}[1;97;41mFAIL\u{1B}[0m "), "\(s.stdout.text)")
        let plain = CLISandbox()
        plain.extraEnvironment["NO_COLOR"] = "1"
        var quiet = plain.context
        quiet.stdoutIsTTY = true
        _ = ElbowroomMain.run(["doctor"], context: quiet)
        #expect(!plain.stdout.text.contains("\u{1B}"))
        #expect(plain.stdout.text.hasPrefix("ok   programs:"))
    }

    @Test func doctorSaysWhenBarsCannotFindTheProgram() {
        let s = CLISandbox()
        _ = Self.run(s, own: "/home/u/.local/bin/elbowroom", "doctor")
        #expect(Self.unfolded(s.stdout.text).contains("path: /home/u/.local/bin is not on the PATH"), "\(s.stdout.text)")
    }

    // MARK: colour and meaning

    @Test(arguments: ["bash", "zsh", "fish", "claude"])
    func promptsHonourNoColorAndColorNever(adapter: String) {
        let escape = adapter == "zsh" ? "%F{" : "\u{1B}"
        // Warn: coloured by default (ok is the terminal's own colour).
        let styled = CLISandbox()
        styled.saveCache(used: ["five_hour": 80], age: 5)
        _ = styled.run("-a", adapter, "--offline")
        #expect(styled.stdout.text.contains(escape), "colour by default: \(styled.stdout.text)")
        let noColor = CLISandbox()
        noColor.extraEnvironment["NO_COLOR"] = "1"
        noColor.saveCache(used: ["five_hour": 80], age: 5)
        _ = noColor.run("-a", adapter, "--offline")
        #expect(!noColor.stdout.text.contains(escape), "NO_COLOR: \(noColor.stdout.text)")
        #expect(noColor.stdout.text.contains("5h 20%"))
        let never = CLISandbox()
        never.saveCache(used: ["five_hour": 80], age: 5)
        _ = never.run("-a", adapter, "--offline", "--color", "never")
        #expect(!never.stdout.text.contains(escape), "--color never: \(never.stdout.text)")
    }

    @Test func displayUsedShowsUsedInEveryShippedLine() {
        let s = CLISandbox()
        s.saveCache(used: ["five_hour": 37, "seven_day": 41], age: 5)
        s.writeConfig("display = \"used\"\n")
        _ = s.run("-a", "plain", "--offline")
        #expect(s.stdout.text == "5h 37% · 7d 41%\n")
        s.stdout.clear()
        s.stdin = Data(#"{"model":{"display_name":"Opus"},"context_window":{"used_percentage":20}}"#.utf8)
        _ = s.run("-a", "claude", "--offline", "--color", "never")
        #expect(s.stdout.text.contains("ctx 20% · 5h 37% · 7d 41%"), "\(s.stdout.text)")
        s.stdout.clear()
        _ = s.run("-a", "plain", "-t", "tooltip", "--offline")
        #expect(s.stdout.text.contains(" 37% used "), "\(s.stdout.text)")
    }

    @Test func theClaudeLineCountsContextAsLeftByDefault() {
        let s = CLISandbox()
        s.saveCache(used: ["five_hour": 37, "seven_day": 41], age: 5)
        s.stdin = Data(#"{"model":{"display_name":"Opus"},"context_window":{"used_percentage":20}}"#.utf8)
        _ = s.run("-a", "claude", "--offline", "--color", "never")
        #expect(s.stdout.text.contains("ctx 80% · 5h 63% · 7d 59%"), "\(s.stdout.text)")
    }

    @Test func theDemoSaysWhatTheNumbersCount() {
        let s = CLISandbox()
        var context = s.context
        context.stdoutIsTTY = true
        _ = ElbowroomMain.run(["--demo"], context: context)
        #expect(s.stderr.text.contains("what is left of each window"), "\(s.stderr.text)")
        // Not when a program reads it (a bar with --demo).
        let bar = CLISandbox()
        _ = bar.run("--demo", "-a", "waybar")
        #expect(bar.stderr.text.isEmpty)
    }
}
