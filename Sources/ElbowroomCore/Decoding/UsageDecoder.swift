#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// Decodes the body of `GET /api/oauth/usage` into a `Reading`.
///
/// Two shapes exist and both may be present:
/// - flat windows: `five_hour`, `seven_day`, `seven_day_sonnet`, codename keys, … each `null` or
///   `{utilization, resets_at}`, plus `extra_usage`;
/// - newer accounts: `limits: [{kind, group, percent, severity, resets_at, scope, is_active}]`.
///
/// Rules, in the order they apply:
/// - `limits[]` wins field by field where it has a number; flat windows fill what it lacks (a
///   limit at `0` with no `resets_at` does not override a flat window that has a number).
/// - Beside a `limits[]`, a flat `0` with no `resets_at` carries nothing (a placeholder).
///   Without one, `five_hour`/`seven_day*` at `0` with no reset is an idle window that has not
///   started: 0 % used, no reset time. A codename key (`nimbus_quill`) at `0` carries nothing.
/// - A codename key with a `limit_dollars` (`iguana_necktie` as a $100 credit pool) is money,
///   not a rate window, and is left out — except `cinder_cove` and `wattle_ember` (with its
///   `label`), the credit windows Claude Code's `/usage` shows as rows.
/// - A percentage far outside 0…100 is not data: the window is left out and a note says why.
/// - `limits[]` keys: `session` → `five_hour`, `weekly_all` → `seven_day`, `weekly_scoped` →
///   `seven_day_<model or surface>`, any other kind → `<kind>_<group>`. An entry repeated (same
///   key, percent and reset within a second) is one limit; a different limit under the same key
///   gets `_2`, `_3`, … so neither overwrites the other. At most `maxLimitEntries` are read.
/// - `extra_usage` and the top-level `spend` object become one `ExtraUsage` (see `spend`).
/// Unknown keys are listed in `Reading.unknownKeys` and otherwise ignored. A body that is not a JSON object, or an object with none of the usage
/// keys (`{"error":…}` with a 200, a captive portal's JSON), throws: it must never replace the last
/// good numbers with an empty reading.
public enum UsageDecoder {
    public struct UndecodableBody: Error, CustomStringConvertible {
        public let description: String
    }

    /// At most this many `limits[]` entries are read (real bodies have three or four); the rest
    /// are left out with a note, so a hostile body cannot make a fetch run for minutes.
    public static let maxLimitEntries = 256

    /// Top-level keys elbowroom knows (reads, or knows to leave alone): any other key of a body
    /// is listed in `Reading.unknownKeys`.
    public static let knownKeys: Set<String> = [
        "five_hour", "seven_day", "seven_day_oauth_apps", "seven_day_opus", "seven_day_sonnet",
        "cinder_cove", "wattle_ember", "extra_usage", "limits", "promo_credits", "spend",
        "seven_day_breakdown", "member_dashboard_available",
        // Codename keys seen in real bodies (ACCOUNTS.md, Tests/…/Fixtures/RealWorld).
        "seven_day_cowork", "seven_day_omelette", "omelette_promotional", "seven_day_design",
        "seven_day_routines", "tangelo", "iguana_necktie", "nimbus_quill", "amber_ladder",
        "juniper_tide", "copper_kite", "harbor_lantern", "brass_thimble", "amber_cistern",
        "cedar_ember", "amber_gauge",
    ]

    /// At most this many unknown keys are kept, each at most 64 bytes.
    static let maxUnknownKeys = 32

    /// - Parameter plan: the credentials' `subscriptionType`; on a `team` plan `extra_usage` is
    ///   the organisation's pool (ACCOUNTS.md), and the reading says so.
    public static func decode(_ data: Data, observedAt: Date, plan: String? = nil) throws -> Reading {
        let body: Body
        do {
            body = try JSONDecoder().decode(Body.self, from: data)
        } catch {
            throw UndecodableBody(description: "usage response is not the expected JSON object")
        }
        return try reading(body, observedAt: observedAt, plan: plan, source: .api)
    }

