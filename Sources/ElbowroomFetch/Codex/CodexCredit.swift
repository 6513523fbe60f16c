#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ElbowroomCore

/// A Codex workspace's credit limits (`spend_control`, CODEX.md §3 "Newer shapes") as windows, so
/// every consumer — the line, `guard`, `serve`, Prometheus, notifications — sees them as the limits
/// they are:
///
/// - `individual_limit` is `credit_limit`, "Monthly credit limit" as Codex's own screens call it;
///   any other limit object beside it (`group_limit`, …) is `credit_<name>`. Amounts come as strings
///   of credits (`"600"`, `"94.37"`) or numbers. The percent is `used_percent`, else worked out from
///   the amounts; over 100 % used is 0 % left (critical), and the words keep the real figure
///   (`detail`: `259% used, 1,811.97 of 700 credits`).
/// - A workspace that refuses every request (`spend_control.reached`, or `rate_limit_reached_type`
///   naming a workspace's credits or usage limit) is blocked, whatever else the body holds: a
///   window `blocked` at 100 % used that binds, labelled with the reason.
enum CodexCredit {
    struct SpendControl: Decodable {
        var reached: Bool?
        var reachedLimitType: String?
        /// Every limit object, by key, in the body's order (`individual_limit` first when present).
        var limits: [(name: String, limit: CreditLimit)] = []

