// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
/// Maps semantic styles to colours, from the config's `[colors]` over these defaults:
/// ok green, warn yellow, critical red, stale grey, dim grey.
public struct Palette: Sendable, Equatable {
    /// One colour per semantic style. Fields, not a dictionary: a palette is built on every render,
    /// and a `[SemanticStyle: Color]` costs more to set up than the render uses it for.
    public struct Colors: Sendable, Equatable {
        public var ok: Color
        public var warn: Color
        public var critical: Color
        public var stale: Color
        public var dim: Color

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
                guard let newValue else { return }
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

    public init(config: Config = Config()) {
        var colors = Self.defaults
        if !config.colors.isEmpty {
            for (key, spec) in config.colors {
                guard let semantic = SemanticStyle(rawValue: key),
                      let parsed = try? StyleSpec.parse(spec) else { continue }
                if let fg = parsed.style.foreground { colors[semantic] = fg }
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
