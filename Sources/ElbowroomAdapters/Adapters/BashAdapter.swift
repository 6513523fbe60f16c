// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// `bash`: for `PS1='$(elbowroom -a bash) \$ '`. Command output arrives after prompt decoding,
/// so `\[ \]` would print literally; instead every escape sequence is wrapped in the raw bytes
/// 0x01 … 0x02 (what `\[ \]` decode to), which readline treats as zero-width.
public struct BashAdapter: OutputAdapter {
    public init() {}
    public let name = "bash"
    public let summary = "bash PS1: ANSI colours wrapped in \\001…\\002 for readline"
    public var defaultColors: Palette.Colors { Palette.terminal }
    public var defaultThemes: [ConsumerTheme] { [.lightTerminal, .darkTerminal] }

    static func wrap(_ escape: String) -> String { "\u{01}" + escape + "\u{02}" }

    public var colorsReachATerminal: Bool { true }

    public func render(_ frame: RenderedFrame) -> AdapterOutput {
        let runs = frame.terminalRuns
        return AdapterOutput(SGR.encode(runs, wrap: Self.wrap), madeFrom: runs)
    }

    /// A short red marker: the prompt stays usable, the detail is on stderr.
    public var errorReader: ErrorReader { .consumer }

    public func renderError(_ message: String) -> AdapterOutput {
        AdapterOutput(Self.wrap(SGR.escape + "31m") + "⚠ elbowroom" + Self.wrap(SGR.reset) + "\n", exitCode: 0)
    }
}
