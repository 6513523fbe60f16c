import Foundation
import ElbowroomCore
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
        // tmux's default status bar is black on green: ok takes the bar's own colour.
        #expect(!styled.contains("\u{1B}[32m63%"), "63% is not green on the green bar")
    }

    /// The default line on tmux's default theme (`-f /dev/null`: status black on green), one
    /// window of each level, fresh and then stale: every character of it reads, its colours as
    /// tmux draws them (`capture-pane -e` of a client) in xterm's default palette at least
    /// `Contrast.minimum` apart — none in the bar's own green, nor yellow, red or grey on it.
    @Test(arguments: [false, true]) func tmuxDefaultThemeDrawsEverySegmentReadably(stale: Bool) throws {
        let e = try EndToEnd()
        // Stale: older than stale_after, but not due for a refresh that would replace it.
        try e.sandbox.writeConfig("timeout = 3\nmax_age = 86400\nstale_after = 60\n")
        try e.seedCache(windows: [("five_hour", 37), ("seven_day", 80), ("seven_day_opus", 95)], age: stale ? 600 : 5)
        let inner = TmuxScreen()
        try inner.start("sleep 600")
        try inner.tmux(["set", "-g", "status-interval", "1"])
        try inner.tmux(["set", "-g", "status-right-length", "80"])
        try inner.tmux(["set", "-g", "status-right", "#(\(e.envPrefix) \(e.elbowroom) -a tmux)"])
        let outer = TmuxScreen()
        try outer.start("env -u TMUX tmux -L \(inner.socket) attach -t t")
        let line = "5h 63% · 7d 20% · Opus 5%" + (stale ? " stale" : "")
        #expect(outer.waitFor(line), "status line: \((try? outer.screen()) ?? "")")
        let status = try #require(try outer.screen(escapes: true).split(separator: "\n").last { $0.contains("Opus") })
        let cells = SGRCells.parse(String(status))
        let start = try #require(cells.indices.first { cells[$0].character == "5" && $0 + 1 < cells.count && cells[$0 + 1].character == "h" })
        let drawn = cells[start...].filter { $0.character != " " }
        #expect(String(drawn.map(\.character)).hasPrefix(line.replacingOccurrences(of: " ", with: "")))
        // One check per segment: the characters drawn in the same colours, side by side.
        var segments: [(text: String, fg: Int?, bg: Int?)] = []
        for cell in drawn {
            if let last = segments.last, last.fg == cell.foreground, last.bg == cell.background {
                segments[segments.count - 1].text.append(cell.character)
            } else {
                segments.append((String(cell.character), cell.foreground, cell.background))
            }
        }
        for segment in segments {
            let fg = try #require(segment.fg, "tmux draws its status line in colours of its own: '\(segment.text)'")
            let bg = try #require(segment.bg, "'\(segment.text)'")
            let ratio = Contrast.ratio(ConsumerTheme.tmuxDefault.rgb(.palette(UInt8(fg))), ConsumerTheme.tmuxDefault.rgb(.palette(UInt8(bg))))
            #expect(ratio >= Contrast.minimum, "'\(segment.text)' is colour \(fg) on \(bg): \(ratio):1")
        }
        #expect(drawn.first?.foreground == 0 && drawn.first?.background == 2, "ok is the status style's black on green")
    }

    /// The built program lives in .build, on no system PATH: `init` names it by the path the
    /// kernel gives for it, and a shell without the login PATH runs that line.
    @Test func initNamesTheRealProgramSoAShellWithTheSystemPathRunsIt() throws {
        let e = try EndToEnd()
        try e.seedCache(fiveHour: 37, age: 5)
        let run = try e.run(["init", "i3"])
        let own = URL(fileURLWithPath: e.elbowroom).resolvingSymlinksInPath().path
        #expect(run.stdout.contains("status_command \(own) watch -a i3bar"), "\(run.stdout)")
        #expect(run.stderr.contains("is not on the PATH"))
        let tmux = try e.run(["init", "tmux"]).stdout
        let line = try #require(tmux.split(separator: "\n").first { $0.hasPrefix("set -g status-right '") })
        let command = line.dropFirst("set -g status-right '#(".count).prefix { $0 != ")" }
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "\(e.envPrefix) PATH=/usr/bin:/bin \(command) --offline"]
        let out = Pipe()
        shell.standardOutput = out
        try shell.run()
        shell.waitUntilExit()
        #expect(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "5h 63%\n")
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
        // An explicit colour: ok by default is the terminal's own (readable on light and dark).
        try term.keys("setopt prompt_subst; PROMPT='$(\(e.elbowroom) -a zsh -t \"[{5h.left}%](green) 100%% sure\") > '", "Enter")
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

/// The cells of one line of `capture-pane -e`: each character with the colour indexes it was
/// drawn in (`nil` for the terminal's default).
struct SGRCells {
    struct Cell: CustomStringConvertible {
        var character: Character
        var foreground: Int?
        var background: Int?
        var description: String { "\(character) fg \(foreground.map(String.init) ?? "default") bg \(background.map(String.init) ?? "default")" }
    }

    static func parse(_ line: String) -> [Cell] {
        var cells: [Cell] = []
        var fg: Int?
        var bg: Int?
        var chars = Array(line)
        var i = 0
        while i < chars.count {
            if chars[i] == "\u{1B}", i + 1 < chars.count, chars[i + 1] == "[" {
                var j = i + 2
                var body = ""
                while j < chars.count, !chars[j].isLetter { body.append(chars[j]); j += 1 }
                if j < chars.count, chars[j] == "m" {
                    let codes = body.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
                    var k = 0
                    while k < codes.count {
                        switch codes[k] {
                        case 0: fg = nil; bg = nil
                        case 30...37: fg = codes[k] - 30
                        case 90...97: fg = codes[k] - 90 + 8
                        case 39: fg = nil
                        case 40...47: bg = codes[k] - 40
                        case 100...107: bg = codes[k] - 100 + 8
                        case 49: bg = nil
                        case 38, 48:
                            if k + 2 < codes.count, codes[k + 1] == 5 {
                                if codes[k] == 38 { fg = codes[k + 2] } else { bg = codes[k + 2] }
                                k += 2
                            }
                        default: break
                        }
                        k += 1
                    }
                }
                i = j + 1
                continue
            }
            cells.append(Cell(character: chars[i], foreground: fg, background: bg))
            i += 1
        }
        chars.removeAll()
        return cells
    }
}
