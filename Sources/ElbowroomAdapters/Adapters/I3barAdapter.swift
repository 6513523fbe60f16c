// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// `i3bar`: the i3bar/swaybar protocol for `status_command elbowroom watch -a i3bar`.
///
/// `watch` writes the header `{"version":1,"click_events":true,"stop_signal":12,"cont_signal":18}`
/// (SIGUSR2 to pause, SIGCONT to resume: catchable, and SIGUSR1 stays "refresh now"), then `[`,
/// then one `[{block}],` line per update. A one-shot `elbowroom -a i3bar` prints just `[{block}]`.
///
/// Block keys, in order: `name` (`elbowroom`), `full_text`, `short_text` (worst window only),
/// `color` (the level's colour; grey without data; left out for `"default"`), `urgent` (true when
/// critical: the bar then draws the block in its urgent colours, and the text's spans carry no
/// foreground of their own), and
/// `"markup":"pango"` only when the text needs more than the block colour (several colours, bold,
/// background) — then `full_text` and `short_text` are Pango with data escaped.
public struct I3barAdapter: OutputAdapter {
    public init() {}
    public let name = "i3bar"
    public let summary = "i3bar/swaybar protocol (use with watch): JSON blocks, click events"
    public var defaultThemes: [ConsumerTheme] { [.i3barDefault] }

    /// SIGUSR2 and SIGCONT by this platform's numbers (12 and 18 on Linux; not on the BSDs).
    public static let header = #"{"version":1,"click_events":true,"stop_signal":\#(SIGUSR2),"cont_signal":\#(SIGCONT)}"#

    /// The block as ordered key/value pairs; `name` is left out for i3blocks, which routes clicks
    /// by the name in its own config.
    static func block(_ frame: RenderedFrame, includeName: Bool = true) -> JSONValue {
        var runs = frame.singleLineRuns(frame.spans)
        let urgent = frame.level == .critical
        // An urgent block is drawn on the bar's urgent colours (white on #900000 by default)
        // and its `color` is not used; a span's own foreground would be, and the level colours
        // do not read there (ok green was 3.9:1). The bar's urgent text colour it is.
        if urgent {
            for i in runs.indices { runs[i].style.foreground = nil }
        }
        let color = frame.blockColor
        let needsMarkup = runs.contains { !$0.style.isPlain && $0.style != Style(foreground: color) }
        var pairs: [(String, JSONValue)] = []
        if includeName { pairs.append(("name", .string("elbowroom"))) }
        if needsMarkup {
            pairs.append(("full_text", .string(Pango.encode(runs))))
            pairs.append(("short_text", .string(Pango.escape(frame.shortText))))
        } else {
            pairs.append(("full_text", .string(runs.map { $0.text }.concatenated())))
            pairs.append(("short_text", .string(frame.shortText)))
        }
        if let color { pairs.append(("color", .string(color.hex))) }
        pairs.append(("urgent", .bool(urgent)))
        if needsMarkup { pairs.append(("markup", .string("pango"))) }
        return .object(pairs)
    }

    static func errorBlock(_ message: String, includeName: Bool = true) -> JSONValue {
        var pairs: [(String, JSONValue)] = []
        if includeName { pairs.append(("name", .string("elbowroom"))) }
        pairs += [
            ("full_text", .string("⚠ elbowroom: " + SafeText.firstLine(message))),
            ("short_text", .string("⚠ elbowroom")),
            ("color", .string(Color.named(.red).hex)),
            ("urgent", .bool(false)),
        ]
        return .object(pairs)
    }

    public func render(_ frame: RenderedFrame) -> AdapterOutput {
        AdapterOutput("[" + Self.block(frame).encoded + "]\n")
    }

    public func streamHeader() -> String? { Self.header + "\n[\n" }

    public func streamFrame(_ frame: RenderedFrame) -> String {
        "[" + Self.block(frame).encoded + "],\n"
    }

    /// A red block with the reason.
    public var errorReader: ErrorReader { .consumer }

    public func renderError(_ message: String) -> AdapterOutput {
        AdapterOutput("[" + Self.errorBlock(message).encoded + "]\n", exitCode: 0)
    }

    public func streamError(_ message: String) -> String {
        "[" + Self.errorBlock(message).encoded + "],\n"
    }
}
