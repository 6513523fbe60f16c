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

    /// `encode(_:)`, appended to `out`; with `json`, as the inside of a JSON string (see
    /// `escape(bytes:into:afterCR:json:)`).
    static func encode(_ runs: [StyledRun], into out: inout [UInt8], json: Bool = false) {
        for run in runs {
            let open = openTag(run.style, into: &out, json: json)
            var afterCR = false
            appendEscaped(run.text, into: &out, afterCR: &afterCR, json: json)
            if open { out.append(contentsOf: "</span>".utf8) }
        }
    }

    /// `encode(frame.runs(spans))` appended to `out`, without building the runs: each span's style
    /// resolved through the frame's palette, and spans of the same resolved style written as one
    /// run (one tag around them, escaped as one text). A waybar tooltip is most of a bar's output;
    /// through runs, every run's text was copied twice more on the way out.
    static func encode(_ spans: [Span], of frame: RenderedFrame, into out: inout [UInt8], json: Bool = false) {
        var current: Style?
        var open = false
        var afterCR = false
        for span in spans where !span.text.isEmpty {
            let style = frame.palette.resolve(span.style)
            if style != current {
                if open { out.append(contentsOf: "</span>".utf8) }
                open = openTag(style, into: &out, json: json)
                current = style
                afterCR = false
            }
            appendEscaped(span.text, into: &out, afterCR: &afterCR, json: json)
        }
        if open { out.append(contentsOf: "</span>".utf8) }
    }

    /// Appends the `<span …>` for `style`; `false` (and nothing) when it has no attribute. With
    /// `json`, its quotes as `\"`.
    private static func openTag(_ style: Style, into out: inout [UInt8], json: Bool) -> Bool {
        guard style.foreground != nil || style.background != nil || style.bold || style.italic || style.underline else {
            return false
        }
        func quote() {
            if json { out.append(0x5C) }
            out.append(0x22)
        }
        func append(_ text: StaticString) {
            out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }
        /// ` name="`
        func open(_ name: StaticString) {
            out.append(0x20)
            append(name)
            out.append(0x3D)
            quote()
        }
        append("<span")
        if let fg = style.foreground { open("foreground"); fg.appendHex(to: &out); quote() }
        if let bg = style.background { open("background"); bg.appendHex(to: &out); quote() }
        if style.bold { open("weight"); append("bold"); quote() }
        if style.italic { open("style"); append("italic"); quote() }
        if style.underline { open("underline"); append("single"); quote() }
        out.append(0x3E)
        return true
    }

    private static func appendEscaped(_ text: String, into out: inout [UInt8], afterCR: inout Bool, json: Bool) {
        var text = text  // (`withUTF8` copies only a string that is not contiguous UTF-8 already)
        text.withUTF8 { escape(bytes: $0, into: &out, afterCR: &afterCR, json: json) }
    }
}

extension RenderedFrame {
    /// Runs for one-line bars: newlines in the text become spaces.
    func singleLineRuns(_ spans: [Span]) -> [StyledRun] {
        runs(spans).map { StyledRun(SafeText.clean($0.text, lines: .join), style: $0.style) }
    }
}
