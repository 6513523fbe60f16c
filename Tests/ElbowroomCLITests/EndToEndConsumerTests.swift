import Foundation
import ElbowroomTestSupport
import Testing

/// Real consumers render the built `elbowroom`: a tmux status line drawn by an attached client,
/// and bash / zsh / fish prompts in a terminal, with line editing.
@Suite(.enabled(if: TmuxScreen.available, "needs tmux")) struct EndToEndConsumerTests {
    static func has(_ program: String) -> Bool {
        ["/usr/bin/", "/bin/"].contains { FileManager.default.isExecutableFile(atPath: $0 + program) }
    }

    @Test func tmuxStatusLineShowsStyledHeadroomAndLiteralHashes() throws {
        let e = try EndToEnd()
        try e.seedCache(fiveHour: 37, age: 5)
        let inner = TmuxScreen()
        let command = "\(e.envPrefix) \(e.elbowroom) -a tmux -t 'acct #1 [{5h.left}%](level)'"
        try inner.start("sleep 600")
        try inner.tmux(["set", "-g", "status-interval", "1"])
        try inner.tmux(["set", "-g", "status-right", "#(\(command))"])
        let outer = TmuxScreen()
        try outer.start("env -u TMUX tmux -L \(inner.socket) attach -t t")
        #expect(outer.waitFor("acct #1 63%"), "status line: \((try? outer.screen()) ?? "")")
        let styled = try outer.screen(escapes: true)
        #expect(styled.contains("acct #1 \u{1B}[32m63%"), "63% drawn in the ok colour")
    }

    @Test(.enabled(if: has("bash"))) func bashPromptKeepsLineEditingWidth() throws {
        let e = try EndToEnd()
        try e.seedCache(fiveHour: 37, age: 5)
        let term = TmuxScreen()
        try term.start("env -i \(e.envPrefix) TERM=xterm-256color bash --norc --noprofile")
        try term.keys("PS1='$(\(e.elbowroom) -a bash -t \"[{5h.left}%](level)\") $ '", "Enter")
        #expect(term.waitFor("63% $"), "screen: \((try? term.screen()) ?? "")")
        try term.keys("C-l")
        try term.keys("echo hello")
        #expect(term.waitFor("63% $ echo hello"))
        // Home: bash puts the cursor after the prompt by its own count of the prompt's width.
        // Escapes outside \001…\002 would make it count too many columns.
        try term.keys("C-a")
        #expect(Eventually.within(3) { (try? term.cursorX()) == "63% $ ".count })
        try term.keys("X")
        #expect(term.waitFor("63% $ Xecho hello"))
    }

    @Test(.enabled(if: has("zsh"))) func zshPromptKeepsPercentSignsAndColours() throws {
        let e = try EndToEnd()
        try e.seedCache(fiveHour: 37, age: 5)
        let term = TmuxScreen()
        try term.start("env -i \(e.envPrefix) TERM=xterm-256color zsh -f")
        try term.keys("setopt prompt_subst; PROMPT='$(\(e.elbowroom) -a zsh -t \"[{5h.left}%](level) 100%% sure\") > '", "Enter")
        #expect(term.waitFor("63% 100%% sure >"), "screen: \((try? term.screen()) ?? "")")
        try term.keys("echo hi", "C-a")
        #expect(Eventually.within(3) { (try? term.cursorX()) == "63% 100%% sure > ".count })
        #expect(try term.screen(escapes: true).contains("\u{1B}[32m63%"))
    }

    @Test(.enabled(if: has("fish"))) func fishPromptShowsHeadroom() throws {
        let e = try EndToEnd()
        try e.seedCache(fiveHour: 37, age: 5)
        let term = TmuxScreen()
        // The prompt function is defined before the first prompt (-C), so no typing races it.
        // elbowroom prints the whole prompt: fish 3.6 may put a builtin's output (`echo -n ' > '`)
        // before an external command's that ran first when it captures a prompt.
        let prompt = "function fish_prompt; \(e.elbowroom) -a fish -t '[{5h.left}%](level) > '; end"
        try term.start("env -i \(e.envPrefix) TERM=xterm-256color fish --no-config -C \(EndToEnd.quote(prompt))")
        #expect(term.waitFor("63% >"), "screen: \((try? term.screen()) ?? "")")
        try term.keys("echo hi", "C-a")
        #expect(Eventually.within(3) { (try? term.cursorX()) == "63% > ".count })
    }
}
