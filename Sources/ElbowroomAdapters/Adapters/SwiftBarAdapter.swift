// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// `swiftbar`: a SwiftBar / xbar plugin. First the menu bar title (the template, one title line
/// per template line, `|` replaced by `│`, ` | color=#rrggbb` added when the level is warn or
/// critical), then `---`, then the dropdown: one line per tooltip-template line (coloured with
/// the line's first colour), or per window when there is no tooltip, the error if any, and a
/// `Refresh` item. In `watch` each frame starts with `~~~` (SwiftBar streamable plugins).
public struct SwiftBarAdapter: OutputAdapter {
    public init() {}
    public let name = "swiftbar"
    public let summary = "SwiftBar/xbar plugin: title, ---, dropdown; ~~~ frames in watch"
    public var defaultColors: Palette.Colors { Palette.menuBar }
    public var defaultThemes: [ConsumerTheme] { [.lightMenuBar, .darkMenuBar] }
    public var defaultTooltipTemplate: String? { "tooltip" }

    /// The runs cut into lines at every line break (CRLF, U+2028 … included: `SafeText`), each
    /// with the colour of its first non-empty run.
    static func lines(_ runs: [StyledRun]) -> [(text: String, color: Color?)] {
        var lines: [(text: String, color: Color?)] = [("", nil)]
        for run in runs {
            for scalar in SafeText.clean(run.text, lines: .keep).unicodeScalars {
                if scalar == "\n" { lines.append(("", nil)); continue }
                lines[lines.count - 1].text.unicodeScalars.append(scalar)
                if lines[lines.count - 1].color == nil { lines[lines.count - 1].color = run.style.foreground }
            }
        }
        return lines
    }

    public func render(_ frame: RenderedFrame) -> AdapterOutput {
        var out = ""
        let titleColor = frame.level == .ok ? "" : frame.color(for: frame.level).map { " | color=" + $0.hex } ?? ""
        for line in Self.lines(frame.runs(frame.spans)) where !line.text.isEmpty {
            out += SwiftBarEscaping.line(line.text) + titleColor + "\n"
        }
        if out.isEmpty { out = "elbowroom" + titleColor + "\n" }
        out += "---\n"
        if frame.tooltip.isEmpty {
            for w in frame.view.windows {
                out += SwiftBarEscaping.line("\(w.label): \(PercentText.whole(frame.view.display == .used ? w.used : w.left))% \(frame.view.display.rawValue)")
                    + (frame.color(for: w.level).map { " | color=" + $0.hex } ?? "") + "\n"
            }
        } else {
            for line in Self.lines(frame.runs(frame.tooltip)) where !line.text.isEmpty {
                out += SwiftBarEscaping.line(line.text) + (line.color.map { " | color=" + $0.hex } ?? "") + "\n"
            }
        }
        if let error = frame.view.error {
            out += SwiftBarEscaping.line("⚠ " + error) + (frame.color(for: .critical).map { " | color=" + $0.hex } ?? "") + "\n"
        }
        out += "---\nRefresh | refresh=true\n"
        return AdapterOutput(out)
    }

    public func streamFrame(_ frame: RenderedFrame) -> String { "~~~\n" + render(frame).text }

    public var errorReader: ErrorReader { .consumer }

    public func renderError(_ message: String) -> AdapterOutput {
        let red = Color.named(.red).hex
        return AdapterOutput("⚠ elbowroom | color=\(red)\n---\n" + SwiftBarEscaping.line(message) + "\n", exitCode: 0)
    }

    public func streamError(_ message: String) -> String { "~~~\n" + renderError(message).text }
}
