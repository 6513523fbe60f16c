import Foundation
import Testing
import ElbowroomCore
import ElbowroomTestSupport
@testable import ElbowroomCLI

@Suite struct CompletionsTests {
    static let files = [("bash", "completions/elbowroom.bash"), ("zsh", "completions/_elbowroom"),
                        ("fish", "completions/elbowroom.fish")]

    @Test(arguments: CompletionsCommand.shells)
    func scriptOffersEveryCommandAndFlagTheParserKnows(shell: String) {
        let script = CompletionScripts.script(for: shell)
        for command in ArgumentParser.commands {
            #expect(script.contains(command), "\(shell) completion lacks the command \(command)")
        }
        for flag in ArgumentParser.flags {
            // fish writes long flags as `-l adapter`.
            let spelled = shell == "fish" ? "-l " + flag.dropFirst(2) : flag
            #expect(script.contains(spelled), "\(shell) completion lacks \(flag)")
        }
    }

    @Test func listsNamePluginsAndTheUsersTemplatesWithTheirSummaries() throws {
        let s = CLISandbox()
        let plugin = s.paths.userAdaptersDir + "/elbowroom-adapter-walrus"
        try FileManager.default.createDirectory(atPath: s.paths.userAdaptersDir, withIntermediateDirectories: true)
        try "#!/bin/sh\necho walrus\n".write(toFile: plugin, atomically: true, encoding: .utf8)
        chmod(plugin, 0o755)
        try FileManager.default.createDirectory(atPath: s.paths.userTemplatesDir, withIntermediateDirectories: true)
        try "{5h.left}".write(toFile: s.paths.userTemplatesDir + "/mine.tmpl", atomically: true, encoding: .utf8)

        #expect(s.run("completions", "--list", "adapters") == 0)
        let adapters = s.stdout.text.split(separator: "\n")
        #expect(adapters.contains("waybar\twaybar custom module (return-type json): Pango text, tooltip, class"))
        #expect(adapters.contains("walrus\tplugin: \(plugin)"[...]))

        let t = CLISandbox()
        t.extraEnvironment = ["XDG_CONFIG_HOME": s.sandbox.configHome]
        #expect(t.run("completions", "--list", "templates") == 0)
        let templates = t.stdout.text.split(separator: "\n").map { $0.split(separator: "\t")[0] }
        #expect(templates == ["claude", "compact", "full", "mine", "minimal", "tooltip"])

        let a = CLISandbox()
        #expect(a.run("completions", "--list", "accounts") == 0)
        #expect(a.stdout.text.isEmpty, "no [accounts.NAME]: no names")
        a.writeConfig("[accounts.work]\nlabel = \"W\"\n[accounts.codex]\nprovider = \"codex\"\n")
        #expect(a.run("completions", "--list", "accounts") == 0)
        #expect(a.stdout.text == "work\tW, Claude\ncodex\tCodex\n")
        let b = CLISandbox()
        b.writeConfig("[accounts.work\n")
        #expect(b.run("completions", "--list", "accounts") == 0)
        #expect(b.stdout.text.isEmpty && b.stderr.text.isEmpty, "a broken config: quiet, no names")

        let u = CLISandbox()
        #expect(u.run("completions", "--list", "init") == 0)
        #expect(u.stdout.text.split(separator: "\n").map { String($0.split(separator: "\t")[0]) } == IntegrationSnippets.names)
    }

    @Test(arguments: [
        (["completions"], "usage: elbowroom completions bash|zsh|fish"),
        (["completions", "tcsh"], "usage: elbowroom completions bash|zsh|fish"),
        (["completions", "--list", "flags"], "usage: elbowroom completions --list adapters|templates|accounts|init"),
        (["--list", "adapters"], "--list goes with 'elbowroom completions'"),
    ])
    func usageErrors(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try ArgumentParser.parse(arguments) }
    }
}

