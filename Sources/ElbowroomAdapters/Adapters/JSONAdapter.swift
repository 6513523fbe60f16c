// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// `json`: the view as one JSON object per line (shape documented in `ViewJSON`); the template is
/// not used. For scripts, `jq`, and anything not covered by another adapter.
public struct JSONAdapter: OutputAdapter {
    public init() {}
    public let name = "json"
    public let summary = "the numbers as JSON (status, level, windows…), one object per line"
    public var printsView: Bool { true }

    public func render(_ frame: RenderedFrame) -> AdapterOutput {
        if !frame.accounts.isEmpty {
            return AdapterOutput(ViewJSON.value(accounts: frame.accounts, level: frame.level, now: frame.view.now).encoded + "\n")
        }
        return AdapterOutput(ViewJSON.value(frame.view).encoded + "\n")
    }

    /// `{"error":"…","status":"error"}`: still JSON, so a `jq` pipeline does not choke.
    public var errorReader: ErrorReader { .program }

    public func renderError(_ message: String) -> AdapterOutput {
        let pairs: [(String, JSONValue)] = [("error", .string(SafeText.clean(message, lines: .keep))), ("status", .string("error"))]
        return AdapterOutput(JSONValue.object(pairs).encoded + "\n", exitCode: 2)
    }
}
