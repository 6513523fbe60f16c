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

    /// The block, appended to `out` as JSON with its keys in order; `name` is left out for
    /// i3blocks, which routes clicks by the name in its own config. Returns the runs it was made
    /// from (an output keeps them: `AdapterOutput.madeFrom`). Written as bytes into one buffer,
    /// the markup through a second, as waybar's line is: no `JSONValue` pairs and no string per
    /// field that is freed once copied (`GrowingText`).
    @discardableResult
    static func block(_ frame: RenderedFrame, includeName: Bool = true, into out: inout [UInt8]) -> [StyledRun] {
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
        out.append(UInt8(ascii: "{"))
        if includeName { out.append(contentsOf: #""name":"elbowroom","#.utf8) }
        out.append(contentsOf: #""full_text":"#.utf8)
        var text: [UInt8] = []
        text.reserveCapacity(512)
        if needsMarkup {
            Pango.encode(runs, into: &text)
        } else {
            for run in runs { text.append(contentsOf: run.text.utf8) }
        }
        text.withUnsafeBufferPointer { JSONString.quote(bytes: $0, into: &out) }
        out.append(contentsOf: #","short_text":"#.utf8)
        JSONString.quote(needsMarkup ? Pango.escape(frame.shortText) : frame.shortText, into: &out)
        if let color {
            out.append(contentsOf: #","color":"#.utf8)
            JSONString.quote(color.hex, into: &out)
        }
        out.append(contentsOf: #","urgent":"#.utf8)
        out.append(contentsOf: (urgent ? "true" : "false").utf8)
        if needsMarkup { out.append(contentsOf: #","markup":"pango""#.utf8) }
        out.append(UInt8(ascii: "}"))
        return runs
    }

    /// The block as JSON text (`block(_:includeName:into:)`).
    static func block(_ frame: RenderedFrame, includeName: Bool = true) -> String {
        var out: [UInt8] = []
        block(frame, includeName: includeName, into: &out)
        return String(decoding: out, as: UTF8.self)
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
        var out: [UInt8] = [UInt8(ascii: "[")]
        out.reserveCapacity(1024)
        let runs = Self.block(frame, into: &out)
        out.append(contentsOf: "]\n".utf8)
        return AdapterOutput(bytes: out, madeFrom: runs)
    }

    public func streamHeader() -> String? { Self.header + "\n[\n" }

    public func streamFrame(_ frame: RenderedFrame) -> String {
        "[" + Self.block(frame) + "],\n"
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
