// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
/// The semantic styles templates use; each adapter maps them to its consumer's colours through
/// the `[colors]` config.
public enum SemanticStyle: String, Sendable, CaseIterable, Codable {
    case ok, warn, critical, stale, dim

    public init(_ level: Level) {
        switch level {
        case .ok: self = .ok
        case .warn: self = .warn
        case .critical: self = .critical
        }
    }
}

/// A colour as written in a style: a name (`red`, `bright_blue`, `grey`), `#rrggbb`, or a 256-colour
/// index (`208`).
public enum Color: Sendable, Equatable, Codable {
    case named(NamedColor)
    case rgb(UInt8, UInt8, UInt8)
    case palette(UInt8)

    /// The `#rrggbb` form every consumer that wants hex colours gets (named colours map to the
    /// xterm defaults).
    public var hex: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(7)
        appendHex(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `hex`, appended as UTF-8 (an encoder writing bytes needs no string of its own for it).
    public func appendHex(to bytes: inout [UInt8]) {
        let (r, g, b) = rgbComponents
        // By hand: `map` + `joined` + `String(radix:)` cost a waybar render 0.2 M instructions.
        func digit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10 }
        bytes.append(UInt8(ascii: "#"))
        for component in [r, g, b] {
            bytes.append(digit(component >> 4))
            bytes.append(digit(component & 15))
        }
    }

    public var rgbComponents: (UInt8, UInt8, UInt8) {
        switch self {
        case .rgb(let r, let g, let b): return (r, g, b)
        case .named(let n): return n.rgb
        case .palette(let i):
            if i < 16 { return NamedColor.allCases[Int(i)].rgb }
            if i >= 232 { let v = UInt8(8 + Int(i - 232) * 10); return (v, v, v) }
            let n = Int(i) - 16
            let steps: [UInt8] = [0, 95, 135, 175, 215, 255]
            return (steps[n / 36], steps[n / 6 % 6], steps[n % 6])
        }
    }
}

/// The sixteen terminal colours, in ANSI order.
public enum NamedColor: String, Sendable, CaseIterable, Codable {
    case black, red, green, yellow, blue, magenta, cyan, white
    case brightBlack = "bright_black", brightRed = "bright_red", brightGreen = "bright_green"
    case brightYellow = "bright_yellow", brightBlue = "bright_blue", brightMagenta = "bright_magenta"
    case brightCyan = "bright_cyan", brightWhite = "bright_white"

    /// 0…15, the ANSI index (a test holds it equal to the position in `allCases`; a `switch`,
    /// because searching `allCases` costs a render its first use of `[NamedColor]`).
    public var index: Int {
        switch self {
        case .black: 0
        case .red: 1
        case .green: 2
        case .yellow: 3
        case .blue: 4
        case .magenta: 5
        case .cyan: 6
        case .white: 7
        case .brightBlack: 8
        case .brightRed: 9
        case .brightGreen: 10
        case .brightYellow: 11
        case .brightBlue: 12
        case .brightMagenta: 13
        case .brightCyan: 14
        case .brightWhite: 15
        }
    }

    /// xterm's default RGB for this colour (what bars that want `#rrggbb` get).
    public var rgb: (UInt8, UInt8, UInt8) {
        switch self {
        case .black: (0, 0, 0)
        case .red: (205, 49, 49)
        case .green: (13, 188, 121)
        case .yellow: (229, 229, 16)
        case .blue: (36, 114, 200)
        case .magenta: (188, 63, 188)
        case .cyan: (17, 168, 205)
        case .white: (229, 229, 229)
        case .brightBlack: (128, 128, 128)
        case .brightRed: (241, 76, 76)
        case .brightGreen: (35, 209, 139)
        case .brightYellow: (245, 245, 67)
        case .brightBlue: (59, 142, 234)
        case .brightMagenta: (214, 112, 214)
        case .brightCyan: (41, 184, 219)
        case .brightWhite: (255, 255, 255)
        }
    }
}

/// A resolved or semantic style on a span of text.
public struct Style: Sendable, Equatable, Codable {
    /// `ok`/`warn`/`critical`/`stale`/`dim`: resolved to a colour by the adapter's palette.
    public var semantic: SemanticStyle?
    public var foreground: Color?
    public var background: Color?
    public var bold = false
    public var italic = false
    public var underline = false

    public init(semantic: SemanticStyle? = nil, foreground: Color? = nil, background: Color? = nil,
                bold: Bool = false, italic: Bool = false, underline: Bool = false) {
        self.semantic = semantic
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.italic = italic
        self.underline = underline
    }

    public static let plain = Style()

    public var isPlain: Bool { self == .plain }

    /// `inner` laid over `self` (nested groups): set fields of `inner` win, attributes add up.
    public func overlaid(by inner: Style) -> Style {
        var s = self
        if inner.semantic != nil || inner.foreground != nil {
            s.semantic = inner.semantic
            s.foreground = inner.foreground
        }
        s.background = inner.background ?? background
        s.bold = bold || inner.bold
        s.italic = italic || inner.italic
        s.underline = underline || inner.underline
        return s
    }
}

/// A piece of rendered text and its style: what the formatter hands the adapters.
public struct Span: Sendable, Equatable, Codable {
    public var text: String
    public var style: Style

    public init(_ text: String, style: Style = .plain) {
        self.text = text
        self.style = style
    }
}

extension Array where Element == Span {
    /// The text with every style dropped.
    public var plainText: String {
        var out = ""
        for span in self { GrowingText.append(span.text, to: &out) }
        return out
    }
}
