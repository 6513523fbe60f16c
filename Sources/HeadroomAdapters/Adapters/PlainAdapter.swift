import HeadroomCore

/// `plain`: the text with no escapes at all (placeholder until the adapters issue lands).
public struct PlainAdapter: OutputAdapter {
    public init() {}
    public let name = "plain"
    public let summary = "plain text, no escapes"
    public func render(_ frame: RenderedFrame) -> AdapterOutput {
        AdapterOutput(frame.spans.plainText + "\n")
    }
}
