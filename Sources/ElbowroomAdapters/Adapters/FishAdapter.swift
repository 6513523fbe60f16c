// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// `fish`: `fish_prompt` / `fish_right_prompt` print plain ANSI; fish measures the width itself.
/// No trailing newline: fish prints a prompt function's output as it is, so a newline would put
/// the cursor on a line of its own. Several template lines are kept (a two-line prompt).
public struct FishAdapter: OutputAdapter {
    public init() {}
    public let name = "fish"
    public let summary = "fish prompt: ANSI colours"
    public var defaultColors: Palette.Colors { Palette.terminal }
    public var defaultThemes: [ConsumerTheme] { [.lightTerminal, .darkTerminal] }

    public var colorsReachATerminal: Bool { true }

    public func render(_ frame: RenderedFrame) -> AdapterOutput {
        let runs = frame.terminalRuns
        return AdapterOutput(SGR.encode(runs), madeFrom: runs, line: false)
    }

    public var errorReader: ErrorReader { .consumer }

    public func renderError(_ message: String) -> AdapterOutput {
        AdapterOutput(SGR.escape + "31m⚠ elbowroom" + SGR.reset, exitCode: 0)
    }
}
