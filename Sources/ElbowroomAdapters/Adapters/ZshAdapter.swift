// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// `zsh`: for `setopt prompt_subst; RPROMPT='$(elbowroom -a zsh)'`. The output is prompt-expanded
/// after substitution, so styles are zsh's own escapes and every literal `%` is `%%`; no raw
/// escape sequences at all, so zsh always knows the width.
///
/// | style | zsh |
/// |---|---|
/// | foreground / background | `%F{c}…%f` / `%K{c}…%k`; `c` = `red`…`white`, `8`–`15` for bright, `208`, `#rrggbb` |
/// | bold / underline | `%B…%b` / `%U…%u` |
/// | italic | not shown (zsh has no prompt escape for it) |
public struct ZshAdapter: OutputAdapter {
    public init() {}
    public let name = "zsh"
    public let summary = "zsh prompt (prompt_subst): %F{…} colours, % doubled"
    public var defaultColors: Palette.Colors { Palette.terminal }
    public var defaultThemes: [ConsumerTheme] { [.lightTerminal, .darkTerminal] }

    static func color(_ color: Color) -> String {
        switch color {
        case .named(let n): return n.index < 8 ? n.rawValue : String(n.index)
        case .palette(let i): return String(i)
        case .rgb: return color.hex
        }
    }

    public static func encode(_ runs: [StyledRun]) -> String {
        var out = ""
        for run in runs {
            var open = "", close = ""
            let s = run.style
            if s.bold { open += "%B"; close = "%b" + close }
            if s.underline { open += "%U"; close = "%u" + close }
            if let fg = s.foreground { open += "%F{\(color(fg))}"; close = "%f" + close }
            if let bg = s.background { open += "%K{\(color(bg))}"; close = "%k" + close }
            GrowingText.append(open, to: &out)
            ZshEscaping.escape(run.text, into: &out)
            GrowingText.append(close, to: &out)
        }
        return out
    }

    public var colorsReachATerminal: Bool { true }

    public func render(_ frame: RenderedFrame) -> AdapterOutput {
        let runs = frame.runs(frame.spans) { style in
            guard frame.useColor else { return .plain }
            var s = style
            s.italic = false
            return s
        }
        return AdapterOutput(Self.encode(runs), madeFrom: runs)
    }

    public var errorReader: ErrorReader { .consumer }

    public func renderError(_ message: String) -> AdapterOutput {
        AdapterOutput("%F{red}⚠ elbowroom%f\n", exitCode: 0)
    }
}
