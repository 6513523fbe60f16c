import HeadroomCore

/// `fish`: `fish_prompt` / `fish_right_prompt` print plain ANSI; fish measures the width itself.
public struct FishAdapter: OutputAdapter {
    public init() {}
    public let name = "fish"
    public let summary = "fish prompt: ANSI colours"

    public func render(_ frame: RenderedFrame) -> AdapterOutput {
        AdapterOutput(SGR.encode(frame.runs(frame.spans)) + "\n")
    }

    public func renderError(_ message: String) -> AdapterOutput {
        AdapterOutput(SGR.escape + "31m⚠hr" + SGR.reset + "\n", exitCode: 0)
    }
}
