// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// `claude`: Claude Code's `statusLine` command. Its stdout is not a TTY but ANSI colours and
/// several lines are shown, so SGR is always on and newlines in the template are kept. It reads
/// Claude Code's status line (`readsClaudeStatusLine`); taking it in is `StatusLineIngest`'s part.
public struct ClaudeAdapter: OutputAdapter {
    public init() {}
    public let name = "claude"
    public let summary = "Claude Code statusLine: ANSI colours, several lines allowed"
    public var defaultColors: Palette.Colors { Palette.terminal }
    public var defaultThemes: [ConsumerTheme] { [.lightTerminal, .darkTerminal] }
    public var defaultTemplate: String { "claude" }
    public var readsClaudeStatusLine: Bool { true }

    public var colorsReachATerminal: Bool { true }

    public func render(_ frame: RenderedFrame) -> AdapterOutput {
        let runs = frame.terminalRuns
        return AdapterOutput(SGR.encode(runs), madeFrom: runs)
    }

    /// Claude Code hides stderr, so the reason goes on the status line itself (one line).
    public var errorReader: ErrorReader { .consumer }

    public func renderError(_ message: String) -> AdapterOutput {
        AdapterOutput(
            SGR.escape + "31m⚠ elbowroom: " + SafeText.firstLine(message) + SGR.reset + "\n", exitCode: 0)
    }
}
