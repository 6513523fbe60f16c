import ElbowroomCore

/// Everything a render reads: the view, the status-line input and the clock's time zone.
struct RenderContext: Sendable {
    var view: UsageView
    var statusLine: StatusLineInput?
    var localTime: LocalTime
}

/// Walks the tree into styled spans.
enum Renderer {
    static func render(_ nodes: [Node], context: RenderContext) -> [Span] {
        var spans: [Span] = []
        _ = render(nodes, style: .plain, context: context, into: &spans)
        return spans
    }

    /// Appends the rendering of `nodes`; returns whether every placeholder had a value (a
    /// conditional group inside decides for itself and does not count).
    private static func render(_ nodes: [Node], style: Style, context: RenderContext, into spans: inout [Span]) -> Bool {
        var complete = true
        for node in nodes {
            switch node {
            case .text(let text):
                append(text, style: style, to: &spans)
            case .placeholder(let placeholder):
                var value = placeholder.variable.value(in: context)
                for filter in placeholder.filters { value = filter.apply(value, context: context) }
                if let value, value.isPresent {
                    append(value.formatted(now: context.view.now, localTime: context.localTime), style: style, to: &spans)
                } else {
                    complete = false
                }
            case .styled(let inner, let parsed):
                var own = parsed.style
                if parsed.usesLevel {
                    let levels = node.windowNames.compactMap { context.view.window(named: $0)?.level }
                    own.semantic = SemanticStyle(levels.max() ?? context.view.level)
                    own.foreground = nil
                }
                if !render(inner, style: style.overlaid(by: own), context: context, into: &spans) {
                    complete = false
                }
            case .conditional(let inner):
                var group: [Span] = []
                if render(inner, style: style, context: context, into: &group) {
                    for span in group { append(span.text, style: span.style, to: &spans) }
                }
            }
        }
        return complete
    }

    /// Appends text, merging it into the last span when the style is the same.
    private static func append(_ text: String, style: Style, to spans: inout [Span]) {
        guard !text.isEmpty else { return }
        if let last = spans.last, last.style == style {
            spans[spans.count - 1].text += text
        } else {
            spans.append(Span(text, style: style))
        }
    }
}
