// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// One consumer's output format. Adding an adapter is one new file in `Adapters/` and one line
/// in `AdapterRegistry.builtIn`.
public protocol OutputAdapter: Sendable {
    /// The `-a` name.
    var name: String { get }
    /// One line for `elbowroom adapters`.
    var summary: String { get }
    /// The template used when neither `-t` nor `[templates]` picks one.
    var defaultTemplate: String { get }
    /// The tooltip template (`--tooltip`), for adapters that show one; `nil` for none.
    var defaultTooltipTemplate: String? { get }
    /// Whether the output carries the view's numbers itself, not only through templates (`json`,
    /// `prometheus`, plugins): then a render reads the usage history for `rate`, `pace` and `eta`.
    var printsView: Bool { get }
    /// Whether its consumer is Claude Code's status line, which hands each render a JSON
    /// reading on stdin: a render then reads it (`claude.*` variables; its rate limits go into
    /// the cache, see `StatusLineIngest`).
    var readsClaudeStatusLine: Bool { get }
    /// The colours of the semantic styles before `[colors]`: one of `Palette`'s default sets,
    /// readable on the consumer's default themes (tmux's status bar is green, so its `ok` is the
    /// status style's own colour).
    var defaultColors: Palette.Colors { get }
    /// The consumer's default looks, which `defaultColors` must read on (a test holds every
    /// level to `Contrast.minimum`; docs/adapters.md's contrast table is generated from them).
    /// Empty for an adapter that shows no colours.
    var defaultThemes: [ConsumerTheme] { get }
    /// Whether its ANSI colours go to a terminal although its stdout never is one (a prompt,
    /// Claude Code's status line): then `NO_COLOR` and `--color never` turn them off
    /// (`frame.useColor`), where a bar's colours are its consumer's markup and stay.
    var colorsReachATerminal: Bool { get }
    /// Who reads what `renderError` prints, which decides its exit status (docs/adapters.md,
    /// "Errors and exit status"; a test holds every adapter's `renderError` and that table to it).
    var errorReader: ErrorReader { get }

    /// One render: the whole output for a one-shot run (`elbowroom -a NAME`), trailing newline
    /// included where the consumer wants one.
    func render(_ frame: RenderedFrame) -> AdapterOutput

    /// Written once before the first frame in `watch` (the i3bar protocol header and `[`).
    func streamHeader() -> String?
    /// One frame in `watch`: a single flushed line (or a `~~~`-separated block for swiftbar).
    func streamFrame(_ frame: RenderedFrame) -> String

    /// What to print when nothing can be rendered (a template or config error), as its
    /// `errorReader` reads it: a short visible reason and exit 0 for a bar or prompt (waybar hides
    /// a module and Claude Code blanks its status line on a non-zero exit, which would hide the
    /// very reason); exit 2 for a person or a program. The detail goes to stderr separately.
    func renderError(_ message: String) -> AdapterOutput
    /// The same inside a `watch` stream, shaped like a `streamFrame` (i3bar's trailing `,`,
    /// swiftbar's `~~~`), so the stream stays valid and the bar shows the reason.
    func streamError(_ message: String) -> String
}

extension OutputAdapter {
    public var defaultTemplate: String { "compact" }
    public var defaultTooltipTemplate: String? { nil }
    public var printsView: Bool { false }
    public var readsClaudeStatusLine: Bool { false }
    public var defaultColors: Palette.Colors { Palette.defaults }
    public var defaultThemes: [ConsumerTheme] { [] }
    public var colorsReachATerminal: Bool { false }
    public var errorReader: ErrorReader { .program }
    public func streamHeader() -> String? { nil }
    public func streamFrame(_ frame: RenderedFrame) -> String {
        var text = render(frame).text
        if text.utf8.last != 0x0A { text += "\n" }
        return text
    }
    public func renderError(_ message: String) -> AdapterOutput {
        AdapterOutput("elbowroom: \(message)\n", exitCode: 2)
    }
    public func streamError(_ message: String) -> String {
        var text = renderError(message).text
        if !text.isEmpty && text.utf8.last != 0x0A { text += "\n" }
        return text
    }
}

/// Who reads an adapter's output when nothing can be rendered (a template or config error).
public enum ErrorReader: Sendable, Equatable {
    /// A bar or a prompt, which shows output only from a command that exits 0 (waybar hides the
    /// module, Claude Code blanks its status line): a short visible reason, exit 0.
    case consumer
    /// A person at a terminal (`plain`, `ansi`): nothing on stdout, the detail on stderr, exit 2.
    case person
    /// A program reading stdout (`json`, an adapter plugin's output): the reason there, exit 2.
    case program
}
