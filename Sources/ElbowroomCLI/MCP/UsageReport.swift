import ElbowroomCore
import ElbowroomAdapters

/// What `get_headroom` (and the resource `elbowroom://headroom`) answers: every account's
/// windows from the cache, with a one-line advice an agent can act on. Built from the same
/// `UsageView` a render shows, so the numbers are the bar's numbers. Never a token, a credentials
/// path or a home path: account names and labels are the user's own words from the config.
///
/// Structured (`structured`, described by `schema`):
///
/// | key | value |
/// |---|---|
/// | `now` | ISO-8601 UTC time of the answer |
/// | `level` | `ok` `warn` `critical`: the worst over the accounts |
/// | `advice` | one line: the advice of the account that needs it most |
/// | `accounts` | one object per account: `name`, `label`, `provider`, `status` (`ok` `stale` `offline` `rate_limited` `expired` `signed_out` `loading`), `level`, `age_seconds` (or `null`), `plan`, `error`, `advice`, `windows` |
/// | `windows[]` | `name` (`5h`, `7d`, …), `title` (Claude Code's row title), `used_percent`, `left_percent`, `level`, `resets_at` (ISO or `null`), `resets_in` (`40m`, `3d4h` or `null`), `resets_in_seconds`, `burn_rate_percent_per_hour` (from the usage history, or `null`), `pace_percent_at_reset` (projected use at the reset, or `null`), `runs_out_in` / `runs_out_in_seconds` (at that rate, when before the reset, else `null`), `binding` |
struct UsageReport {
    struct Part {
        var name: String
        var label: String
        var provider: Provider
        var view: UsageView
    }

    var now: Date
    var parts: [Part]
    /// The user's home directory, written `~` wherever a message names a path under it (a fetch
    /// error may name the credentials file): an agent's transcript may travel further than this
    /// machine.
    var home: String = "/"

    init(now: Date, parts: [Part], home: String = "/") {
        self.now = now
        self.home = home
        self.parts = parts.map { part in
            var part = part
            part.view.error = part.view.error.map { Self.withoutHome($0, home: home) }
            return part
        }
    }

    /// `text` with every `home` (followed by `/` or ending the text) written `~`.
    static func withoutHome(_ text: String, home: String) -> String {
        let home = home.hasSuffix("/") ? String(home.dropLast()) : home
        guard !home.isEmpty else { return text }
        var out = ""
        var rest = Substring(text)
        while let range = rest.firstRange(of: home) {
            let after = rest[range.upperBound...]
            out += rest[..<range.lowerBound]
            out += after.isEmpty || after.hasPrefix("/") ? "~" : home
            rest = after
        }
        return out + rest
    }

    // MARK: Advice

    /// One line for an account: what is tight, when it frees up, and what to do.
    static func advice(_ view: UsageView) -> String {
        let windows = view.windows
        guard !windows.isEmpty else {
            switch view.status {
            case .signedOut: return "not signed in: headroom unknown (sign in to \(view.agent), then elbowroom fetch)"
            case .loading: return "no usage data yet: headroom unknown (ask again in a moment, or run elbowroom fetch)"
            default: return "no usage windows to show" + (view.error.map { " (\(SafeText.firstLine($0)))" } ?? "")
            }
        }
        // The window that needs attention most: the least left, a binding one first among equals.
        var worst = windows[0]
        for w in windows.dropFirst() where w.left < worst.left || (w.left == worst.left && w.binding && !worst.binding) {
            worst = w
        }
        let resets = worst.resetsIn.map { ", resets in \(DurationText.short($0))" } ?? ""
        let stale = view.isStale ? " (numbers \(DurationText.short(view.age ?? 0)) old)" : ""
        let left = PercentText.whole(worst.left)
        if worst.left <= 0 {
            return "\(worst.name) window used up\(resets): wait for the reset or use another account\(stale)"
        }
        if let eta = worst.eta, let resetsIn = worst.resetsIn, eta < resetsIn {
            switch worst.level {
            case .critical:
                return "\(worst.name) window at \(left)% left\(resets), runs out in \(DurationText.short(eta)) at this rate: prefer small tasks\(stale)"
            default:
                return "\(worst.name) window at \(left)% left\(resets), but runs out in \(DurationText.short(eta)) at this rate: pace yourself, avoid very large tasks\(stale)"
            }
        }
        switch worst.level {
        case .critical:
            return "\(worst.name) window at \(left)% left\(resets): prefer small tasks\(stale)"
        case .warn:
            return "\(worst.name) window at \(left)% left\(resets): fine for normal work, avoid very large tasks\(stale)"
        case .ok:
            let all = windows.map { "\($0.name) \(PercentText.whole($0.left))%" }.joined(separator: ", ")
            return "plenty left (\(all)): any task size is fine\(stale)"
        }
    }

    /// The worst level over the accounts, and the account whose advice leads.
    var worstIndex: Int? {
        guard !parts.isEmpty else { return nil }
        var worst = 0
        for i in parts.indices where parts[i].view.level > parts[worst].view.level { worst = i }
        return worst
    }

    var level: Level { worstIndex.map { parts[$0].view.level } ?? .ok }

    // MARK: Structured

