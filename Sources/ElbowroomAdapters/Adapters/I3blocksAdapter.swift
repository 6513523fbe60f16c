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

    func fullText(_ frame: RenderedFrame) -> String {
        SafeText.clean(frame.spans.plainText, lines: .join)
    }

    public func render(_ frame: RenderedFrame) -> AdapterOutput {
        let text = fullText(frame) + "\n" + frame.shortText
            + "\n" + frame.blockColor.hex + "\n"
        return AdapterOutput(text, exitCode: frame.level == .critical ? 33 : 0)
    }

    public func streamFrame(_ frame: RenderedFrame) -> String { fullText(frame) + "\n" }

    public func renderError(_ message: String) -> AdapterOutput {
        AdapterOutput("⚠ elbowroom\n⚠\n\(Color.named(.red).hex)\n", exitCode: 0)
    }

    public func streamError(_ message: String) -> String { "⚠ elbowroom\n" }
}

/// `i3blocks-json`: for a block with `format=json`: one i3bar block object per line
/// (`full_text`, `short_text`, `color`, `urgent`, and `"markup":"pango"` when needed), without
/// `name` so i3blocks keeps routing clicks by the block's own name. Urgency is the `urgent` key;
/// the exit status stays 0. Works one-shot and with `interval=persist`.
public struct I3blocksJSONAdapter: OutputAdapter {
    public init() {}
    public let name = "i3blocks-json"
    public let summary = "i3blocks format=json: one block object per line (persist-friendly)"

    public func render(_ frame: RenderedFrame) -> AdapterOutput {
        AdapterOutput(I3barAdapter.block(frame, includeName: false).encoded + "\n")
    }

    public func renderError(_ message: String) -> AdapterOutput {
        AdapterOutput(I3barAdapter.errorBlock(message, includeName: false).encoded + "\n", exitCode: 0)
    }
}
