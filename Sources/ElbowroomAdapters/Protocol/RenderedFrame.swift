// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// Whether plain-text adapters (`plain`, `ansi`) may colour: `--color auto|always|never`.
/// Bar and prompt adapters always style (their consumer is never a TTY).
public enum ColorMode: String, Sendable, CaseIterable {
    case auto, always, never

    /// `NO_COLOR` (non-empty) disables colour, `CLICOLOR_FORCE` (non-empty, not `0`) forces it;
    /// an explicit `always`/`never` wins over both; otherwise colour only on a TTY.
    public func allowsColor(environment: ElbowroomEnvironment, isTTY: Bool) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            if environment["NO_COLOR"] != nil { return false }
            if let force = environment["CLICOLOR_FORCE"], force != "0" { return true }
            return isTTY
        }
    }
}

/// Everything an adapter gets for one render: the styled text from the template, the tooltip,
/// and the computed view behind them. One value in, a string out (as swift-log's LogHandler), so
/// fields can be added without touching every adapter.
public struct RenderedFrame: Sendable {
    /// The main text, from the adapter's template.
    public var spans: [Span]
    /// The tooltip / dropdown text (waybar tooltip, swiftbar dropdown); may be empty.
    public var tooltip: [Span]
    /// The numbers, status and windows behind the text.
    public var view: UsageView
    /// Maps semantic styles (ok / warn / critical / stale / dim) to colours.
    public var palette: Palette
    /// Resolved `--color` for adapters where colour is optional (plain, ansi).
    public var useColor: Bool
    /// Several accounts side by side, in config order (empty for one): `view` is then the one
    /// whose level is the worst, so `level`, the bar's class and icons follow the worst account.
    public var accounts: [AccountView] = []

    public init(spans: [Span], tooltip: [Span] = [], view: UsageView, palette: Palette = Palette(),
                useColor: Bool = true) {
        self.spans = spans
        self.tooltip = tooltip
        self.view = view
        self.palette = palette
        self.useColor = useColor
    }

    public var level: Level { view.level }
    public var status: DisplayStatus { view.status }
    /// Percent used of the window with the least headroom, else of a spend that is the
    /// account's limit (may pass 100): waybar's `percentage`.
    public var percentage: Double? { view.headlinePercent }
}

/// What an adapter produces: the bytes to print and the exit status (`i3blocks` exits 33 when
/// critical, its "urgent" code).
public struct AdapterOutput: Sendable, Equatable {
    /// The output as text. An adapter that writes its output as bytes (waybar's JSON) makes a
    /// `String` of them only when this is read: a render writes the bytes as they are
    /// (`bytes`), where a `String` of a three-account tooltip cost ~19 k
    /// instructions of UTF-8 validation.
    public var text: String {
        get { bytes.map { String(decoding: $0, as: UTF8.self) } ?? stored }
        set { stored = newValue; bytes = nil }
    }
    public var exitCode: Int32
    /// What is printed, when the adapter wrote bytes (valid UTF-8: the adapter's job); a writer
    /// writes these as they are when there are some, else `text`.
    public private(set) var bytes: [UInt8]?
    private var stored: String
    /// The runs `text` was made from, kept as long as the output (a one-shot render keeps that to
    /// its exit): freed, a merged run of 64 bytes or more costs ~31 k instructions
    /// (`GrowingText`). Not part of equality.
    var madeFrom: [StyledRun] = []

    public init(_ text: String, exitCode: Int32 = 0) {
        stored = text
        self.exitCode = exitCode
    }

    /// Output written as UTF-8 bytes (from `runs`, kept as `madeFrom` is).
    init(bytes: [UInt8], madeFrom runs: [StyledRun] = [], exitCode: Int32 = 0) {
        stored = ""
        self.bytes = bytes
        self.exitCode = exitCode
        madeFrom = runs
    }

    /// `text` made from `runs`, with a final line break when `line` (appended in place, not a
    /// second string: `text` is taken, not copied, so the caller's last use leaves it unique).
    init(_ text: consuming String, madeFrom runs: [StyledRun], line: Bool = true, exitCode: Int32 = 0) {
        if line { GrowingText.append("\n", to: &text) }
        self.init(text, exitCode: exitCode)
        madeFrom = runs
    }

    public static func == (a: AdapterOutput, b: AdapterOutput) -> Bool {
        a.text == b.text && a.exitCode == b.exitCode
    }
}
