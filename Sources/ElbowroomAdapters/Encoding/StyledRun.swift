// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// A stretch of text in one resolved style (no semantic styles left): what every encoder walks.
/// The same shape as the template's `Span`, and the same type, so a render builds arrays of one
/// type where it would build two (the first use of each array type costs ~8 k instructions).
public typealias StyledRun = Span

extension RenderedFrame {
    /// `spans` with their styles resolved through the palette, reduced to what the consumer can
    /// show (`expressible`), and consecutive runs of the same style merged, so an encoder never
    /// closes a style only to reopen it. Empty spans are dropped.
    /// The line's runs for a terminal's SGR: styled when `useColor`, plain otherwise
    /// (`NO_COLOR`, `--color never`, or no terminal to see it).
    public var terminalRuns: [StyledRun] {
        runs(spans, expressible: useColor ? { $0 } : { _ in .plain })
    }

    public func runs(_ spans: [Span], expressible: (Style) -> Style = { $0 }) -> [StyledRun] {
        var runs: [StyledRun] = []
        for span in spans where !span.text.isEmpty {
            let style = expressible(palette.resolve(span.style))
            if let last = runs.last, last.style == style {
                GrowingText.append(span.text, to: &runs[runs.count - 1].text)
            } else {
                runs.append(StyledRun(span.text, style: style))
            }
        }
        return runs
    }

    /// The colour of a level, from the palette; `nil` for the consumer's own.
    public func color(for level: Level) -> Color? {
        palette.colors[SemanticStyle(level)]
    }

    /// The colour a bar gives the whole block: the level's, or the stale colour when there are
    /// no numbers to judge (signed out, loading); `nil` for the bar's own.
    public var blockColor: Color? {
        if view.windows.isEmpty {
            return palette.colors[.stale]
        }
        return color(for: level)
    }

    /// The short form bars show when space is tight: the worst window only (`5h 37%`, left or used
    /// as `display` says), or the status when there are no numbers. One line, without controls: the name of
    /// a window the API added is its key, data.
    public var shortText: String {
        if let worst = view.worst {
            return SafeText.clean(worst.name, lines: .join) + " \(PercentText.whole(view.display == .used ? worst.used : worst.left))%"
        }
        return SafeText.map(view.status.rawValue, lines: .join) { $0 == "_" ? " " : nil }
    }
}
