import ElbowroomCore

extension Pango {
    /// Runs as Pango markup: a styled run becomes
    /// `<span foreground="#rrggbb" background="#rrggbb" weight="bold" style="italic" underline="single">`
    /// (only the attributes it has); text is always escaped.
    public static func encode(_ runs: [StyledRun]) -> String {
        var out = ""
        for run in runs {
            var attrs: [String] = []
            if let fg = run.style.foreground { attrs.append("foreground=\"\(fg.hex)\"") }
            if let bg = run.style.background { attrs.append("background=\"\(bg.hex)\"") }
            if run.style.bold { attrs.append("weight=\"bold\"") }
            if run.style.italic { attrs.append("style=\"italic\"") }
            if run.style.underline { attrs.append("underline=\"single\"") }
            let text = escape(run.text)
            out += attrs.isEmpty ? text : "<span " + attrs.joined(separator: " ") + ">" + text + "</span>"
        }
        return out
    }
}

extension RenderedFrame {
    /// Runs for one-line bars: newlines in the text become spaces.
    func singleLineRuns(_ spans: [Span]) -> [StyledRun] {
        runs(spans).map { StyledRun(text: SafeText.clean($0.text, lines: .join), style: $0.style) }
    }
}
