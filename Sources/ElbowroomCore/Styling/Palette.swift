// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
/// Maps semantic styles to colours: `[colors.ADAPTER]` over `[colors]` over the adapter's
/// defaults (`OutputAdapter.defaultColors`, one of the sets below, chosen for its consumer's
/// default theme). No colour (`nil`, written `"default"` or `"none"`) leaves the text in the
/// consumer's own colour. A style may carry a background too (a badge: `black bg:yellow`).
public struct Palette: Sendable, Equatable {
    /// One foreground and one background per semantic style. Fields, not a dictionary: a palette
    /// is built on every render, and a `[SemanticStyle: Color]` costs more to set up than the
    /// render uses it for.
    public struct Colors: Sendable, Equatable {
        public var ok: Color?
        public var warn: Color?
        public var critical: Color?
        public var stale: Color?
        public var dim: Color?
        public var okBackground: Color?
        public var warnBackground: Color?
        public var criticalBackground: Color?
        public var staleBackground: Color?
        public var dimBackground: Color?

        public init(ok: Color?, warn: Color?, critical: Color?, stale: Color?, dim: Color?,
                    okBackground: Color? = nil, warnBackground: Color? = nil, criticalBackground: Color? = nil,
                    staleBackground: Color? = nil, dimBackground: Color? = nil) {
            self.ok = ok
            self.warn = warn
            self.critical = critical
            self.stale = stale
            self.dim = dim
            self.okBackground = okBackground
            self.warnBackground = warnBackground
            self.criticalBackground = criticalBackground
            self.staleBackground = staleBackground
            self.dimBackground = dimBackground
        }

        /// The background of a semantic style: `nil` for none of its own (the consumer's).
        public func background(_ style: SemanticStyle) -> Color? {
            switch style {
            case .ok: okBackground
            case .warn: warnBackground
            case .critical: criticalBackground
            case .stale: staleBackground
            case .dim: dimBackground
            }
        }

        public mutating func setBackground(_ color: Color?, for style: SemanticStyle) {
            switch style {
            case .ok: okBackground = color
            case .warn: warnBackground = color
            case .critical: criticalBackground = color
            case .stale: staleBackground = color
            case .dim: dimBackground = color
            }
        }

        public subscript(_ style: SemanticStyle) -> Color? {
            get {
                switch style {
                case .ok: ok
                case .warn: warn
                case .critical: critical
                case .stale: stale
                case .dim: dim
                }
            }
            set {
                switch style {
                case .ok: ok = newValue
                case .warn: warn = newValue
                case .critical: critical = newValue
                case .stale: stale = newValue
                case .dim: dim = newValue
                }
            }
        }
    }

    public var colors: Colors

    // The default sets, one per kind of default theme, and the only place defaults are written
    // (`OutputAdapter.defaultColors` picks one; docs/adapters.md's contrast table is generated
    // from them and `OutputAdapter.defaultThemes`, and a test holds each to a minimum contrast).

    /// Dark bars that take `#rrggbb` (i3bar and swaybar black, waybar's and polybar's grey-blue
    /// defaults): ok and warn as text, critical a badge (red text is 2.6:1 on waybar's and
    /// polybar's background, and i3bar draws a critical block on its own dark red).
    public static let defaults = Colors(
        ok: .named(.green), warn: .named(.yellow), critical: .named(.brightWhite),
        stale: .named(.brightBlack), dim: .named(.brightBlack),
        criticalBackground: .named(.red))

    /// Terminals, light or dark (prompts, Claude Code's status line, `ansi`): no text colour
    /// reads on both white and black but the terminal's own, so ok keeps it, warn and critical
    /// are badges (black on yellow, white on red, whatever the background) and stale/dim grey
    /// (4:1 on white, 5:1 on black in xterm's palette). The badge's black is colour 16, not 0:
    /// terminals that draw bold in bright colours (xterm's default) turn bold black into grey.
    public static let terminal = Colors(
        ok: nil, warn: .palette(16), critical: .named(.brightWhite),
        stale: .named(.brightBlack), dim: .named(.brightBlack),
        warnBackground: .named(.yellow), criticalBackground: .named(.red))

    /// tmux's status line, by default black on green (and often a dark custom style): ok, stale
    /// and dim keep the status style's colour (green, yellow and grey text are 1.3-2.7:1 on the
    /// green), warn and critical are the terminal's badges, which read on any status style.
    public static let tmux = Colors(
        ok: nil, warn: .palette(16), critical: .named(.brightWhite), stale: nil, dim: nil,
        warnBackground: .named(.yellow), criticalBackground: .named(.red))

    /// A menu bar that is light or dark with the system (SwiftBar on macOS): ok in the bar's own
    /// colour, warn a dark orange (#d75f00) and critical red, both over 3:1 on either, stale grey.
    public static let menuBar = Colors(
        ok: nil, warn: .palette(166), critical: .named(.red),
        stale: .named(.brightBlack), dim: .named(.brightBlack))

    /// The words that mean "no colour of ours": the consumer's own (tmux's status style, the
    /// terminal's foreground, the bar's text colour).
    public static func meansNoColor(_ spec: String) -> Bool { spec == "default" || spec == "none" }

    /// `defaults` (the adapter's), then `[colors]`, then `[colors.ADAPTER]` (kept in
    /// `config.colors` under `ADAPTER.KEY`).
    public init(config: Config = Config(), adapter: String = "", defaults: Colors = Palette.defaults) {
        var colors = defaults
        if !config.colors.isEmpty {
            for pass in 0..<2 {
                for (key, spec) in config.colors {
                    var name = Substring(key)
                    if let dot = key.firstIndex(of: ".") {
                        guard pass == 1, key[..<dot] == adapter else { continue }
                        name = key[key.index(after: dot)...]
                    } else if pass == 1 {
                        continue
                    }
                    guard let semantic = SemanticStyle(rawValue: String(name)) else { continue }
                    // The user's style replaces the default's foreground and background both.
                    if Self.meansNoColor(spec) {
                        colors[semantic] = nil
                        colors.setBackground(nil, for: semantic)
                    } else if let style = (try? StyleSpec.parse(spec))?.style, style.foreground != nil {
                        colors[semantic] = style.foreground
                        colors.setBackground(style.background, for: semantic)
                    }
                }
            }
        }
        self.colors = colors
    }

    /// The style with its semantic part turned into colours: the palette's foreground, and its
    /// background unless the style names one.
    public func resolve(_ style: Style) -> Style {
        guard let semantic = style.semantic else { return style }
        var s = style
        s.foreground = colors[semantic]
        if s.background == nil { s.background = colors.background(semantic) }
        s.semantic = nil
        return s
    }
}
