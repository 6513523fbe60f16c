// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// The view as JSON: the `json` adapter's output and the `view` inside a plugin's stdin.
/// Keys are sorted; every key is always present (`null` when unknown), so the shape is stable.
/// Text from the data (keys, labels, error, plan, currency) comes without controls or bidi
/// controls (`SafeText`), so `jq -r` cannot print an escape sequence to a terminal.
///
/// | key | value |
/// |---|---|
/// | `version` | `2`: bumped when a key changes meaning or goes away (2: `account` is the account's name, its type is `account_type`; each of several accounts' `name` is `account`) |
/// | `now` | ISO-8601 UTC time of the render |
/// | `status` | `ok` `stale` `offline` `rate_limited` `expired` `signed_out` `loading` |
/// | `level` | `ok` `warn` `critical` (worst window; `ok` without data) |
/// | `age` | seconds since the data was observed, whole, or `null` |
/// | `stale`, `offline` | booleans |
/// | `error` | short reason when the status is not `ok`/`stale`/`loading`, else `null` |
/// | `plan` | `pro`, `max`, … or `null` |
/// | `source` | where the reading came from: `api`, `status_line`, `claude_snapshot`, `session_log` (Codex's session logs: a file, not an API), `plugin`, `demo` or `null` |
/// | `cooldown_until` | ISO-8601 when a 429/backoff cooldown ends, or `null` |
/// | `windows` | array, display order: `key` (API name), `name` (`5h`…), `label`, `title` (Claude Code's row title), `used`, `left` (percent, 2 decimals), `resets_at` (ISO or `null`), `resets_in` (seconds or `null`), `level`, `pace` (projected percent at reset, 1 decimal, or `null`), `eta` (seconds to 100 % or `null`), `rate` (percent per hour now, 2 decimals, or `null`; see the `rate` variable), `has_reset`, `binding` (the API says this limit binds now), `source` (`api`, `status_line`, `claude_snapshot`, `session_log`, `plugin`, `demo`), `detail` (the source's figures in words: `259% used, 1,811.97 of 700 credits`, or `null`), `age` (seconds since this number was observed), `shown` (Claude Code's `/usage` shows it) |
/// | `extra` | `null` or `enabled`, `monthly_limit_minor`, `used_minor` (minor units), `utilization`, `currency` (`null` when the API did not say), `exponent` (digits of the minor unit) |
/// | `spend` | `null` or `used_minor`, `limit_minor`, `currency`, `exponent`, `percent` (may pass 100; `null` uncapped), `level`, `organisation`, `is_limit` (it drives `level`), `period`, `resets_at`, `source` |
/// | `account` | the `[accounts.NAME]` this is, or `null` for the environment's own login (one meaning of "account" in every JSON elbowroom writes) |
/// | `account_type` | `subscriber`, `organisation pool`, `spend only`, `gateway`, `no limits`, `blocked` (a Codex workspace that refuses every request), or `null` without data |
/// | `notice` | for an account with data but nothing to show: `team plan: no limits or spend to show`, else `null` |
/// | `unknown_keys` | top-level keys of the last body elbowroom has never heard of |
///
/// With several `[accounts.NAME]` (and no `--account`) the object is instead `accounts` (each
/// account's object as above, its `account` the name, with `label` and `provider` added, in
/// config order), `level` (the worst over all), `now` and `version`.
public enum ViewJSON {
    public static let version = 2

    /// Several accounts: `{"accounts":[…],"level":…,"now":…,"version":2}`.
    public static func value(accounts: [AccountView], level: Level, now: Date) -> JSONValue {
        var items: [JSONValue] = []
        for account in accounts {
            guard case .object(let pairs) = value(account.view, account: account.name) else { continue }
            var all = pairs
            all.append(("label", .string(SafeText.clean(account.label, lines: .keep))))
            all.append(("provider", .string(SafeText.clean(account.provider, lines: .keep))))
            all.sort { $0.0 < $1.0 }
            items.append(.object(all))
        }
        return .object([
            ("accounts", .array(items)),
            ("level", .string(level.rawValue)),
            ("now", .string(ISO8601.format(now))),
            ("version", .number(Double(version))),
        ])
    }

    /// - Parameter account: the `[accounts.NAME]` the view is of, when it is one.
    public static func value(_ view: UsageView, account: String? = nil) -> JSONValue {
        func seconds(_ t: TimeInterval?) -> JSONValue { .number(t.map { $0.rounded() }) }
        func percent(_ p: Double?) -> JSONValue { .number(p.map { JSONNumber.rounded($0, places: 2) }) }
        func text(_ s: String?) -> JSONValue { .string(s.map { SafeText.clean($0, lines: .keep) }) }
        let windows: [JSONValue] = view.windows.map { w in
            .object([
                ("age", seconds(w.age(now: view.now))),
                ("binding", .bool(w.binding)),
                ("detail", text(w.detail)),
                ("eta", seconds(w.eta)),
                ("has_reset", .bool(w.hasReset)),
                ("key", text(w.key)),
                ("label", text(w.label)),
                ("left", percent(w.left)),
                ("level", .string(w.level.rawValue)),
                ("name", text(w.name)),
                ("pace", .number(w.pace.map { JSONNumber.rounded($0, places: 1) })),
                ("rate", percent(w.rate)),
                ("resets_at", .string(w.resetsAt.map(ISO8601.format))),
                ("resets_in", seconds(w.resetsIn)),
                ("shown", .bool(w.shown)),
                ("source", .string(w.source.rawValue)),
                ("title", text(w.title)),
                ("used", percent(w.used)),
            ])
        }
        let extra: JSONValue = view.extra.map { e in
            .object([
                ("currency", text(e.currency)),
                ("enabled", e.isEnabled.map { .bool($0) } ?? .null),
                ("exponent", .number(Double(e.minorDigits))),
                ("monthly_limit_minor", .number(e.monthlyLimitMinor)),
                ("used_minor", .number(e.usedMinor)),
                ("utilization", percent(e.utilization)),
            ])
        } ?? .null
        let spend: JSONValue = view.spend.map { s in
            .object([
                ("currency", text(s.currency.isEmpty ? nil : s.currency)),
                ("exponent", .number(Double(s.exponent))),
                ("is_limit", .bool(s.isLimit)),
                ("level", .string(s.level.rawValue)),
                ("limit_minor", .number(s.limitMinor)),
                ("organisation", .bool(s.organisation)),
                ("percent", percent(s.percent)),
                ("period", text(s.period)),
                ("resets_at", .string(s.resetsAt.map(ISO8601.format))),
                ("source", .string(s.source.rawValue)),
                ("used_minor", .number(s.usedMinor)),
            ])
        } ?? .null
        return .object([
            ("account", text(account)),
            ("account_type", text(view.accountType)),
            ("age", seconds(view.age)),
            ("cooldown_until", .string(view.cooldownUntil.map(ISO8601.format))),
            ("error", text(view.error)),
            ("extra", extra),
            ("level", .string(view.level.rawValue)),
            ("notice", text(view.notice)),
            ("now", .string(ISO8601.format(view.now))),
            ("offline", .bool(view.isOffline)),
            ("plan", text(view.plan)),
            ("source", .string(view.source?.rawValue)),
            ("spend", spend),
            ("stale", .bool(view.isStale)),
            ("status", .string(view.status.rawValue)),
            ("unknown_keys", .array(view.unknownKeys.map { text($0) })),
            ("version", .number(Double(version))),
            ("windows", .array(windows)),
        ])
    }
}