/// bash's completion function, called directly (no terminal needed).
@Suite struct BashCompletionFunctionTests {
    /// A plugin's file name is data: Tab must not run a `$(…)` in it (compgen -W would expand it).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/bash")))
    func tabNeverRunsACommandSubstitutionFromAPluginName() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let elbowroom = try #require(BuiltExecutable.path("elbowroom"), "build the package first")
        let adapters = sandbox.configHome + "/elbowroom/adapters"
        try FileManager.default.createDirectory(atPath: adapters, withIntermediateDirectories: true)
        for name in ["walrus", "w$(touch pwned)", "w*"] {
            try "#!/bin/sh\necho x\n".write(toFile: adapters + "/elbowroom-adapter-" + name, atomically: true, encoding: .utf8)
            chmod(adapters + "/elbowroom-adapter-" + name, 0o755)
        }
        let script = """
            cd \(EndToEnd.quote(sandbox.root)) || exit 9
            source \(EndToEnd.quote(ShippedFiles.path("completions/elbowroom.bash")))
            COMP_WORDS=(elbowroom -a w); COMP_CWORD=2
            _elbowroom
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        var env = sandbox.environment
        env["PATH"] = URL(fileURLWithPath: elbowroom).deletingLastPathComponent().path + ":/usr/bin:/bin"
        let run = try BuiltExecutable.run("/usr/bin/bash", arguments: ["--norc", "--noprofile", "-c", script], environment: env)
        #expect(!FileManager.default.fileExists(atPath: sandbox.root + "/pwned"), "Tab ran a plugin name's $(…)")
        let offered = run.stdout.split(separator: "\n").map(String.init)
        #expect(offered.contains("walrus") && offered.contains("waybar"), "\(run.stdout)\(run.stderr)")
        #expect(offered.contains("w$(touch pwned)") && offered.contains("w*"), "\(run.stdout)\(run.stderr)")
    }
}

/// The completion scripts in the real shells, through tmux: type, press Tab, read the screen.
/// A plugin `elbowroom-adapter-walrus` proves adapter names are looked up at completion time.
@Suite(.serialized, .enabled(if: TmuxScreen.available, "tmux is not installed"))
struct CompletionsInRealShellsTests {
    final class Shell {
        let sandbox = try! Sandbox()
        let screen = TmuxScreen()
        let bin: String

        init() throws {
            let elbowroom = try #require(BuiltExecutable.path("elbowroom"), "build the package first")
            bin = URL(fileURLWithPath: elbowroom).deletingLastPathComponent().path
            let adapters = sandbox.configHome + "/elbowroom/adapters"
            try FileManager.default.createDirectory(atPath: adapters, withIntermediateDirectories: true)
            try "#!/bin/sh\necho walrus\n".write(toFile: adapters + "/elbowroom-adapter-walrus", atomically: true, encoding: .utf8)
            chmod(adapters + "/elbowroom-adapter-walrus", 0o755)
            // Two accounts, so `--account` has names to offer.
            try "[accounts.work]\nlabel = \"W\"\n[accounts.codex]\nprovider = \"codex\"\n"
                .write(toFile: sandbox.configHome + "/elbowroom/config.toml", atomically: true, encoding: .utf8)
        }

        deinit { sandbox.cleanup() }

        /// What the pane shows now.
        var shown: String { (try? screen.screen()) ?? "" }

        /// Waits until the last non-empty line is the bare prompt (the shell is ready for keys).
        func waitForPrompt(_ prompt: String) -> Bool {
            Eventually.within(8) {
                shown.split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?
                    .trimmingCharacters(in: .whitespaces) == prompt
            }
        }

        func write(_ text: String, to path: String) throws {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }

        /// `env -i` with the sandbox and the built binaries first on PATH, then `command`.
        func start(_ command: String, extra: [String: String] = [:]) throws {
            var env = sandbox.environment
            env["PATH"] = bin + ":/usr/bin:/bin"
            env["TERM"] = "xterm-256color"
            env.merge(extra) { $1 }
            let prefix = env.sorted { $0.key < $1.key }.map { "\($0.key)=\(EndToEnd.quote($0.value))" }.joined(separator: " ")
            try screen.start("env -i \(prefix) \(command)", width: 120, height: 20)
        }
    }


    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/bash")))
    func bashCompletesAdaptersPluginsIncluded() throws {
        let shell = try Shell()
        let rc = shell.sandbox.root + "/bashrc"
        try shell.write("PS1='$ '\nsource \(EndToEnd.quote(ShippedFiles.path("completions/elbowroom.bash")))\n", to: rc)
        try shell.start("/usr/bin/bash --noprofile --rcfile \(rc) -i")
        #expect(shell.waitForPrompt("$"))
        try shell.screen.keys("elbowroom -a wa", "Tab", "Tab")
        #expect(shell.screen.waitFor("walrus"), "screen:\n\(shell.shown)")
        #expect(shell.shown.contains("waybar"))
        try shell.screen.keys("C-u", "elbowroom --adapter=i3blocks-j", "Tab", "templ", "Tab", "sh", "Tab", "mi", "Tab")
        #expect(shell.screen.waitFor("elbowroom --adapter=i3blocks-json templates show minimal"), "screen:\n\(shell.shown)")
        try shell.screen.keys("C-u", "elbowroom fetch --account co", "Tab")
        #expect(shell.screen.waitFor("elbowroom fetch --account codex"), "screen:\n\(shell.shown)")
        try shell.screen.keys("C-u", "elbowroom doctor --acc", "Tab", "co", "Tab")
        #expect(shell.screen.waitFor("elbowroom doctor --account codex"), "screen:\n\(shell.shown)")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh")))
    func zshCompletesAdaptersPluginsIncluded() throws {
        let shell = try Shell()
        let functions = shell.sandbox.root + "/zfunc"
        try shell.write(try ShippedFiles.read("completions/_elbowroom"), to: functions + "/_elbowroom")
        try shell.write("PS1='%% '\nfpath=(\(functions) $fpath)\nautoload -Uz compinit && compinit -u -d \(shell.sandbox.root)/zcompdump\n",
                        to: shell.sandbox.home + "/.zshrc")
        try shell.start("/usr/bin/zsh -i", extra: ["ZDOTDIR": shell.sandbox.home])
        #expect(shell.waitForPrompt("%"))
        try shell.screen.keys("elbowroom -a wa", "Tab")
        #expect(shell.screen.waitFor("walrus"), "screen:\n\(shell.shown)")
        #expect(shell.shown.contains("waybar  -- waybar custom module"))
        try shell.screen.keys("C-c")
        #expect(shell.waitForPrompt("%"))
        try shell.screen.keys("elbowroom init i3b", "Tab")
        #expect(shell.screen.waitFor("elbowroom init i3blocks"), "screen:\n\(shell.shown)")
        try shell.screen.keys("C-u", "elbowroom --account co", "Tab")
        #expect(shell.screen.waitFor("elbowroom --account codex"), "screen:\n\(shell.shown)")
        try shell.screen.keys("C-u", "elbowroom cache --account co", "Tab")
        #expect(shell.screen.waitFor("elbowroom cache --account codex"), "screen:\n\(shell.shown)")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/fish")))
    func fishCompletesAdaptersPluginsIncluded() throws {
        let shell = try Shell()
        // fish reads vendor completions from $XDG_DATA_HOME/fish/vendor_completions.d.
        let data = shell.sandbox.root + "/data"
        try shell.write(try ShippedFiles.read("completions/elbowroom.fish"), to: data + "/fish/vendor_completions.d/elbowroom.fish")
        try shell.write("function fish_prompt; echo -n '> '; end\nfunction fish_greeting; end\n",
                        to: shell.sandbox.configHome + "/fish/config.fish")
        try shell.start("/usr/bin/fish -i", extra: ["XDG_DATA_HOME": data])
        #expect(shell.waitForPrompt(">"))
        try shell.screen.keys("elbowroom -a wa", "Tab")
        #expect(shell.screen.waitFor("walrus"), "screen:\n\(shell.shown)")
        #expect(shell.shown.contains("waybar"))
        try shell.screen.keys("C-u", "elbowroom templates show ful", "Tab")
        #expect(shell.screen.waitFor("elbowroom templates show full"), "screen:\n\(shell.shown)")
        try shell.screen.keys("C-u", "elbowroom history --account co", "Tab")
        #expect(shell.screen.waitFor("elbowroom history --account codex"), "screen:\n\(shell.shown)")
        try shell.screen.keys("C-u", "elbowroom notify --account co", "Tab")
        #expect(shell.screen.waitFor("elbowroom notify --account codex"), "screen:\n\(shell.shown)")
    }
}