        init(reached: Bool?, limits: [(name: String, limit: CreditLimit)]) {
            self.reached = reached
            self.limits = limits
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: AnyKey.self)
            reached = try? c.decodeIfPresent(Bool.self, forKey: AnyKey(stringValue: "reached"))
            reachedLimitType = (try? c.decodeIfPresent(String.self, forKey: AnyKey(stringValue: "reached_limit_type")))
                ?? (try? c.decodeIfPresent(ReachedType.self, forKey: AnyKey(stringValue: "reached_limit_type")))?.type
            for key in c.allKeys.prefix(16) where key.stringValue.hasSuffix("_limit") {
                guard let limit = try? c.decodeIfPresent(CreditLimit.self, forKey: key), limit.carriesData else { continue }
                limits.append((key.stringValue, limit))
            }
            limits.sort { ($0.name == "individual_limit" ? 0 : 1, $0.name) < ($1.name == "individual_limit" ? 0 : 1, $1.name) }
        }
    }

    /// `{limit, used, remaining, used_percent, remaining_percent, reset_after_seconds, reset_at}`,
    /// each a number or a numeric string.
    struct CreditLimit: Decodable {
        var limit: Double?
        var used: Double?
        var remaining: Double?
        var usedPercent: Double?
        var remainingPercent: Double?
        var resetAfter: Double?
        var resetAt: Double?

        enum CodingKeys: String, CodingKey {
            case limit, used, remaining, used_percent, remaining_percent, reset_after_seconds, reset_at
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            func number(_ key: CodingKeys) -> Double? {
                if let value = try? c.decodeIfPresent(Double.self, forKey: key) { return value.isFinite ? value : nil }
                guard let text = try? c.decodeIfPresent(String.self, forKey: key) else { return nil }
                let trimmed = String(text.trimmed.filter { $0 != "," })
                let digits = trimmed.hasSuffix("%") ? String(trimmed.dropLast()) : trimmed
                return Double(digits).flatMap { $0.isFinite ? $0 : nil }
            }
            limit = number(.limit)
            used = number(.used)
            remaining = number(.remaining)
            usedPercent = number(.used_percent)
            remainingPercent = number(.remaining_percent)
            resetAfter = number(.reset_after_seconds)
            resetAt = number(.reset_at)
        }

        var carriesData: Bool { usedPercent != nil || remainingPercent != nil || (used != nil && limit != nil) }

        /// Percent used: the body's, else from the amounts, else from what remains.
        var percent: Double? {
            if let usedPercent { return usedPercent }
            if let used, let limit, limit > 0 { return used / limit * 100 }
            if let remainingPercent { return 100 - remainingPercent }
            return nil
        }
    }

    /// `{"type": "workspace_member_usage_limit_reached", "details": …}`, or the bare string.
    struct ReachedType: Decodable {
        var type: String?

        enum CodingKeys: String, CodingKey { case type }

        init(from decoder: any Decoder) throws {
            if let text = try? decoder.singleValueContainer().decode(String.self) {
                type = text
            } else {
                type = try? decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(String.self, forKey: .type)
            }
        }
    }

    /// The most a credit percent may be and still be one (a workspace lets spending run past its
    /// limit: 259 % has been seen); beyond it the percent is not data.
    static let maxPercent = 100_000.0

    /// The credit-limit windows of a `spend_control`, and `blocked` when the workspace refuses
    /// requests (`reached` here, or `rate_limit_reached_type` naming a workspace limit).
    static func windows(_ control: SpendControl?, reached reachedType: String?, observedAt now: Date,
                        notes: inout [String]) -> [UsageWindow] {
        var windows: [UsageWindow] = []
        for (name, limit) in control?.limits ?? [] {
            let key = name == "individual_limit" ? "credit_limit" : "credit_" + CodexUsage.safeKey(String(name.dropLast("_limit".count)))
            guard let percent = limit.percent, percent >= 0, percent <= maxPercent else {
                notes.append("spend_control.\(name): no percent that is one; left out")
                continue
            }
            let reset = CodexUsage.resetTime(at: limit.resetAt, after: limit.resetAfter, place: "spend_control.\(name)",
                                             now: now, notes: &notes)
            guard reset.readable else { continue }
            let resetsAt = reset.date
            let label = name == "individual_limit" ? "Monthly credit limit"
                : "Credit limit (" + WindowCatalog.humanize(String(name.dropLast("_limit".count))) + ")"
            var window = UsageWindow(key: key, label: label, used: min(percent, 100), resetsAt: resetsAt, observedAt: now)
            window.detail = detail(percent: percent, used: limit.used, limit: limit.limit)
            if percent >= 100 { window.binding = true }
            windows.append(window)
        }
        if let reason = blockReason(reached: control?.reached == true, type: reachedType ?? control?.reachedLimitType) {
            var window = UsageWindow(key: "blocked", label: "Blocked", used: 100, resetsAt: windows.first?.resetsAt,
                                     binding: true, observedAt: now)
            window.detail = reason
            windows.append(window)
        }
        return windows
    }

    /// Why the workspace refuses requests, or `nil` when it does not: `spend_control.reached`, or a
    /// reached type naming the workspace's credits or usage limit (a plain `rate_limit_reached` is
    /// a window used up, which the windows already show).
    static func blockReason(reached: Bool, type: String?) -> String? {
        switch type {
        case "workspace_owner_credits_depleted": return "the workspace's credits are used up (owner)"
        case "workspace_member_credits_depleted": return "the workspace's credits for members are used up"
        case "workspace_owner_usage_limit_reached": return "the workspace's usage limit is reached (owner)"
        case "workspace_member_usage_limit_reached": return "your workspace credit limit is reached"
        default: return reached ? "the workspace's credit limit is reached" : nil
        }
    }

    /// The words: `32% used, 8,000 of 25,000 credits`; the percent as it is, never capped.
    static func detail(percent: Double, used: Double?, limit: Double?) -> String {
        var text = "\(PercentText.whole(percent))% used"
        if let used, abs(used) < 1e15 {
            text += ", " + amount(used)
            if let limit, abs(limit) < 1e15 { text += " of " + amount(limit) }
            text += " credits"
        }
        return text
    }

    /// `1811.97` → `1,811.97`, `700` → `700`.
    static func amount(_ value: Double) -> String {
        var text = NumberText.fixed(value, decimals: 2)
        if text.hasSuffix(".00") { text.removeLast(3) }
        let negative = text.hasPrefix("-")
        let digits = NumberText.grouped(negative ? String(text.dropFirst()) : text)
        return (negative ? "-" : "") + digits
    }
}
