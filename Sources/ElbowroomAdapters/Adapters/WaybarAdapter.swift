// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// `waybar`: a `custom/…` module with `"return-type": "json"`. One JSON object per line, keys in
/// this order:
///
/// | key | value |
/// |---|---|
/// | `text` | the template as Pango markup (data escaped, styles as `<span foreground=…>`), one line |
/// | `alt` | the status (`ok`, `stale`, `offline`, `rate_limited`, `expired`, `signed_out`, `loading`) |
/// | `tooltip` | the tooltip template as Pango markup; newlines kept (`\n` in JSON) |
/// | `class` | the level (`ok`/`warn`/`critical`), plus `stale` when stale, plus the status when it is neither `ok` nor `stale`; a string when one, else an array |
/// | `percentage` | percent used of the worst window, a whole number; absent without data |
///
/// Do not set `"escape": true` in the module: the text is already markup.
public struct WaybarAdapter: OutputAdapter {
    public init() {}
    public let name = "waybar"
    public let summary = "waybar custom module (return-type json): Pango text, tooltip, class"
    public var defaultThemes: [ConsumerTheme] { [.waybarDefault] }
    public var defaultTooltipTemplate: String? { "tooltip" }

    public func render(_ frame: RenderedFrame) -> AdapterOutput {
        AdapterOutput(line(frame) + "\n")
    }

    func line(_ frame: RenderedFrame) -> String {
        // Written field by field, not through `JSONValue`: the same JSON, without an array of
        // (key, value) pairs built on every render.
        var out = "{\"text\":"
        out += JSONString.quote(Pango.encode(frame.singleLineRuns(frame.spans)))
        out += ",\"alt\":"
        out += JSONString.quote(frame.status.rawValue)
        out += ",\"tooltip\":"
        out += JSONString.quote(Pango.encode(frame.runs(frame.tooltip)))
        out += ",\"class\":"
        // The level, then `stale` when stale, then the status when it is neither ok nor stale.
        let stale = frame.view.isStale
        let status = frame.status != .ok && frame.status != .stale
        if !stale && !status {
            out += JSONString.quote(frame.level.rawValue)
        } else {
            out += "[" + JSONString.quote(frame.level.rawValue)
            if stale { out += ",\"stale\"" }
            if status { out += "," + JSONString.quote(frame.status.rawValue) }
            out += "]"
        }
        if let percentage = frame.percentage {
            out += ",\"percentage\":"
            out += JSONNumber.format(percentage.rounded(PercentText.rule))
        }
        out += "}"
        return out
    }

    /// Visible in the bar, with the reason in the tooltip; class `error` for styling.
    public var errorReader: ErrorReader { .consumer }

    public func renderError(_ message: String) -> AdapterOutput {
        let pairs: [(String, JSONValue)] = [
            ("text", .string("⚠ elbowroom")),
            ("tooltip", .string(Pango.escape(message))),
            ("class", .string("error")),
        ]
        return AdapterOutput(JSONValue.object(pairs).encoded + "\n", exitCode: 0)
    }
}
