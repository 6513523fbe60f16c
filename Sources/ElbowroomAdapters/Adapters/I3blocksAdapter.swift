// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// `i3blocks`: the raw format, three lines `full_text`, `short_text`, `color`, and exit status 33
/// when critical (i3blocks' "urgent"). Plain text: leave the block's `markup` unset. With
/// `interval=persist` (`elbowroom watch -a i3blocks`) i3blocks reads one `full_text` per line, so
/// each update is that one line — use `i3blocks-json` there to keep the colour.
public struct I3blocksAdapter: OutputAdapter {
    public init() {}
    public let name = "i3blocks"
    public let summary = "i3blocks raw lines (full_text, short_text, color); exit 33 when critical"
    public var defaultThemes: [ConsumerTheme] { [.i3barDefault] }

    func fullText(_ frame: RenderedFrame) -> String {
        SafeText.clean(frame.spans.plainText, lines: .join)
    }

    public func render(_ frame: RenderedFrame) -> AdapterOutput {
        // Appended in place, and the line's plain text kept with the output (`GrowingText`).
        let plain = frame.spans.plainText
        var text = ""
        SafeText.clean(plain, lines: .join, into: &text)
        for part in ["\n", frame.shortText, "\n", frame.blockColor?.hex ?? "", "\n"] { GrowingText.append(part, to: &text) }
        return AdapterOutput(text, madeFrom: [StyledRun(plain)], line: false, exitCode: frame.level == .critical ? 33 : 0)
    }

    public func streamFrame(_ frame: RenderedFrame) -> String { fullText(frame) + "\n" }

    public var errorReader: ErrorReader { .consumer }

    public func renderError(_ message: String) -> AdapterOutput {
        AdapterOutput("⚠ elbowroom\n⚠\n\(Color.named(.red).hex)\n", exitCode: 0)
    }

    public func streamError(_ message: String) -> String { "⚠ elbowroom\n" }
}
