// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// `polybar`: `custom/script` shows the first line only (unless `tail = true`, which `watch`
/// feeds one line per update). Styles are polybar tags; no ANSI.
///
/// | style | polybar |
/// |---|---|
/// | foreground / background | `%{F#rrggbb}…%{F-}` / `%{B#rrggbb}…%{B-}` |
/// | underline | `%{+u}…%{-u}` (colour from `line-color`) |
/// | bold / italic | not shown (polybar switches fonts, not weights) |
///
/// `%{` in data cannot be escaped; it is broken with a zero width space (see `PolybarEscaping`).
public struct PolybarAdapter: OutputAdapter {
    public init() {}
    public let name = "polybar"
    public let summary = "polybar custom/script: %{F#…} colours, one line"
    public var defaultThemes: [ConsumerTheme] { [.polybarDefault] }

    public static func encode(_ runs: [StyledRun]) -> String {
        var out = ""
        for run in runs {
            var open = "", close = ""
            if let fg = run.style.foreground { open += "%{F\(fg.hex)}"; close = "%{F-}" + close }
            if let bg = run.style.background { open += "%{B\(bg.hex)}"; close = "%{B-}" + close }
            if run.style.underline { open += "%{+u}"; close = "%{-u}" + close }
            GrowingText.append(open, to: &out)
            PolybarEscaping.escape(run.text, into: &out)
            GrowingText.append(close, to: &out)
        }
        return out
    }

    public func render(_ frame: RenderedFrame) -> AdapterOutput {
        let runs = frame.runs(frame.spans) { var s = $0; s.bold = false; s.italic = false; return s }
        return AdapterOutput(Self.encode(runs), madeFrom: runs)
    }

    public var errorReader: ErrorReader { .consumer }

    public func renderError(_ message: String) -> AdapterOutput {
        // A badge, like critical: red text is 2.8:1 on polybar's default background.
        AdapterOutput("%{F\(Color.named(.brightWhite).hex)}%{B\(Color.named(.red).hex)}⚠ elbowroom%{B-}%{F-}\n", exitCode: 0)
    }
}
