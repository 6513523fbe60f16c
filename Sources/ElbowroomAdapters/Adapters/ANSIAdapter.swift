// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// `ansi`: SGR colours when `--color` allows (`frame.useColor`: `NO_COLOR`, `CLICOLOR_FORCE`,
/// TTY), else the same as `plain`.
public struct ANSIAdapter: OutputAdapter {
    public init() {}
    public let name = "ansi"
    public let summary = "terminal text with ANSI colours (--color auto|always|never)"
    public var defaultColors: Palette.Colors { Palette.terminal }
    public var defaultThemes: [ConsumerTheme] { [.lightTerminal, .darkTerminal] }

    public func render(_ frame: RenderedFrame) -> AdapterOutput {
        guard frame.useColor else { return PlainAdapter().render(frame) }
        let runs = frame.runs(frame.spans)
        return AdapterOutput(SGR.encode(runs), madeFrom: runs)
    }

    /// Nothing on stdout: the CLI prints the detail on stderr.
    public var errorReader: ErrorReader { .person }

    public func renderError(_ message: String) -> AdapterOutput {
        AdapterOutput("", exitCode: 2)
    }
}
