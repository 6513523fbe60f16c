// The shipped templates, embedded so the installed binary needs no templates/ directory.
// Each text is identical to templates/NAME.tmpl without its final newline; a test keeps them so.

/// A template that ships inside the binary.
public struct ShippedTemplate: Sendable, Equatable {
    public let name: String
    /// One line for `elbowroom templates list`.
    public let summary: String
    public let source: String
}

extension TemplateLibrary {
    public static let shipped: [ShippedTemplate] = [
        ShippedTemplate(
            name: "compact",
            summary: "the rows Claude Code's /usage shows, headroom left, level-coloured, then the spend: 5h 37% · 7d 59% · Sonnet 92% · credits $3.10",
            source: #"""
([5h {5h.left}%](level))( · [7d {7d.left}%](level))\
( · [{each.label} {each.left}%](level))\
({spend.limit_is_yours} · [({spend.org}org )({spend.used} / {spend.limit})({spend.uncapped}{spend.used} spent)({spend.used|not}spend {spend.percent}%)](level)( {spend.period}))\
({spend.limit_is_yours|not} · credits {spend.used}( / {spend.limit}))\
({notice|exists} · [{notice}](dim))\
[( {stale}stale)( {age|exists}{offline}offline)](stale)\
({age|not}[{error}](warn))({age|not}{error|not}[loading…](dim))
"""#),
        ShippedTemplate(
            name: "full",
            summary: "every window with its reset countdown, burn rate and when it runs out at that rate, extra usage and status: 5h 37% ↻2h13m ▁▂▃▅▆▇ 25.3%/h out in 1h27m · 7d 59% ↻3d4h · …",
            source: #"""
([5h {5h.left}%](level)( ↻{5h.resets_in})( {5h.spark|spark(6)} {5h.rate|fixed(1)}%/h)( out in {5h.eta}))\
( · [7d {7d.left}%](level)( ↻{7d.resets_in})( {7d.rate|fixed(1)}%/h)( out in {7d.eta}))\
( · [{each.label} {each.left}%](level)( ↻{each.resets_in})( out in {each.eta}))\
({spend.limit_is_yours} · [({spend.org}org )({spend.used} / {spend.limit})({spend.uncapped}{spend.used} spent)({spend.used|not}spend {spend.percent}%)](level)({spend.used|exists}{spend.capped} \({spend.percent}%\))( {spend.period})( ↻{spend.resets_in}))\
({spend.limit_is_yours|not} · credits {spend.used}( / {spend.limit}))\
({notice|exists} · [{notice}](dim))\
[( · {stale}stale {age})( · {age|exists}{offline}offline)](stale)({age|exists} · [{error}](warn))\
({age|not}[{error}](warn))({age|not}{error|not}[loading…](dim))
"""#),
        ShippedTemplate(
            name: "minimal",
            summary: "the window with the least headroom only: opus 8%",
            source: #"""
([{worst.name} {worst.left}%](level))\
({worst.left|not}{spend.limit_is_yours}[({spend.org}org )({spend.used} / {spend.limit})({spend.uncapped}{spend.used} spent)({spend.used|not}spend {spend.percent}%)](level))\
({notice|exists}[{notice}](dim))[( {stale}stale)](stale)\
({age|not}[{error}](warn))({age|not}{error|not}[…](dim))
"""#),
        ShippedTemplate(
            name: "tooltip",
            summary: "one line per window the account has: label, left, bar, history sparkline, reset time, burn rate, pace, when it runs out (multi-line, for tooltips)",
            source: #"""
Claude usage( \({plan}\))[( · updated {age} ago)](dim)[( · {stale}stale)( · {age|exists}{offline}offline)](stale)( · [{error}](warn))\
({age|not}{error|not}\nloading…)\
(\n[{5h.label|pad(-8)}](level) {5h.left|pad(3)}% left  {5h.used|bar(10, "░")}( {5h.spark|spark(10)})( · resets {5h.resets_at})( · {5h.rate|fixed(1)}%/h)( · pace {5h.pace}%)( · runs out in {5h.eta})( · {5h.binding}binds now)[( · {5h.source} {5h.age} ago)](dim))\
(\n[{7d.label|pad(-8)}](level) {7d.left|pad(3)}% left  {7d.used|bar(10, "░")}( {7d.spark|spark(10)})( · resets {7d.resets_at})( · {7d.rate|fixed(1)}%/h)( · pace {7d.pace}%)( · runs out in {7d.eta})( · {7d.binding}binds now)[( · {7d.source} {7d.age} ago)](dim))\
(\n[{each.label|pad(-8)}](level) {each.left|pad(3)}% left  {each.used|bar(10, "░")}( {each.spark|spark(10)})( · resets {each.resets_at})( · {each.rate|fixed(1)}%/h)( · pace {each.pace}%)( · runs out in {each.eta})( · {each.binding}binds now)[( · {each.source} {each.age} ago)](dim))\
({spend.used|exists}\n({spend.limit_is_yours}[Spend   ](level))({spend.limit_is_yours|not}[Credits ](level)) ({spend.org}organisation's pool: ){spend.used}( of {spend.limit})( spent{spend.uncapped})( \({spend.percent}%\))( {spend.period})( · resets in {spend.resets_in}))\
({spend.used|not}{spend.percent|exists}\n[Spend   ](level) {spend.percent}% of the spend limit( {spend.period})( · resets in {spend.resets_in}))\
({notice|exists}\n{notice})
"""#),
        ShippedTemplate(
            name: "claude",
            summary: "for Claude Code's status line: model, context, 5h and 7d: Opus 4 · ctx 23% · 5h 37% · 7d 59%",
            source: #"""
([{claude.model}](bold))( · ctx {claude.context}%)\
( · [5h {5h.left}%](level))( · [7d {7d.left}%](level))\
( · [{each.label} {each.left}%](level))\
({spend.limit_is_yours} · [({spend.org}org )({spend.used} / {spend.limit})({spend.uncapped}{spend.used} spent)({spend.used|not}spend {spend.percent}%)](level)( {spend.period}))\
({spend.limit_is_yours|not} · credits {spend.used}( / {spend.limit}))\
({notice|exists} · [{notice}](dim))\
[( {stale}stale)( {age|exists}{offline}offline)](stale)\
({age|not} · [{error}](warn))({age|not}{error|not} · [loading…](dim))
"""#),
    ]
}
