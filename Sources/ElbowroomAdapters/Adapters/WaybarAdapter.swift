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
        var out = line(frame)
        out.append(0x0A)
        return AdapterOutput(bytes: out)
    }

    /// The JSON object, as bytes, written field by field into one buffer: the markup straight
    /// into its JSON string (`Pango.encode(_:of:into:json:)`), with no `JSONValue` pairs, no
    /// string per field or per run, and no second pass to quote it (a tooltip is most of a bar's
    /// output).
    func line(_ frame: RenderedFrame) -> [UInt8] {
        // Room for it all at once: the text, a tag's worth for each span, and the fields.
        var size = 256
        for span in frame.spans { size += span.text.utf8.count + 32 }
        for span in frame.tooltip { size += span.text.utf8.count + 32 }
        var out: [UInt8] = []
        out.reserveCapacity(size)
        out.append(contentsOf: "{\"text\":\"".utf8)
        Pango.encode(frame.singleLineRuns(frame.spans), into: &out, json: true)
        out.append(contentsOf: "\",\"alt\":".utf8)
        JSONString.quote(frame.status.rawValue, into: &out)
        out.append(contentsOf: ",\"tooltip\":\"".utf8)
        Pango.encode(frame.tooltip, of: frame, into: &out, json: true)
        out.append(0x22)
        out.append(contentsOf: ",\"class\":".utf8)
        // The level, then `stale` when stale, then the status when it is neither ok nor stale.
        let stale = frame.view.isStale
        let status = frame.status != .ok && frame.status != .stale
        if !stale && !status {
            JSONString.quote(frame.level.rawValue, into: &out)
        } else {
            out.append(0x5B)
            JSONString.quote(frame.level.rawValue, into: &out)
            if stale { out.append(contentsOf: ",\"stale\"".utf8) }
            if status {
                out.append(0x2C)
                JSONString.quote(frame.status.rawValue, into: &out)
            }
            out.append(0x5D)
        }
        if let percentage = frame.percentage {
            out.append(contentsOf: ",\"percentage\":".utf8)
            out.append(contentsOf: JSONNumber.format(percentage.rounded(PercentText.rule)).utf8)
        }
        out.append(0x7D)
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