    /// The reading of an already decoded body (the API's, or the one inside Claude Code's snapshot).
    static func reading(_ body: Body, observedAt: Date, plan: String?, source: ReadingSource) throws -> Reading {
        guard body.isUsage else {
            throw UndecodableBody(description: "usage response has none of the usage keys (five_hour, seven_day, limits, extra_usage, spend)")
        }
        var limits = body.limits ?? []
        var notes: [String] = []
        if limits.count > maxLimitEntries {
            notes.append("limits: \(limits.count) entries, only the first \(maxLimitEntries) read")
            limits.removeLast(limits.count - maxLimitEntries)
        }
        var windows: [String: UsageWindow] = [:]
        for (key, flat) in body.flat {
            guard let raw = flat.utilization?.value else { continue }
            guard let used = UsagePercent.accept(raw) else {
                notes.append(UsagePercent.note(key: key, field: "utilization", value: raw))
                continue
            }
            let resetsAt = flat.resets_at?.date
            let isRateWindow = WindowCatalog.isRateWindowKey(key)
            let isShownCredit = WindowCatalog.isShownCredit(key)
            // A codename key with a dollar limit is a credit pool (its reset is an expiry), not a
            // window — except the two credit windows Claude Code's `/usage` shows as rows.
            if !isRateWindow && !isShownCredit && (flat.limit_dollars?.value ?? 0) > 0 { continue }
            // 0 with no reset: an idle window (five_hour, seven_day*), unless `limits[]` speaks for
            // the account; for a codename key it carries nothing.
            if used == 0 && resetsAt == nil && (!limits.isEmpty || !(isRateWindow || isShownCredit)) { continue }
            let label = flat.label?.value.flatMap { $0.isEmpty ? nil : $0 }
            windows[key] = UsageWindow(key: key, label: label, used: used, resetsAt: resetsAt, observedAt: observedAt)
        }
        // One limit is one window: entries with the same key, the same reset (within a second:
        // the API's all-models and scoped weeks differ by microseconds) and the same percent
        // are one entry repeated; a limit under the same key that differs gets `_2`, `_3`, …
        // Linear: each key remembers its windows and its next free suffix.
        var byBase: [String: [(reset: Date?, percent: Double?, key: String)]] = [:]
        var nextSuffix: [String: Int] = [:]
        var taken: Set<String> = []
        for limit in limits {
            guard let base = limit.windowKey else { continue }
            let resetsAt = limit.resets_at?.date
            if byBase[base]?.contains(where: { Self.sameReset($0.reset, resetsAt) && $0.percent == limit.percent?.value }) == true {
                continue
            }
            var key = base
            if taken.contains(key) {
                var n = nextSuffix[base] ?? 2
                repeat { key = base + "_\(n)"; n += 1 } while taken.contains(key)
                nextSuffix[base] = n
            }
            taken.insert(key)
            byBase[base, default: []].append((resetsAt, limit.percent?.value, key))
            let binding = limit.is_active?.value
            let percent = limit.percent?.value
            let used = percent.flatMap(UsagePercent.accept)
            if let percent, used == nil {
                notes.append(UsagePercent.note(key: key, field: "percent", value: percent))
            }
            // A limit at 0 with no reset beside a flat window that has a number adds nothing.
            let idlePlaceholder = used == 0 && resetsAt == nil && windows[key] != nil
            if let used, !idlePlaceholder {
                windows[key] = UsageWindow(
                    key: key, label: limit.displayName ?? windows[key]?.label, used: used,
                    resetsAt: resetsAt ?? windows[key]?.resetsAt,
                    severity: limit.severity?.value, binding: binding, observedAt: observedAt)
            } else if var existing = windows[key] {
                existing.severity = limit.severity?.value ?? existing.severity
                existing.label = limit.displayName ?? existing.label
                existing.binding = binding == true ? true : existing.binding
                windows[key] = existing
            }
        }
        let extra = spend(extra: body.extra_usage, spend: body.spend, plan: plan, notes: &notes)
        return Reading(windows: Array(windows.values), extra: extra, plan: plan,
                       fetchedAt: observedAt, source: source, notes: notes.sorted(),
                       unknownKeys: unknownKeys(body.keys))
    }

