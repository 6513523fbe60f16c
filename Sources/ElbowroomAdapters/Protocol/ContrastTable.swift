import ElbowroomCore

/// The contrast of every adapter's default colours on its consumer's default themes, as the
/// Markdown table docs/adapters.md shows (scripts/generate writes it there from the adapters'
/// `defaultColors` and `defaultThemes`). Not on the render path.
public enum ContrastTable {
    /// One row per theme, adapters with the same colours and themes on one row.
    public static func markdown(_ adapters: [any OutputAdapter] = AdapterRegistry.builtIn) -> [String] {
        var groups: [(names: [String], colors: Palette.Colors, themes: [ConsumerTheme])] = []
        for adapter in adapters where !adapter.defaultThemes.isEmpty {
            if let i = groups.firstIndex(where: { $0.colors == adapter.defaultColors && $0.themes == adapter.defaultThemes }) {
                groups[i].names.append(adapter.name)
            } else {
                groups.append(([adapter.name], adapter.defaultColors, adapter.defaultThemes))
            }
        }
        var rows = ["| adapters | default theme | ok | warn | critical | stale | dim |", "|---|---|---|---|---|---|---|"]
        for group in groups {
            for theme in group.themes {
                let cells = SemanticStyle.allCases.map { style in
                    "\(format(theme.contrast(style, in: group.colors))): \(describe(style, in: group.colors))"
                }
                rows.append("| " + group.names.map { "`\($0)`" }.joined(separator: ", ") + " | \(theme.name) | "
                    + cells.joined(separator: " | ") + " |")
            }
        }
        return rows
    }

    /// `12.3`: one decimal.
    static func format(_ ratio: Double) -> String {
        let tenths = Int((ratio * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// `black (16) on yellow`, `green`, `own` (the consumer's text colour).
    static func describe(_ style: SemanticStyle, in colors: Palette.Colors) -> String {
        let fg = colors[style].map(name) ?? "own"
        guard let bg = colors.background(style) else { return fg }
        return "\(fg) on \(name(bg))"
    }

    static func name(_ color: Color) -> String {
        switch color {
        case .named(.brightBlack): return "grey"
        case .named(let n): return n.rawValue.replacing("_", with: " ")
        case .palette(16): return "black (16)"
        case .palette(let i): return "\(color.hex) (\(i))"
        case .rgb: return color.hex
        }
    }
}
