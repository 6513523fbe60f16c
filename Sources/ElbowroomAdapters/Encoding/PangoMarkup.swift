// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

extension Pango {
    /// Runs as Pango markup: a styled run becomes
    /// `<span foreground="#rrggbb" background="#rrggbb" weight="bold" style="italic" underline="single">`
    /// (only the attributes it has); text is always escaped.
    public static func encode(_ runs: [StyledRun]) -> String {
        // Appended in place, no array of attributes or interpolation: this runs on every waybar
        // render, over every run of the tooltip.
        var out = ""
        for run in runs {
            let style = run.style
            guard style.foreground != nil || style.background != nil || style.bold || style.italic || style.underline else {
                out += escape(run.text)
                continue
            }
            out += "<span"
            if let fg = style.foreground { out += " foreground=\""; out += fg.hex; out += "\"" }
            if let bg = style.background { out += " background=\""; out += bg.hex; out += "\"" }
            if style.bold { out += " weight=\"bold\"" }
            if style.italic { out += " style=\"italic\"" }
            if style.underline { out += " underline=\"single\"" }
            out += ">"
            out += escape(run.text)
            out += "</span>"
        }
        return out
    }
}

extension RenderedFrame {
    /// Runs for one-line bars: newlines in the text become spaces.
    func singleLineRuns(_ spans: [Span]) -> [StyledRun] {
        runs(spans).map { StyledRun(SafeText.clean($0.text, lines: .join), style: $0.style) }
    }
}
