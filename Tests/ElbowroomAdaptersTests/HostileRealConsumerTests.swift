import Foundation
import ElbowroomAdapters
import ElbowroomCore
import Testing
import ElbowroomTestSupport

/// Hostile labels fed to the real consumers installed here: a Prepend code point (U+0600,
/// U+0D4E) or a combining mark glued to the consumer's special character made a `Character` that
/// was not equal to the special, so the raw byte went out and the consumer acted on it.
@Suite struct HostileRealConsumerTests {
    static func expectSameScalars(_ actual: String, _ expected: String, _ comment: Comment? = nil,
                                  sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(Array(actual.unicodeScalars) == Array(expected.unicodeScalars),
                "\(comment.map { "\($0): " } ?? "")shows \(actual.debugDescription), should show \(expected.debugDescription)",
                sourceLocation: sourceLocation)
    }

    /// zsh with prompt_subst prompt-expands the substituted output: `%n` would print the user
    /// name, `%F{red}` colour the rest, `%{…%}` hide text.
    @Test(arguments: ["\u{600}%F{red}X%f%n", "\u{D4E}%n", "%\u{301}n", "\u{600}%{A%}", "x\u{600}%%\u{600}%B", "\u{600}%\u{301}F{red}"])
    func zshShowsAHostileLabelLiterally(payload: String) throws {
        guard let zsh = RealConsumerTests.require("zsh") else { return }
        let dir = try Shell.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("out")
        try Data(ZshAdapter().render(Hostile.frame(payload)).text.utf8).write(to: file)
        let result = try Shell.run(zsh, ["-f", "-c", #"setopt prompt_subst; print -rnP -- '$(cat $HR_FILE)'"#],
                                   environment: ["HR_FILE": file.path, "TERM": "xterm-256color", "LANG": "C.UTF-8"])
        let expanded = String(decoding: result.stdout, as: UTF8.self)
        Self.expectSameScalars(Shell.stripEscapes(expanded), Hostile.expectedFrame(payload).spans.plainText, "zsh")
    }

    /// bash substitutes `$(…)` after decoding PS1: the output comes through byte for byte, and
    /// the only 0x01/0x02 and ESC bytes are ours.
    @Test(arguments: ["\u{600}$(echo pwned)", "\u{600}\\[\u{1B}[31m\\]", "\u{600}\u{01}x\u{02}", "\u{9B}31m\u{202E}x"])
    func bashShowsAHostileLabelLiterally(payload: String) throws {
        guard let bash = RealConsumerTests.require("bash") else { return }
        let dir = try Shell.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = BashAdapter().render(Hostile.frame(payload)).text
        let file = dir.appendingPathComponent("out")
        try Data(output.utf8).write(to: file)
        let result = try Shell.run(bash, ["--norc", "--noprofile", "-c", #"PS1='$(cat "$HR_FILE")'; printf %s "${PS1@P}""#],
                                   environment: ["HR_FILE": file.path])
        let expanded = String(decoding: result.stdout, as: UTF8.self)
        #expect(Array(expanded.utf8) == Array(output.utf8.dropLast()))
        let shown = try ConsumerModel.sgr(expanded, wrapped: true)
        Self.expectSameScalars(shown, Hostile.expectedFrame(payload).spans.plainText, "bash")
    }

    /// A real tmux client draws the status line: `#[fg=red]`, `#{pane_id}` and `#(…)` from the
    /// data show as text (no colour, no pane id, no command run).
    @Test(.enabled(if: TmuxScreen.available, "needs tmux"))
    func tmuxShowsAHostileLabelLiterally() throws {
        let dir = try Shell.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let payload = "\u{600}#[fg=red]X\u{D4E}#{pane_id}\u{600}#(echo elbowroom-pwned)#\u{301}S"
        let file = dir.appendingPathComponent("out")
        try Data(TmuxAdapter().render(Hostile.frame(payload)).text.utf8).write(to: file)
        let inner = TmuxScreen()
        try inner.start("sleep 600", width: 400, height: 5)
        for option in [["status-left", ""], ["status-right-length", "380"], ["status-interval", "1"],
                       ["status-right", "#(cat '\(file.path)')"]] {
            try inner.tmux(["set", "-g"] + option)
        }
        let outer = TmuxScreen()
        try outer.start("env -u TMUX tmux -L \(inner.socket) attach -t t", width: 400, height: 5)
        let literal = ["#[fg=red]X", "#{pane_id}", "#(echo elbowroom-pwned)", "5h 90%"]
        let drawn = Eventually.within(10) {
            let screen = (try? outer.screen()) ?? ""
            return literal.allSatisfy { Oracle.scalars(screen, contain: $0) }
        }
        #expect(drawn, "tmux drew: \(((try? outer.screen()) ?? "").debugDescription)")
    }
}
