// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
/// Maps semantic styles to colours: `[colors.ADAPTER]` over `[colors]` over the adapter's
/// defaults (`OutputAdapter.defaultColors`: ok green, warn yellow, critical red, stale grey, dim
/// grey, except where a consumer's default theme needs otherwise). No colour (`nil`, written
/// `"default"` or `"none"`) leaves the text in the consumer's own colour.
public struct Palette: Sendable, Equatable {
    /// One colour per semantic style. Fields, not a dictionary: a palette is built on every render,
    /// and a `[SemanticStyle: Color]` costs more to set up than the render uses it for.
    public struct Colors: Sendable, Equatable {
        public var ok: Color?
        public var warn: Color?
        public var critical: Color?
        public var stale: Color?
        public var dim: Color?

        public init(ok: Color?, warn: Color?, critical: Color?, stale: Color?, dim: Color?) {
            self.ok = ok
            self.warn = warn
            self.critical = critical
            self.stale = stale
            self.dim = dim
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

    public static let defaults = Colors(
        ok: .named(.green), warn: .named(.yellow), critical: .named(.red),
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
                    if Self.meansNoColor(spec) {
                        colors[semantic] = nil
                    } else if let fg = (try? StyleSpec.parse(spec))?.style.foreground {
                        colors[semantic] = fg
                    }
                }
            }
        }
        self.colors = colors
    }

    /// The style with its semantic part turned into a foreground colour.
    public func resolve(_ style: Style) -> Style {
        guard let semantic = style.semantic else { return style }
        var s = style
        s.foreground = colors[semantic]
        s.semantic = nil
        return s
    }
}
