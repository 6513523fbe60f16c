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
            summary: "5h and 7d headroom left, level-coloured, plus any other window that needs attention: 5h 37% · 7d 59% · Opus 8%",
            source: #"""
([5h {5h.left}%](level))({5h.left|exists}{7d.left|exists} · )([7d {7d.left}%](level))\
({5h.left|exists}{other.alert} · [{other.label} {other.left}%](level))\
({5h.left|not}{7d.left|exists}{other.alert} · [{other.label} {other.left}%](level))\
({5h.left|not}{7d.left|not}[{worst.name} {worst.left}%](level))\
[( {stale}stale)( {age|exists}{offline}offline)](stale)\
({age|not}[{error}](warn))({age|not}{error|not}[loading…](dim))
"""#),
        ShippedTemplate(
            name: "full",
            summary: "every window with its reset countdown, burn rate and when it runs out at that rate, extra usage and status: 5h 37% ↻2h13m ▁▂▃▅▆▇ 25.3%/h out in 1h27m · 7d 59% ↻3d4h · …",
            source: #"""
([5h {5h.left}%](level)( ↻{5h.resets_in})( {5h.spark|spark(6)} {5h.rate|fixed(1)}%/h)( out in {5h.eta}))({5h.left|exists}{7d.left|exists} · )\
([7d {7d.left}%](level)( ↻{7d.resets_in})( {7d.rate|fixed(1)}%/h)( out in {7d.eta}))\
({7d.left|exists}{sonnet.left|exists} · )([sonnet {sonnet.left}%](level)( ↻{sonnet.resets_in})( out in {sonnet.eta}))\
({opus.left|exists}{7d.left|exists} · )({opus.left|exists}{7d.left|not}{sonnet.left|exists} · )([opus {opus.left}%](level)( ↻{opus.resets_in})( out in {opus.eta}))\
( · [oauth apps {seven_day_oauth_apps.left}%](level)( ↻{seven_day_oauth_apps.resets_in}))\
( · [{each.label} {each.left}%](level)( ↻{each.resets_in})( out in {each.eta}))\
({extra.enabled} · extra {extra.used}/{extra.limit})\
[( · {stale}stale {age})( · {age|exists}{offline}offline)](stale)({age|exists} · [{error}](warn))\
({age|not}[{error}](warn))({age|not}{error|not}[loading…](dim))
"""#),
        ShippedTemplate(
            name: "minimal",
            summary: "the window with the least headroom only: opus 8%",
            source: #"""
([{worst.name} {worst.left}%](level))[( {stale}stale)](stale)\
({age|not}[{error}](warn))({age|not}{error|not}[…](dim))
"""#),
        ShippedTemplate(
            name: "tooltip",
            summary: "one line per window the account has: label, left, bar, history sparkline, reset time, burn rate, pace, when it runs out (multi-line, for tooltips)",
            source: #"""
Claude usage( \({plan}\))[( · updated {age} ago)](dim)[( · {stale}stale)( · {age|exists}{offline}offline)](stale)( · [{error}](warn))\
({age|not}{error|not}\nloading…)\
(\n[{5h.label|pad(-8)}](level) {5h.left|pad(3)}% left  {5h.used|bar(10, "░")}( {5h.spark|spark(10)})( · resets {5h.resets_at})( · {5h.rate|fixed(1)}%/h)( · pace {5h.pace}%)( · runs out in {5h.eta})( · {5h.binding}binds now))\
(\n[{7d.label|pad(-8)}](level) {7d.left|pad(3)}% left  {7d.used|bar(10, "░")}( {7d.spark|spark(10)})( · resets {7d.resets_at})( · {7d.rate|fixed(1)}%/h)( · pace {7d.pace}%)( · runs out in {7d.eta})( · {7d.binding}binds now))\
(\n[{sonnet.label|pad(-8)}](level) {sonnet.left|pad(3)}% left  {sonnet.used|bar(10, "░")}( {sonnet.spark|spark(10)})( · resets {sonnet.resets_at})( · {sonnet.rate|fixed(1)}%/h)( · pace {sonnet.pace}%)( · runs out in {sonnet.eta})( · {sonnet.binding}binds now))\
(\n[{opus.label|pad(-8)}](level) {opus.left|pad(3)}% left  {opus.used|bar(10, "░")}( {opus.spark|spark(10)})( · resets {opus.resets_at})( · {opus.rate|fixed(1)}%/h)( · pace {opus.pace}%)( · runs out in {opus.eta})( · {opus.binding}binds now))\
(\n[{seven_day_oauth_apps.label|pad(-8)}](level) {seven_day_oauth_apps.left|pad(3)}% left  {seven_day_oauth_apps.used|bar(10, "░")}( · resets {seven_day_oauth_apps.resets_at})( · {seven_day_oauth_apps.binding}binds now))\
(\n[{each.label|pad(-8)}](level) {each.left|pad(3)}% left  {each.used|bar(10, "░")}( {each.spark|spark(10)})( · resets {each.resets_at})( · {each.rate|fixed(1)}%/h)( · pace {each.pace}%)( · runs out in {each.eta})( · {each.binding}binds now))\
({extra.enabled}\nExtra    {extra.used} of {extra.limit}( \({extra.percent}%\)))
"""#),
        ShippedTemplate(
            name: "claude",
            summary: "for Claude Code's status line: model, context, 5h and 7d: Opus 4 · ctx 23% · 5h 37% · 7d 59%",
            source: #"""
([{claude.model}](bold) · )(ctx {claude.context}% · )\
([5h {5h.left}%](level))({5h.left|exists}{7d.left|exists} · )([7d {7d.left}%](level))\
({5h.left|exists}{other.alert} · [{other.label} {other.left}%](level))\
({5h.left|not}{7d.left|exists}{other.alert} · [{other.label} {other.left}%](level))\
({5h.left|not}{7d.left|not}[{worst.name} {worst.left}%](level))\
[( {stale}stale)( {age|exists}{offline}offline)](stale)\
({age|not}[{error}](warn))({age|not}{error|not}[loading…](dim))
"""#),
    ]
}
