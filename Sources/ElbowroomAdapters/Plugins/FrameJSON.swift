import ElbowroomCore

/// What a plugin reads on stdin: one JSON object (keys sorted), then EOF.
///
/// | key | value |
/// |---|---|
/// | `protocol` | `1` |
/// | `adapter` | the plugin's name |
/// | `mode` | `render` (one-shot) or `stream` (one frame of `watch`) |
/// | `text` | the template's text, no styles |
/// | `spans` | `[{text, fg, bg, bold, italic, underline}]`, colours resolved to `#rrggbb` or `null` |
/// | `tooltip_text`, `tooltip` | the same for the tooltip template |
/// | `level`, `status` | as in the `json` adapter |
/// | `percentage` | percent used of the worst window, or `null` |
/// | `view` | exactly the `json` adapter's object (with several accounts: the worst account's) |
/// | `accounts` | only with several `[accounts.NAME]`: the `json` adapter's `accounts` array |
///
/// Nothing in a frame carries a credential, and none is added here. Texts come without controls
/// or bidi controls (`SafeText`), newlines kept: a plugin that prints them as they are cannot
/// send an escape sequence from the data to its consumer.
public enum FrameJSON {
    public static let protocolVersion = 1

    static func spans(_ runs: [StyledRun]) -> JSONValue {
        .array(runs.map { run in
            .object([
                ("bg", .string(run.style.background?.hex)),
                ("bold", .bool(run.style.bold)),
                ("fg", .string(run.style.foreground?.hex)),
                ("italic", .bool(run.style.italic)),
                ("text", .string(SafeText.clean(run.text, lines: .keep))),
                ("underline", .bool(run.style.underline)),
            ])
        })
    }

    public static func value(_ frame: RenderedFrame, adapter: String, mode: String) -> JSONValue {
        var pairs: [(String, JSONValue)] = frame.accounts.isEmpty ? [] : [
            ("accounts", ViewJSON.value(accounts: frame.accounts, level: frame.level, now: frame.view.now).field("accounts")),
        ]
        pairs += [
            ("adapter", .string(adapter)),
            ("level", .string(frame.level.rawValue)),
            ("mode", .string(mode)),
            ("percentage", .number(frame.percentage.map { JSONNumber.rounded($0, places: 2) })),
            ("protocol", .number(Double(protocolVersion))),
            ("spans", spans(frame.runs(frame.spans))),
            ("status", .string(frame.status.rawValue)),
            ("text", .string(SafeText.clean(frame.spans.plainText, lines: .keep))),
            ("tooltip", spans(frame.runs(frame.tooltip))),
            ("tooltip_text", .string(SafeText.clean(frame.tooltip.plainText, lines: .keep))),
            ("view", ViewJSON.value(frame.view)),
        ]
        return .object(pairs)
    }
}