    /// Two resets are the same when both are unknown or they lie within a second of each other.
    static func sameReset(_ a: Date?, _ b: Date?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case let (a?, b?): abs(a.timeIntervalSince(b)) <= 1
        default: false
        }
    }

    static func unknownKeys(_ keys: [String]) -> [String] {
        Array(keys.filter { !knownKeys.contains($0) && $0.utf8.count <= 64 }.sorted().prefix(maxUnknownKeys))
    }

    /// `extra_usage` and the newer `spend` object as one: `spend`'s amounts where it has them
    /// (each converted to its own exponent), `extra_usage` for the rest. A currency code that is
    /// not three letters is dropped, with a note. `nil` when neither is there.
    static func spend(extra e: Extra?, spend s: Spend?, plan: String?, notes: inout [String]) -> ExtraUsage? {
        guard e != nil || s != nil else { return nil }
        var rawCurrency = s?.used?.value?.currency?.value ?? s?.limit?.value?.currency?.value
        if rawCurrency == nil { rawCurrency = e?.currency?.value }
        let currency = MinorUnits.code(rawCurrency)
        if let rawCurrency, currency == nil {
            notes.append("extra_usage: currency \(SafeText.clean(String(rawCurrency.prefix(16)), lines: .join)) is not an ISO 4217 code; amounts shown without one")
        }
        let extraDigits = e?.decimal_places?.value.flatMap { (0...6).contains($0) ? $0 : nil }
        let exponent = s?.used?.value?.digits ?? extraDigits
        // `spend.limit` in the exponent of `spend.used` (the two may differ).
        var limit = e?.monthly_limit?.value
        if let money = s?.limit?.value, let amount = money.amount_minor?.value {
            let from = money.digits ?? exponent ?? MinorUnits.digits(currency: currency)
            let to = exponent ?? MinorUnits.digits(currency: currency)
            limit = amount * pow10(to - from)
        }
        let utilization = e?.utilization?.value ?? s?.percent?.value
        var result = ExtraUsage(
            isEnabled: s?.enabled?.value ?? e?.is_enabled?.value,
            monthlyLimitMinor: limit,
            usedMinor: s?.used?.value?.amount_minor?.value ?? e?.used_credits?.value,
            utilization: utilization.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil },
            currency: currency, exponent: exponent,
            disabledReason: (s?.disabled_reason?.value ?? e?.disabled_reason?.value).map { String($0.prefix(64)) },
            limitReached: e?.spend_limit_reached?.value)
        if plan?.lowercased().contains("team") == true { result.organisation = true }
        return result
    }

    static func pow10(_ n: Int) -> Double {
        var r = 1.0
        if n >= 0 { for _ in 0..<min(n, 12) { r *= 10 } } else { for _ in 0..<min(-n, 12) { r /= 10 } }
        return r
    }

    struct FlatWindow: Decodable {
        var utilization: FlexibleNumber?
        var resets_at: FlexibleDate?
        var limit_dollars: FlexibleNumber?
        var label: Lenient<String>?
    }

    struct Extra: Decodable {
        var is_enabled: Lenient<Bool>?
        var monthly_limit: FlexibleNumber?
        var used_credits: FlexibleNumber?
        var utilization: FlexibleNumber?
        var currency: Lenient<String>?
        var decimal_places: Lenient<Int>?
        var disabled_reason: Lenient<String>?
        var spend_limit_reached: Lenient<Bool>?
    }

    /// The top-level `spend` object: `used`/`limit` as `{amount_minor, currency, exponent}`.
    struct Spend: Decodable {
        struct Money: Decodable {
            var amount_minor: FlexibleNumber?
            var currency: Lenient<String>?
            var exponent: Lenient<Int>?
            var digits: Int? { exponent?.value.flatMap { (0...6).contains($0) ? $0 : nil } }
        }
        var used: Lenient<Money>?
        var limit: Lenient<Money>?
        var percent: FlexibleNumber?
        var enabled: Lenient<Bool>?
        var disabled_reason: Lenient<String>?
    }

    struct Limit: Decodable {
        struct Scope: Decodable {
            var model: Lenient<Named>?
            var surface: Lenient<Named>?
        }
        var kind: Lenient<String>?
        var group: Lenient<String>?
        var percent: FlexibleNumber?
        var severity: Lenient<String>?
        var resets_at: FlexibleDate?
        var scope: Lenient<Scope>?
        var is_active: Lenient<Bool>?

        var modelName: String? { scope?.value?.model?.value?.name }
        var surfaceName: String? { scope?.value?.surface?.value?.name }
        var displayName: String? { modelName ?? surfaceName.map(UsageDecoder.surfaceLabel) }

        /// `session` → `five_hour`, `weekly_all` → `seven_day`, `weekly_scoped` →
        /// `seven_day_<model>` (so Sonnet lands on `seven_day_sonnet`, as in the flat shape).
        var windowKey: String? {
            switch kind?.value {
            case "session": return "five_hour"
            case "weekly_all": return "seven_day"
            case "weekly_scoped":
                if let model = modelName?.lowercased() {
                    if model.contains("sonnet") { return "seven_day_sonnet" }
                    if model.contains("opus") { return "seven_day_opus" }
                }
                let slug = UsageDecoder.slug(modelName ?? surfaceName ?? group?.value ?? "")
                return slug.isEmpty ? nil : "seven_day_" + slug
            case let other?:
                let slug = [UsageDecoder.slug(other), UsageDecoder.slug(group?.value ?? "")]
                    .filter { !$0.isEmpty }.joined(separator: "_")
                return slug.isEmpty ? nil : slug
            case nil:
                return nil
            }
        }
    }

    /// A model or surface in a limit's `scope`: `{display_name}`, `{name}`, or a bare string.
    struct Named: Decodable {
        var name: String?
        init(from decoder: Decoder) throws {
            if let text = try? decoder.singleValueContainer().decode(String.self) {
                name = text
            } else {
                let c = try decoder.container(keyedBy: DynamicKey.self)
                name = (try? c.decode(String.self, forKey: DynamicKey(stringValue: "display_name")))
                    ?? (try? c.decode(String.self, forKey: DynamicKey(stringValue: "name")))
            }
            if name?.isEmpty == true { name = nil }
        }
    }

    /// `code` → `Code`: a surface id as a label.
    static func surfaceLabel(_ surface: String) -> String {
        WindowCatalog.humanize(surface)
    }

    /// Top-level keys that are never windows even when they hold a `utilization`.
    static func isWindowKey(_ key: String) -> Bool {
        !(key == "spend" || key.hasSuffix("_breakdown") || key.hasSuffix("_shares"))
    }

    /// The top-level object: every key whose value looks like a window is a window.
    struct Body: Decodable {
        var flat: [String: FlatWindow] = [:]
        var limits: [Limit]?
        var extra_usage: Extra?
        var spend: Spend?
        /// Every top-level key, for `unknownKeys`.
        var keys: [String] = []
        /// Whether any key that only a usage body has is present (even as `null`).
        var isUsage = false

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: DynamicKey.self)
            for key in container.allKeys {
                keys.append(key.stringValue)
                if ["five_hour", "seven_day", "limits", "extra_usage", "spend"].contains(key.stringValue)
                    || key.stringValue.hasPrefix("seven_day_") {
                    isUsage = true
                }
                switch key.stringValue {
                case "limits":
                    limits = (try? container.decode(Lenient<[Lenient<Limit>]>.self, forKey: key))?
                        .value?.compactMap(\.value)
                case "extra_usage":
                    extra_usage = try? container.decode(Extra.self, forKey: key)
                case "spend":
                    spend = try? container.decode(Spend.self, forKey: key)
                default:
                    if UsageDecoder.isWindowKey(key.stringValue),
                       let window = try? container.decode(FlatWindow.self, forKey: key),
                       window.utilization?.value != nil {
                        flat[key.stringValue] = window
                    }
                }
            }
        }
    }

    static func slug(_ text: String) -> String {
        var out = ""
        for ch in text.lowercased() {
            if ch.isASCII && (ch.isLetter || ch.isNumber) { out.append(ch) }
            else if !out.isEmpty && out.last != "_" { out.append("_") }
        }
        while out.last == "_" { out.removeLast() }
        return out
    }
}
