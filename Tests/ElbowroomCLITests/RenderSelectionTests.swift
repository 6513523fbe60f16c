import Foundation
import ElbowroomCore
import Testing
@testable import ElbowroomCLI

/// How a render picks its template and adapter: flags over `[templates]` over the adapter's default.
@Suite struct RenderSelectionTests {
    @Test func templatesComeFromFlagThenAdapterKeyThenDefault() {
        let s = CLISandbox()
        s.saveCache(used: ["five_hour": 40], age: 30)
        s.writeConfig("""
        [templates]
        default = "d {5h.left}"
        tmux = "t {5h.left}"
        """)
        s.run("-a", "plain")
        s.run("-a", "tmux")
        s.run("-a", "tmux", "-t", "f {5h.used}")
        #expect(s.stdout.text == "d 60\nt 60\nf 40\n")
    }

    @Test func aConfiguredTooltipIsOnlyBuiltForAdaptersThatShowOne() throws {
        let s = CLISandbox()
        s.writeConfig("[templates]\ntooltip = \"tip {5h.left}\"\n")
        let tmux = try RenderSetup.make(ArgumentParser.parse(["-a", "tmux"]), context: s.context)
        #expect(tmux.tooltip == nil)
        let waybar = try RenderSetup.make(ArgumentParser.parse(["-a", "waybar"]), context: s.context)
        #expect(waybar.tooltip?.source == "tip {5h.left}")
        let flagged = try RenderSetup.make(ArgumentParser.parse(["-a", "tmux", "--tooltip", "x {5h.left}"]), context: s.context)
        #expect(flagged.tooltip?.source == "x {5h.left}")
    }

    @Test func userTemplateByName() throws {
        let s = CLISandbox()
        s.saveCache(used: ["five_hour": 40], age: 30)
        try FileManager.default.createDirectory(atPath: s.paths.userTemplatesDir, withIntermediateDirectories: true)
        try "mine: {5h.left}%\n".write(toFile: s.paths.userTemplatesDir + "/mine.tmpl", atomically: true, encoding: .utf8)
        #expect(s.run("-t", "mine") == 0)
        #expect(s.stdout.text == "mine: 60%\n")
    }

    @Test func usedAndLeftAddUpTo100OnScreen() {
        let s = CLISandbox()
        s.saveCache(used: ["five_hour": 41.5], age: 30)
        s.run("-t", "{5h.used}+{5h.left} {5h.used|round}+{5h.left|round} {5h.used|fixed(0)}+{5h.left|fixed(0)}")
        #expect(s.stdout.text == "42+58 42+58 42+58\n")
        s.run("cache", "show")
        #expect(s.stdout.text.contains("five_hour: 42% used, 58% left"))
    }

    @Test func i3blocksExits33WhenCritical() {
        let s = CLISandbox()
        s.saveCache(used: ["five_hour": 95], age: 30)
        #expect(s.run("-a", "i3blocks") == 33)
        let ok = CLISandbox()
        ok.saveCache(used: ["five_hour": 5], age: 30)
        #expect(ok.run("-a", "i3blocks") == 0)
    }

    @Test func aPluginInTheUserAdaptersDirIsListedAndRuns() throws {
        let s = CLISandbox()
        s.saveCache(used: ["five_hour": 40], age: 30)
        try FileSystem.makeDirectory(s.paths.userAdaptersDir, mode: 0o755)
        let plugin = s.paths.userAdaptersDir + "/elbowroom-adapter-shout"
        // Reads the frame JSON on stdin and prints its plain text in capitals.
        try FileSystem.writeAtomically(Data("""
            #!/bin/sh
            tr 'a-z' 'A-Z' | sed -n 's/.*"TEXT":"\\([^"]*\\)".*/\\1/p'
            """.utf8), to: plugin, mode: 0o755)
        s.run("adapters")
        #expect(s.stdout.text.contains("shout"))
        #expect(s.stdout.text.contains("plain"))
        let before = s.stdout.text
        #expect(s.run("-a", "shout", "-t", "up {5h.left}") == 0)
        // Passed through verbatim (sed keeps the input's missing final newline).
        #expect(s.stdout.text.dropFirst(before.count) == "UP 60")
    }

    @Test func withoutAnAdapterColourFollowsTheColorFlag() {
        let piped = CLISandbox()
        piped.run("--demo")
        #expect(!piped.stdout.text.contains("\u{1B}["), "not a terminal: plain text")
        let forced = CLISandbox()
        forced.run("--demo", "--color", "always")
        #expect(forced.stdout.text.contains("\u{1B}[97;41m"), "the demo's critical Opus window, a badge")
        let env = CLISandbox()
        env.extraEnvironment["CLICOLOR_FORCE"] = "1"
        env.run("--demo")
        #expect(env.stdout.text.contains("\u{1B}[97;41m"))
        env.extraEnvironment["NO_COLOR"] = "1"
        let before = env.stdout.text.count
        env.run("--demo")
        #expect(!env.stdout.text.dropFirst(before).contains("\u{1B}["), "NO_COLOR wins over CLICOLOR_FORCE")
    }
}
