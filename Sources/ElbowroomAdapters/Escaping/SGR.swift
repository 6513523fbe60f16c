// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// ANSI SGR (Select Graphic Rendition) for ansi, fish, claude and (wrapped) bash.
///
/// | style | parameters |
/// |---|---|
/// | bold / italic / underline | `1` / `3` / `4` |
/// | named colour 0–7, 8–15 | fg `30–37`, `90–97`; bg `40–47`, `100–107` |
/// | 256-colour index n | fg `38;5;n`; bg `48;5;n` |
/// | `#rrggbb` | fg `38;2;r;g;b`; bg `48;2;r;g;b` |
///
/// Each styled run opens with one sequence and closes with `ESC[0m`; plain runs get nothing.
/// Text is cleaned (`SafeText`) and a tab becomes a space: the terminal moves a tab up to eight
/// columns, and a prompt's line editor that counts it otherwise (readline counts one) puts the
/// cursor in the wrong place; Claude Code's status line measures it differently again.
public enum SGR {
    public static let escape = "\u{1B}["
    public static let reset = "\u{1B}[0m"

    public static func parameters(_ style: Style) -> [String] {
        var p: [String] = []
        if style.bold { p.append("1") }
        if style.italic { p.append("3") }
        if style.underline { p.append("4") }
        if let fg = style.foreground { p.append(color(fg, background: false)) }
        if let bg = style.background { p.append(color(bg, background: true)) }
        return p
    }

    public static func color(_ color: Color, background: Bool) -> String {
        switch color {
        case .named(let n):
            let i = n.index
            return String((i < 8 ? 30 + i : 90 + i - 8) + (background ? 10 : 0))
        case .palette(let n): return "\(background ? 48 : 38);5;\(n)"
        case .rgb(let r, let g, let b): return "\(background ? 48 : 38);2;\(r);\(g);\(b)"
        }
    }

    /// The runs as text with SGR; `wrap` surrounds every escape sequence (bash's 0x01…0x02).
    public static func encode(_ runs: [StyledRun], wrap: (String) -> String = { $0 }) -> String {
        var out = ""
        for run in runs {
            let p = parameters(run.style)
            if !p.isEmpty { GrowingText.append(wrap(escape + p.concatenated(separator: ";") + "m"), to: &out) }
            SafeText.clean(run.text, lines: .keep, into: &out) { $0 == "\t" ? " " : nil }
            if !p.isEmpty { GrowingText.append(wrap(reset), to: &out) }
        }
        return out
    }
}
