/// Maps semantic styles to colours, from the config's `[colors]` over these defaults:
/// ok green, warn yellow, critical red, stale grey, dim grey.
public struct Palette: Sendable, Equatable {
    public var colors: [SemanticStyle: Color]

    public static let defaults: [SemanticStyle: Color] = [
        .ok: .named(.green), .warn: .named(.yellow), .critical: .named(.red),
        .stale: .named(.brightBlack), .dim: .named(.brightBlack),
    ]

    public init(config: Config = Config()) {
        var colors = Self.defaults
        for (key, spec) in config.colors {
            guard let semantic = SemanticStyle(rawValue: key),
                  let parsed = try? StyleSpec.parse(spec) else { continue }
            if let fg = parsed.style.foreground { colors[semantic] = fg }
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
