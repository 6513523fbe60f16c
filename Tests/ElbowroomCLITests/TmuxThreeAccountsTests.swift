import Foundation
import ElbowroomTestSupport
import Testing
@testable import ElbowroomCLI

/// `init tmux`'s lines, as printed, in a real tmux with three accounts of four windows and
/// credits each: every account shows and the clock after them is not cut off (a length of 80 cut
/// the line inside the second account).
@Suite(.enabled(if: TmuxScreen.available, "needs tmux")) struct TmuxThreeAccountsTests {
    @Test func initTmuxFitsThreeAccountsAndTheClock() throws {
        let e = try EndToEnd()
        try e.sandbox.writeConfig("""
            timeout = 3
            [accounts.work]
            claude_config_dir = "~/.claude-work"
            [accounts.personal]
            claude_config_dir = "~/.claude"
            [accounts.team]
            claude_config_dir = "~/.claude-team"

            """)
        let snippet = try #require(IntegrationSnippets.snippet(named: "tmux"))
        let inner = TmuxScreen()
        try inner.start("sleep 600")
        for line in snippet.split(separator: "\n") where line.hasPrefix("set -g ") {
            let words = line.split(separator: " ", maxSplits: 3).map(String.init)
            var value = words[3]
            if value.hasPrefix("'") { value = String(value.dropFirst().dropLast()) }
            // The demo reading (four windows and credits per account), through the built program.
            value = value.replacingOccurrences(of: "#(elbowroom -a tmux)", with: "#(\(e.envPrefix) \(e.elbowroom) -a tmux --demo)")
            try inner.tmux(["set", "-g", words[2], value])
        }
        try inner.tmux(["set", "-g", "status-interval", "1"])
        let outer = TmuxScreen()
        try outer.start("env -u TMUX tmux -L \(inner.socket) attach -t t", width: 250)
        #expect(outer.waitFor("team 5h"), "status line: \((try? outer.screen()) ?? "")")
        let status = try #require(try outer.screen().split(separator: "\n").last { $0.contains("team 5h") })
        let trimmed = status.reversed().drop { $0 == " " }.reversed()
        let clock = String(trimmed.suffix(5))
        #expect(clock.count == 5 && clock.dropFirst(2).first == ":" && clock.filter(\.isNumber).count == 4,
                "the clock is cut off: \(status)")
        for label in ["work 5h", "personal 5h", "team 5h"] { #expect(status.contains(label), "\(status)") }
        #expect(status.contains("credits $12.34 / $50.00 "), "the last account whole: \(status)")
    }
}
