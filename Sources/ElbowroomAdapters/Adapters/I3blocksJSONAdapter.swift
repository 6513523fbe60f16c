// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// `i3blocks-json`: for a block with `format=json`: one i3bar block object per line
/// (`full_text`, `short_text`, `color`, `urgent`, and `"markup":"pango"` when needed), without
/// `name` so i3blocks keeps routing clicks by the block's own name. Urgency is the `urgent` key;
/// the exit status stays 0. Works one-shot and with `interval=persist`.
public struct I3blocksJSONAdapter: OutputAdapter {
    public init() {}
    public let name = "i3blocks-json"
    public let summary = "i3blocks format=json: one block object per line (persist-friendly)"
    public var defaultThemes: [ConsumerTheme] { [.i3barDefault] }

    public func render(_ frame: RenderedFrame) -> AdapterOutput {
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        let runs = I3barAdapter.block(frame, includeName: false, into: &out)
        out.append(0x0A)
        return AdapterOutput(bytes: out, madeFrom: runs)
    }

    public var errorReader: ErrorReader { .consumer }

    public func renderError(_ message: String) -> AdapterOutput {
        AdapterOutput(I3barAdapter.errorBlock(message, includeName: false).encoded + "\n", exitCode: 0)
    }
}
