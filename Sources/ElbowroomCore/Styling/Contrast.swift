/// WCAG 2 contrast between two colours, and the default themes of the consumers: what the
/// default palettes are held to (a test) and what docs/adapters.md's table shows (generated).
/// Not on the render path.
public enum Contrast {
    /// The smallest ratio a default colour may have on its consumer's default theme: WCAG's
    /// minimum for large text and interface parts (4.5 is its mark for body text).
    public static let minimum = 3.0

    /// Relative luminance, 0 (black) to 1 (white).
    public static func luminance(_ rgb: (UInt8, UInt8, UInt8)) -> Double {
        func linear(_ c: UInt8) -> Double {
            let v = Double(c) / 255
            return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(rgb.0) + 0.7152 * linear(rgb.1) + 0.0722 * linear(rgb.2)
    }

    /// 1 (the same) to 21 (black on white).
    public static func ratio(_ a: (UInt8, UInt8, UInt8), _ b: (UInt8, UInt8, UInt8)) -> Double {
        let (la, lb) = (luminance(a), luminance(b))
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }
}

/// A consumer's default look: the background elbowroom's text sits on, the text colour it has
/// when elbowroom gives none, and how colour names become RGB there (a terminal's palette for
/// terminals and tmux, where the sixteen names are the terminal's; elbowroom's `#rrggbb` for bars).
public struct ConsumerTheme: Sendable, Equatable {
    public enum Colors: Sendable, Equatable {
        /// Named and 256 colours are the terminal's: xterm's default palette stands for them.
        case xterm
        /// The bar gets `#rrggbb` (`Color.hex`).
        case hex
    }

    /// `black on green`, `light terminal`: a table's row.
    public var name: String
    public var background: (UInt8, UInt8, UInt8)
    public var foreground: (UInt8, UInt8, UInt8)
    public var colors: Colors

    public init(_ name: String, background: (UInt8, UInt8, UInt8), foreground: (UInt8, UInt8, UInt8), colors: Colors) {
        self.name = name
        self.background = background
        self.foreground = foreground
        self.colors = colors
    }

    public static func == (a: ConsumerTheme, b: ConsumerTheme) -> Bool {
        a.name == b.name && a.background == b.background && a.foreground == b.foreground && a.colors == b.colors
    }

    /// A colour as this consumer draws it.
    public func rgb(_ color: Color) -> (UInt8, UInt8, UInt8) {
        switch (colors, color) {
        case (.xterm, .named(let n)): return Self.xterm[n.index]
        case (.xterm, .palette(let i)) where i < 16: return Self.xterm[Int(i)]
        default: return color.rgbComponents
        }
    }

    /// The contrast of a semantic style's text on its background, in these default colours
    /// (`nil` colours are the consumer's own).
    public func contrast(_ style: SemanticStyle, in palette: Palette.Colors) -> Double {
        let fg = palette[style].map(rgb) ?? foreground
        let bg = palette.background(style).map(rgb) ?? background
        return Contrast.ratio(fg, bg)
    }

    /// xterm's default sixteen colours (its `XTerm*color0` … `color15` resources).
    public static let xterm: [(UInt8, UInt8, UInt8)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]

    // The default themes elbowroom's consumers ship with.

    /// A terminal with a light background (xterm's own default, macOS Terminal's Basic).
    public static let lightTerminal = ConsumerTheme("light terminal (black on white)", background: (255, 255, 255), foreground: (0, 0, 0), colors: .xterm)
    /// A terminal with a dark background.
    public static let darkTerminal = ConsumerTheme("dark terminal (white on black)", background: (0, 0, 0), foreground: (229, 229, 229), colors: .xterm)
    /// tmux without a config: `status-style bg=green,fg=black`.
    public static let tmuxDefault = ConsumerTheme("tmux default status (black on green)", background: (0, 205, 0), foreground: (0, 0, 0), colors: .xterm)
    /// i3bar and swaybar without `colors`: white on black.
    public static let i3barDefault = ConsumerTheme("i3bar / swaybar default (white on #000000)", background: (0, 0, 0), foreground: (255, 255, 255), colors: .hex)
    /// i3bar's and swaybar's urgent block (`urgent_workspace` in `colors`): white on #900000.
    public static let i3barUrgent = ConsumerTheme("i3bar / swaybar urgent block (white on #900000)", background: (144, 0, 0), foreground: (255, 255, 255), colors: .hex)
    /// waybar's shipped style.css: `background-color: rgba(43, 48, 59, 0.5)`, `color: #ffffff`
    /// (taken opaque: over a dark wallpaper it is darker still).
    public static let waybarDefault = ConsumerTheme("waybar default style.css (white on #2b303b)", background: (43, 48, 59), foreground: (255, 255, 255), colors: .hex)
    /// polybar's shipped config.ini (`[colors] background = #282A2E`, `foreground = #C5C8C6`).
    public static let polybarDefault = ConsumerTheme("polybar default config (#c5c8c6 on #282a2e)", background: (40, 42, 46), foreground: (197, 200, 198), colors: .hex)
    /// macOS's menu bar (SwiftBar), light and dark: translucent, about these over a plain desktop.
    public static let lightMenuBar = ConsumerTheme("macOS menu bar, light (black on #f6f6f6)", background: (246, 246, 246), foreground: (0, 0, 0), colors: .hex)
    public static let darkMenuBar = ConsumerTheme("macOS menu bar, dark (white on #1e1e1e)", background: (30, 30, 30), foreground: (255, 255, 255), colors: .hex)
}
