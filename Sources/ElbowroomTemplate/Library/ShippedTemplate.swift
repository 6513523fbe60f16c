/// A template that ships inside the binary: its text is `templates/NAME.tmpl` (without the final
/// newline), embedded with its parsed tree in `ShippedTemplates.swift` by `scripts/generate`.
public struct ShippedTemplate: Sendable, Equatable {
    public let name: String
    /// One line for `elbowroom templates list`.
    public let summary: String
    public let source: String

    init(name: String, summary: String) {
        self.name = name
        self.summary = summary
        self.source = TemplateLibrary.shippedSource(name) ?? ""
    }
}

extension TemplateLibrary {
    /// Every shipped template, with its line for `templates list`. A new `templates/NAME.tmpl`
    /// needs its line here; `scripts/generate` says so until it has one.
    public static let shipped: [ShippedTemplate] = [
        ShippedTemplate(
            name: "compact",
            summary: "the rows Claude Code's /usage shows, headroom left (or used: display), level-coloured, then the spend: 5h 37% · 7d 59% · Sonnet 92% · credits $3.10"),
        ShippedTemplate(
            name: "full",
            summary: "every window with its reset countdown, burn rate and when it runs out at that rate, extra usage and status: 5h 37% ↻2h13m ▁▂▃▅▆▇ 25.3%/h out in 1h27m · 7d 59% ↻3d4h · …"),
        ShippedTemplate(
            name: "minimal",
            summary: "the window with the least headroom only: opus 8%"),
        ShippedTemplate(
            name: "tooltip",
            summary: "one line per window the account has: label, left, bar, history sparkline, reset time, burn rate, pace, when it runs out (multi-line, for tooltips)"),
        ShippedTemplate(
            name: "claude",
            summary: "for Claude Code's status line: model, context, 5h and 7d, all left (or all used): Opus 4 · ctx 77% · 5h 37% · 7d 59%"),
    ]
}
