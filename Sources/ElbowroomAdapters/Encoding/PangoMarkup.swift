// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

extension Pango {
    /// Runs as Pango markup: a styled run becomes
    /// `<span foreground="#rrggbb" background="#rrggbb" weight="bold" style="italic" underline="single">`
    /// (only the attributes it has); text is always escaped.
    public static func encode(_ runs: [StyledRun]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        encode(runs, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `encode(_:)`, appended to `out`.
    static func encode(_ runs: [StyledRun], into out: inout [UInt8]) {
        for run in runs {
            let open = openTag(run.style, into: &out)
            var afterCR = false
            appendEscaped(run.text, into: &out, afterCR: &afterCR)
            if open { out.append(contentsOf: "</span>".utf8) }
        }
    }

    /// `encode(frame.runs(spans))` appended to `out`, without building the runs: each span's style
    /// resolved through the frame's palette, and spans of the same resolved style written as one
    /// run (one tag around them, escaped as one text). A waybar tooltip is most of a bar's output;
    /// through runs, every run's text was copied twice more on the way out.
    static func encode(_ spans: [Span], of frame: RenderedFrame, into out: inout [UInt8]) {
        var current: Style?
        var open = false
        var afterCR = false
        for span in spans where !span.text.isEmpty {
            let style = frame.palette.resolve(span.style)
            if style != current {
                if open { out.append(contentsOf: "</span>".utf8) }
                open = openTag(style, into: &out)
                current = style
                afterCR = false
            }
            appendEscaped(span.text, into: &out, afterCR: &afterCR)
        }
        if open { out.append(contentsOf: "</span>".utf8) }
    }

    /// Appends the `<span …>` for `style`; `false` (and nothing) when it has no attribute.
    private static func openTag(_ style: Style, into out: inout [UInt8]) -> Bool {
        guard style.foreground != nil || style.background != nil || style.bold || style.italic || style.underline else {
            return false
        }
        out.append(contentsOf: "<span".utf8)
        if let fg = style.foreground { out.append(contentsOf: " foreground=\"".utf8); fg.appendHex(to: &out); out.append(0x22) }
        if let bg = style.background { out.append(contentsOf: " background=\"".utf8); bg.appendHex(to: &out); out.append(0x22) }
        if style.bold { out.append(contentsOf: " weight=\"bold\"".utf8) }
        if style.italic { out.append(contentsOf: " style=\"italic\"".utf8) }
        if style.underline { out.append(contentsOf: " underline=\"single\"".utf8) }
        out.append(0x3E)
        return true
    }

    private static func appendEscaped(_ text: String, into out: inout [UInt8], afterCR: inout Bool) {
        var text = text  // (`withUTF8` copies only a string that is not contiguous UTF-8 already)
        text.withUTF8 { escape(bytes: $0, into: &out, afterCR: &afterCR) }
    }
}

extension RenderedFrame {
    /// Runs for one-line bars: newlines in the text become spaces.
    func singleLineRuns(_ spans: [Span]) -> [StyledRun] {
        runs(spans).map { StyledRun(SafeText.clean($0.text, lines: .join), style: $0.style) }
    }
}