    var structured: JSONDocument {
        let accounts: [JSONDocument] = parts.map { part in
            let view = part.view
            let windows: [JSONDocument] = view.windows.map { w in
                let runsOut = w.eta.flatMap { eta in w.resetsIn.map { eta < $0 } ?? true ? eta : nil }
                return .fields([
                    ("name", .string(SafeText.clean(w.name, lines: .join))),
                    ("title", .string(SafeText.clean(w.title, lines: .join))),
                    ("used_percent", .finite(rounded(w.used))),
                    ("left_percent", .finite(rounded(w.left))),
                    ("level", .string(w.level.rawValue)),
                    ("resets_at", .string(w.resetsAt.map(ISO8601.format))),
                    ("resets_in", .string(w.resetsIn.map(DurationText.short))),
                    ("resets_in_seconds", .finite(w.resetsIn.map { $0.rounded() })),
                    ("burn_rate_percent_per_hour", .finite(w.rate.map(rounded))),
                    ("pace_percent_at_reset", .finite(w.pace.map { ($0 * 10).rounded() / 10 })),
                    ("runs_out_in", .string(runsOut.map(DurationText.short))),
                    ("runs_out_in_seconds", .finite(runsOut.map { $0.rounded() })),
                    ("binding", .bool(w.binding)),
                ])
            }
            return .fields([
                ("name", .string(SafeText.clean(part.name, lines: .join))),
                ("label", .string(SafeText.clean(part.label, lines: .join))),
                ("provider", .string(part.provider.word)),
                ("status", .string(view.status.rawValue)),
                ("level", .string(view.level.rawValue)),
                ("age_seconds", .finite(view.age.map { $0.rounded() })),
                ("plan", .string(view.plan.map { SafeText.clean($0, lines: .join) })),
                ("error", .string(view.error.map { SafeText.clean($0, lines: .join) })),
                ("advice", .string(Self.advice(view))),
                ("windows", .array(windows)),
            ])
        }
        return .fields([
            ("now", .string(ISO8601.format(now))),
            ("level", .string(level.rawValue)),
            ("advice", .string(worstIndex.map { Self.advice(parts[$0].view) } ?? "no accounts")),
            ("accounts", .array(accounts)),
        ])
    }

    private func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }

    // MARK: Text

    /// For a person or a model reading plain text: a line per window, the advice last.
    var text: String {
        var lines: [String] = []
        for part in parts {
            let view = part.view
            let label = SafeText.clean(part.label, lines: .join)
            var head = label == part.provider.agent ? label : "\(label) (\(part.provider.agent))"
            if view.status != .ok { head += ", \(view.status.rawValue)" }
            if let age = view.age { head += ", numbers \(DurationText.short(age)) old" }
            lines.append(head + ":")
            for w in view.windows {
                var line = "  \(SafeText.clean(w.name, lines: .join)) (\(SafeText.clean(w.title, lines: .join))): "
                    + "\(PercentText.whole(w.left))% left, \(PercentText.whole(w.used))% used"
                if let at = w.resetsAt, let inSeconds = w.resetsIn {
                    line += ", resets in \(DurationText.short(inSeconds)) (\(ISO8601.format(at)))"
                }
                if let rate = w.rate { line += ", burning \(NumberText.fixed(rate, decimals: 1))%/h" }
                if let pace = w.pace { line += ", pace \(PercentText.whole(pace))% at reset" }
                if let eta = w.eta, w.resetsIn.map({ eta < $0 }) ?? true { line += ", runs out in \(DurationText.short(eta))" }
                lines.append(line)
            }
            if view.windows.isEmpty, let error = view.error { lines.append("  " + SafeText.clean(error, lines: .join)) }
            lines.append("  advice: " + Self.advice(view))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: Schema

    /// The JSON Schema of `structured` (the tool's `outputSchema`).
    static var schema: JSONDocument {
        func type(_ name: String, nullable: Bool = false) -> JSONDocument {
            nullable ? .fields([("type", .array([.string(name), .string("null")]))]) : .fields([("type", .string(name))])
        }
        func object(_ properties: [(String, JSONDocument)]) -> JSONDocument {
            .fields([
                ("type", .string("object")),
                ("properties", .fields(properties)),
                ("required", .array(properties.map { .string($0.0) })),
            ])
        }
        let level = JSONDocument.fields([("type", .string("string")), ("enum", .array(["ok", "warn", "critical"].map { .string($0) }))])
        let window = object([
            ("name", type("string")), ("title", type("string")),
            ("used_percent", type("number")), ("left_percent", type("number")), ("level", level),
            ("resets_at", type("string", nullable: true)), ("resets_in", type("string", nullable: true)),
            ("resets_in_seconds", type("number", nullable: true)),
            ("burn_rate_percent_per_hour", type("number", nullable: true)),
            ("pace_percent_at_reset", type("number", nullable: true)),
            ("runs_out_in", type("string", nullable: true)), ("runs_out_in_seconds", type("number", nullable: true)),
            ("binding", type("boolean")),
        ])
        let account = object([
            ("name", type("string")), ("label", type("string")), ("provider", type("string")),
            ("status", type("string")), ("level", level), ("age_seconds", type("number", nullable: true)),
            ("plan", type("string", nullable: true)), ("error", type("string", nullable: true)),
            ("advice", type("string")),
            ("windows", .fields([("type", .string("array")), ("items", window)])),
        ])
        return object([
            ("now", type("string")), ("level", level), ("advice", type("string")),
            ("accounts", .fields([("type", .string("array")), ("items", account)])),
        ])
    }
}
