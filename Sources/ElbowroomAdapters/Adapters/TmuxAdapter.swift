// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// `tmux`: for `#(elbowroom -a tmux)` in `status-right`. tmux format-expands the output, so styles
/// are `#[…]` and every literal `#` is `##`; ANSI is not interpreted. One line.
///
/// | style | tmux |
/// |---|---|
/// | colours | `fg=red`, `fg=brightred`, `fg=colour208`, `fg=#rrggbb`; `bg=…` likewise |
/// | bold / italic / underline | `bold` / `italics` / `underscore` |
/// | end of a styled run | `#[default]` |
///
/// Colours (`Palette.tmux`): tmux's default status bar is black on green, where green text is
/// invisible and yellow, red and grey are faint (1.3-2.7:1), so ok, stale and dim keep the
/// status style's colour and warn and critical are badges, black on yellow and white on red,
/// which read on any status style (`[colors.tmux] ok = "green"` brings green back on a dark one).
public struct TmuxAdapter: OutputAdapter {
    public init() {}
    public let name = "tmux"
    public let summary = "tmux status line: #[fg=…] styles, # doubled"

    public var defaultColors: Palette.Colors { Palette.tmux }
    public var defaultThemes: [ConsumerTheme] { [.tmuxDefault] }

    static func color(_ color: Color) -> String {
        switch color {
        case .named(let n): return n.index < 8 ? n.rawValue : "bright" + NamedColor.allCases[n.index - 8].rawValue
        case .palette(let i): return "colour\(i)"
        case .rgb: return color.hex
        }
    }

    public static func encode(_ runs: [StyledRun]) -> String {
        var out = ""
        for run in runs {
            var attrs: [String] = []
            if let fg = run.style.foreground { attrs.append("fg=" + color(fg)) }
            if let bg = run.style.background { attrs.append("bg=" + color(bg)) }
            if run.style.bold { attrs.append("bold") }
            if run.style.italic { attrs.append("italics") }
            if run.style.underline { attrs.append("underscore") }
            if !attrs.isEmpty { GrowingText.append("#[" + attrs.concatenated(separator: ",") + "]", to: &out) }
            TmuxEscaping.escape(run.text, into: &out)
            if !attrs.isEmpty { GrowingText.append("#[default]", to: &out) }
        }
        return out
    }

    public func render(_ frame: RenderedFrame) -> AdapterOutput {
        let runs = frame.runs(frame.spans)
        return AdapterOutput(Self.encode(runs), madeFrom: runs)
    }

    public var errorReader: ErrorReader { .consumer }

    public func renderError(_ message: String) -> AdapterOutput {
        AdapterOutput("#[fg=brightwhite,bg=red]⚠ elbowroom#[default]\n", exitCode: 0)
    }
}
