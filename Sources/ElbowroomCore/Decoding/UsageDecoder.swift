#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// Decodes the body of `GET /api/oauth/usage` into a `Reading`.
///
/// Two shapes exist and both may be present:
/// - flat windows: `five_hour`, `seven_day`, `seven_day_sonnet`, … each `null` or
///   `{utilization, resets_at}`, plus `extra_usage`;
/// - newer accounts: `limits: [{kind, group, percent, severity, resets_at, scope, is_active}]`.
/// `limits[]` wins field by field; flat windows fill what it lacks. A `0` with no `resets_at` is a
/// placeholder, not a reading. Unknown keys are ignored; a body that is not a JSON object throws.
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
        var windows: [String: UsageWindow] = [:]
        for (key, flat) in body.flat {
            guard let used = flat.utilization?.value else { continue }
            let resetsAt = flat.resets_at?.date
            if used == 0 && resetsAt == nil { continue }
            windows[key] = UsageWindow(key: key, used: used, resetsAt: resetsAt, observedAt: observedAt)
        }
        for limit in body.limits ?? [] {
            guard let key = limit.windowKey else { continue }
            let percent = limit.percent?.value
            let resetsAt = limit.resets_at?.date
            let isPlaceholder = (percent ?? 0) == 0 && resetsAt == nil
            var window = windows[key]
            if !isPlaceholder, let percent {
                window = UsageWindow(
                    key: key, label: limit.displayName ?? window?.label, used: percent,
                    resetsAt: resetsAt ?? window?.resetsAt, severity: limit.severity?.value,
                    observedAt: observedAt)
            } else if var existing = window {
                existing.severity = limit.severity?.value ?? existing.severity
                existing.label = limit.displayName ?? existing.label
                window = existing
            }
            windows[key] = window
        }
        let extra = body.extra_usage.map {
            ExtraUsage(isEnabled: $0.is_enabled?.value, monthlyLimitMinor: $0.monthly_limit?.value,
                       usedMinor: $0.used_credits?.value, utilization: $0.utilization?.value,
                       currency: $0.currency?.value)
        }
        return Reading(windows: Array(windows.values), extra: extra, plan: plan,
                       fetchedAt: observedAt, source: .api)
    }

    struct FlatWindow: Decodable {
        var utilization: FlexibleNumber?
        var resets_at: FlexibleDate?
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
            struct Model: Decodable { var display_name: Lenient<String>? }
            var model: Lenient<Model>?
        }
        var kind: Lenient<String>?
        var group: Lenient<String>?
        var percent: FlexibleNumber?
        var severity: Lenient<String>?
        var resets_at: FlexibleDate?
        var scope: Lenient<Scope>?

        var displayName: String? { scope?.value?.model?.value?.display_name?.value }

        /// `session` → `five_hour`, `weekly_all` → `seven_day`, `weekly_scoped` →
        /// `seven_day_<model>` (so Sonnet lands on `seven_day_sonnet`, as in the flat shape).
        var windowKey: String? {
            switch kind?.value {
            case "session": return "five_hour"
            case "weekly_all": return "seven_day"
            case "weekly_scoped":
                let name = (displayName ?? group?.value ?? "").lowercased()
                if name.contains("sonnet") { return "seven_day_sonnet" }
                if name.contains("opus") { return "seven_day_opus" }
                let slug = UsageDecoder.slug(name)
                return slug.isEmpty ? nil : "seven_day_" + slug
            case let other?:
                let slug = UsageDecoder.slug(group?.value ?? other)
                return slug.isEmpty ? nil : slug
            case nil:
                return nil
            }
        }
    }

    /// The top-level object: every key whose value looks like a window is a window.
    struct Body: Decodable {
        var flat: [String: FlatWindow] = [:]
        var limits: [Limit]?
        var extra_usage: Extra?


        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: DynamicKey.self)
            for key in container.allKeys {
                switch key.stringValue {
                case "limits":
                    limits = (try? container.decode(Lenient<[Lenient<Limit>]>.self, forKey: key))?
                        .value?.compactMap(\.value)
                case "extra_usage":
                    extra_usage = try? container.decode(Extra.self, forKey: key)
                default:
                    if let window = try? container.decode(FlatWindow.self, forKey: key),
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
