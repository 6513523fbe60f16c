// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// `plain`: the text with every style dropped and no escapes of any kind (control characters
/// are removed, so data cannot reach the terminal as escape sequences). Never coloured.
public struct PlainAdapter: OutputAdapter {
    public init() {}
    public let name = "plain"
    public let summary = "plain text, no colour, no escapes"

    public func render(_ frame: RenderedFrame) -> AdapterOutput {
        // Appended in place, and the line's text kept with the output (`GrowingText`).
        let plain = frame.spans.plainText
        var text = ""
        SafeText.clean(plain, lines: .keep, into: &text)
        // (`consume`: handed over, not copied, so its line break goes in place.)
        return AdapterOutput(consume text, madeFrom: [StyledRun(plain)])
    }

    /// Nothing on stdout: the CLI prints the detail on stderr.
    public var errorReader: ErrorReader { .person }

    public func renderError(_ message: String) -> AdapterOutput {
        AdapterOutput("", exitCode: 2)
    }
}
