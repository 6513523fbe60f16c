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
///   not a rate window, and is left out.
/// - A percentage far outside 0…100 is not data: the window is left out and a note says why.
/// - `limits[]` keys: `session` → `five_hour`, `weekly_all` → `seven_day`, `weekly_scoped` →
///   `seven_day_<model or surface>`, any other kind → `<kind>_<group>`; two limits never share
///   a key (a later one gets `_2`, `_3`, …), so neither overwrites the other.
/// Unknown keys are ignored. A body that is not a JSON object, or an object with none of the usage
/// keys (`{"error":…}` with a 200, a captive portal's JSON), throws: it must never replace the last
/// good numbers with an empty reading.
public enum UsageDecoder {
    public struct UndecodableBody: Error, CustomStringConvertible {
        public let description: String
    }

    public static func decode(_ data: Data, observedAt: Date, plan: String? = nil) throws -> Reading {
        let body: Body
        do {
            body = try JSONDecoder().decode(Body.self, from: data)
        } catch {
            throw UndecodableBody(description: "usage response is not the expected JSON object")
        }
        guard body.isUsage else {
            throw UndecodableBody(description: "usage response has none of the usage keys (five_hour, seven_day, limits, extra_usage)")
        }
        let limits = body.limits ?? []
        var notes: [String] = []
        var windows: [String: UsageWindow] = [:]
        for (key, flat) in body.flat {
            guard let raw = flat.utilization?.value else { continue }
            guard let used = UsagePercent.accept(raw) else {
                notes.append(UsagePercent.note(key: key, field: "utilization", value: raw))
                continue
            }
            let resetsAt = flat.resets_at?.date
            let isRateWindow = WindowCatalog.isRateWindowKey(key)
            // A codename key with a dollar limit is a credit pool (its reset is an expiry), not a window.
            if !isRateWindow && (flat.limit_dollars?.value ?? 0) > 0 { continue }
            // 0 with no reset: an idle window (five_hour, seven_day*), unless `limits[]` speaks for
            // the account; for a codename key it carries nothing.
            if used == 0 && resetsAt == nil && (!limits.isEmpty || !isRateWindow) { continue }
            windows[key] = UsageWindow(key: key, used: used, resetsAt: resetsAt, observedAt: observedAt)
        }
        var taken: Set<String> = []
        for limit in limits {
            guard let base = limit.windowKey else { continue }
            var key = base
            var n = 2
            while taken.contains(key) { key = base + "_\(n)"; n += 1 }
            taken.insert(key)
            let resetsAt = limit.resets_at?.date
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
                    resetsAt: resetsAt ?? windows[key]?.resetsAt, severity: limit.severity?.value,
                    binding: binding, observedAt: observedAt)
            } else if var existing = windows[key] {
                existing.severity = limit.severity?.value ?? existing.severity
                existing.label = limit.displayName ?? existing.label
                existing.binding = binding == true ? true : existing.binding
                windows[key] = existing
            }
        }
        let extra = body.extra_usage.map {
            ExtraUsage(isEnabled: $0.is_enabled?.value, monthlyLimitMinor: $0.monthly_limit?.value,
                       usedMinor: $0.used_credits?.value, utilization: $0.utilization?.value,
                       currency: $0.currency?.value)
        }
        return Reading(windows: Array(windows.values), extra: extra, plan: plan,
                       fetchedAt: observedAt, source: .api, notes: notes.sorted())
    }

    struct FlatWindow: Decodable {
        var utilization: FlexibleNumber?
        var resets_at: FlexibleDate?
        var limit_dollars: FlexibleNumber?
    }

    struct Extra: Decodable {
        var is_enabled: Lenient<Bool>?
        var monthly_limit: FlexibleNumber?
        var used_credits: FlexibleNumber?
        var utilization: FlexibleNumber?
        var currency: Lenient<String>?
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
        /// Whether any key that only a usage body has is present (even as `null`).
        var isUsage = false

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: DynamicKey.self)
            for key in container.allKeys {
                if ["five_hour", "seven_day", "limits", "extra_usage"].contains(key.stringValue)
                    || key.stringValue.hasPrefix("seven_day_") {
                    isUsage = true
                }
                switch key.stringValue {
                case "limits":
                    limits = (try? container.decode(Lenient<[Lenient<Limit>]>.self, forKey: key))?
                        .value?.compactMap(\.value)
                case "extra_usage":
                    extra_usage = try? container.decode(Extra.self, forKey: key)
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
