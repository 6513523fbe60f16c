#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ElbowroomCore

/// The `--json` line. Stable; `schema` changes only when a field changes meaning (2: `account`
/// is the `[accounts.NAME]` fetched, or `null` for the environment's own login; the login's
/// path, which `account` was in schema 1, is `login`).
///
/// ```json
/// {"schema":2,"status":"fetched|skipped|failed","outcome":"ok|network|…|null","message":null,
///  "reason":null,"account":"work","login":"/home/me/.claude/.credentials.json","plan":"max","source":"api",
///  "fetched_at":"2026-11-22T14:03:07Z","last_attempt":"…","cooldown_until":null,
///  "windows":[{"key":"five_hour","label":"Session","used":12.5,"left":87.5,
///              "resets_at":"2026-11-22T18:00:00Z","severity":null}],
///  "extra_usage":{"is_enabled":true,"monthly_limit":5000,"used_credits":120,"utilization":2.4,"currency":null}}
/// ```
/// `outcome` is this run's outcome, or for a skip the last recorded one. Dates are ISO-8601 UTC;
/// `used`/`left` are percent (0…100); money is in minor units (cents).
public enum FetchJSON {
    public static let schema = 2

    /// - Parameter account: the `[accounts.NAME]` fetched (`ELBOWROOM_ACCOUNT`), if one.
    public static func line(_ report: FetchReport, account: String? = nil) -> String {
        // Keys in sorted order, as the line has always been written.
        var finite = true
        func number(_ value: Double?) -> JSONDocument {
            guard let value else { return .null }
            guard let json = JSONDocument.number(value) else {
                finite = false
                return .null
            }
            return json
        }
        let cache = report.cache
        let status: String, outcome: String?, message: String?, reason: String?
        switch report.result {
        case .fetched:
            (status, outcome, message, reason) = ("fetched", "ok", nil, nil)
        case .skipped(let why):
            (status, outcome, message, reason) = ("skipped", cache?.fetch.lastOutcome?.rawValue, text(cache?.fetch.message), text(why))
        case .failed(let error):
            (status, outcome, message, reason) = ("failed", error.outcome.rawValue, text(error.description), nil)
        }
        let reading = cache?.reading
        let windows = (reading?.windows ?? []).map { window -> JSONDocument in
            .object([
                .init("key", .string(text(window.key))),
                .init("label", .string(text(WindowCatalog.label(forKey: window.key, apiLabel: window.label)))),
                .init("left", number(min(max(100 - window.used, 0), 100))),
                .init("resets_at", date(window.resetsAt)),
                .init("severity", .string(text(window.severity))),
                .init("used", number(window.used)),
            ])
        }
        var extraUsage = JSONDocument.null
        if let extra = reading?.extra {
            extraUsage = .object([
                .init("currency", .string(text(extra.currency))),
                .init("is_enabled", extra.isEnabled.map(JSONDocument.bool) ?? .null),
                .init("monthly_limit", number(extra.monthlyLimitMinor)),
                .init("used_credits", number(extra.usedMinor)),
                .init("utilization", number(extra.utilization)),
            ])
        }
        let document = JSONDocument.object([
            .init("account", .string(text(account))),
            .init("cooldown_until", date(cache?.fetch.cooldownUntil)),
            .init("extra_usage", extraUsage),
            .init("fetched_at", date(reading?.fetchedAt)),
            .init("last_attempt", date(cache?.fetch.lastAttempt)),
            .init("login", .string(text(cache?.account))),
            .init("message", .string(message)),
            .init("outcome", .string(outcome)),
            .init("plan", .string(text(reading?.plan))),
            .init("reason", .string(reason)),
            .init("schema", .number(schema)),
            .init("source", .string(reading?.source.rawValue)),
            .init("status", .string(status)),
            .init("windows", .array(windows)),
        ])
        // NaN and infinities have no JSON: the line is then an empty object, as it always was.
        return finite ? document.serializedString() : "{}"
    }

    /// Text from the data or a server without controls or bidi controls (`SafeText`): the
    /// writer leaves C1 controls raw, and `jq -r` prints what `\u001b` decodes to.
    static func text(_ text: String?) -> String? {
        text.map { SafeText.clean($0, lines: .keep) }
    }

    static func date(_ date: Date?) -> JSONDocument {
        .string(date.map(ISO8601.format))
    }
}
