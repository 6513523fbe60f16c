import ElbowroomCore
import ElbowroomTemplate
import ElbowroomAdapters

/// The words of a notification, and the JSON a `notify_command` gets on stdin:
///
/// ```json
/// {"version":1,"account":null,"event":"warn","title":"Claude Session: 25% left","body":"…","urgency":"normal",
///  "time":"2026-11-22T14:03:00Z","key":"five_hour","name":"5h","label":"Session","used":75,
///  "left":25,"level":"warn","resets_at":"2026-11-22T18:00:00Z","resets_in":14220,"eta":null,"rate":12.5}
/// ```
/// `event` is `warn`, `critical`, `exhausted`, `runs_out`, `reset`, `unused` or `elsewhere` (which adds
/// `points`, `from`, `to` and `interval`: the rise no local session made); `urgency` `critical` for
/// `critical` and `exhausted`, else `normal`; `resets_in`, `eta` are seconds, `rate` percent per
/// hour (each `null` when unknown); `account` the `[accounts.NAME]` the window is of, or `null`
/// without accounts (then the title says "Claude").
///
/// Text from the data (the window's label, key and name) reaches a person and a program here as
/// it does through an adapter: cut to `ReadingLimits.maxTextBytes` (a cache written before that
/// cap counted bytes may hold more), without controls or bidi controls, and in the title on one
/// line (`text`); the JSON's strings are cleaned the same way, so `jq -r` cannot print an escape.
enum NotifyMessage {
    /// - Parameter account: the `[accounts.NAME]` the window is of (`CLIContext.accountName`), which
    ///   the title names instead of "Claude" (several accounts notify side by side).
    static func title(_ event: NotifyEvent, account: String? = nil) -> String {
        let w = event.window
        let who = account.map { text($0, lines: .join) } ?? "Claude"
        let own = text(w.label, lines: .join)
        // "Claude Code and Cowork credit" names its agent already.
        let label = own.hasPrefix(who + " ") ? own : who + " " + own
        switch event.kind {
        case .warn, .critical: return "\(label): \(PercentText.whole(w.left))% left"
        case .exhausted: return "\(label): used up"
        case .runsOut:
            return "\(label) runs out " + (w.eta.map { $0 < 60 ? "now" : "in " + DurationText.short($0) } ?? "soon")
        case .reset: return "\(label) has reset"
        case .unused:
            return "\(label): \(PercentText.whole(w.left))% left, resets " + (w.resetsIn.map { "in " + DurationText.short($0) } ?? "soon")
        case .elsewhere:
            return "\(label): \(JSONNumber.format(JSONNumber.rounded(event.run?.points ?? 0, places: 1))) points used elsewhere"
        }
    }

    /// `notify --test`'s sample: its own title, and a body that says what a real one reads.
    static let testTitle = "elbowroom: test notification"

    static func testBody(_ event: NotifyEvent, account: String? = nil) -> String {
        "A test from elbowroom notify --test: notifications reach you. A real one reads: \(title(event, account: account)). \(body(event))"
    }

    /// Text from the data, bounded and safe to show.
    static func text(_ data: String, lines: SafeText.Lines) -> String {
        SafeText.clean(SafeText.prefix(data, maxBytes: ReadingLimits.maxTextBytes), lines: lines)
    }

    /// What happened, then the source's own figures when it has some (`259% used, 1,811.97 of
    /// 700 credits`: a credit limit's percent stops at 100, its words do not).
    static func body(_ event: NotifyEvent) -> String {
        let sentence = bodySentence(event)
        guard let detail = event.window.detail, !detail.isEmpty else { return sentence }
        return sentence + " " + text(detail.prefix(1).uppercased() + detail.dropFirst(), lines: .join) + "."
    }

    static func bodySentence(_ event: NotifyEvent) -> String {
        let w = event.window
        let resets = w.resetsIn.map { "resets in \(DurationText.short($0))" }
        switch event.kind {
        case .warn: return "Down to the warn threshold" + (resets.map { "; " + $0 } ?? "") + "."
        case .critical: return "Down to the critical threshold" + (resets.map { "; " + $0 } ?? "") + "."
        case .exhausted: return (resets.map { $0.prefix(1).uppercased() + $0.dropFirst() } ?? "Used up") + "."
        case .runsOut:
            let rate = w.rate.map { "At \(JSONNumber.format(JSONNumber.rounded($0, places: 1)))%/h" } ?? "At this pace"
            return "\(rate) it runs out before it " + (resets ?? "resets") + "; \(PercentText.whole(w.left))% left."
        case .reset: return "\(PercentText.whole(w.left))% left."
        case .unused: return "Use it or lose it: what is left when it resets is gone."
        case .elsewhere:
            let span = event.run.map { " in " + DurationText.short(TimeInterval(max(60, $0.to - $0.from))) } ?? ""
            return "It rose\(span) while no Claude Code session here spent anything; \(PercentText.whole(w.left))% left."
        }
    }

    /// `test`: `notify --test`'s sample, which says `"test":true` after the fields above.
    static func json(_ event: NotifyEvent, now: Date, account: String? = nil, test: Bool = false) -> String {
        let w = event.window
        return JSONValue.object([
            ("version", .number(1)),
            ("account", .string(account.map { text($0, lines: .keep) })),
            ("event", .string(event.kind.rawValue)),
            ("title", .string(test ? testTitle : title(event, account: account))),
            ("body", .string(test ? testBody(event, account: account) : body(event))),
            ("urgency", .string(event.kind.isUrgent ? "critical" : "normal")),
            ("time", .string(ISO8601.format(now))),
            ("key", .string(text(w.key, lines: .keep))),
            ("name", .string(text(w.name, lines: .keep))),
            ("label", .string(text(w.label, lines: .keep))),
            ("used", .number(JSONNumber.rounded(w.used, places: 2))),
            ("left", .number(JSONNumber.rounded(w.left, places: 2))),
            ("level", .string(w.level.rawValue)),
            ("resets_at", .string(w.resetsAt.map(ISO8601.format))),
            ("resets_in", .number(w.resetsIn.map { $0.rounded() })),
            ("eta", .number(w.eta.map { $0.rounded() })),
            ("rate", .number(w.rate.map { JSONNumber.rounded($0, places: 2) })),
        ] + elsewhere(event) + (test ? [("test", JSONValue.bool(true))] : [])).encoded + "\n"
    }

    /// An `elsewhere` event's rise: `points`, and the interval it took (`from`, `to`, ISO-8601
    /// UTC; `interval` in seconds).
    static func elsewhere(_ event: NotifyEvent) -> [(String, JSONValue)] {
        guard event.kind == .elsewhere, let run = event.run else { return [] }
        return [
            ("points", .number(JSONNumber.rounded(run.points, places: 2))),
            ("from", .string(ISO8601.format(Date(timeIntervalSince1970: Double(run.from))))),
            ("to", .string(ISO8601.format(Date(timeIntervalSince1970: Double(run.to))))),
            ("interval", .number(Double(run.to - run.from))),
        ]
    }
}
