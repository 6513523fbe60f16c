#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ElbowroomCore

/// Codex's usage answer (`GET {base}/wham/usage`, CODEX.md §3) and the rate limits in its session
/// logs (§5) as a `Reading`. Windows are named by their **length**, never by their slot: a weekly-
/// only plan sends its one weekly window first, some accounts a 30-day one. Every field may be
/// missing or null; unknown fields and values are ignored.
enum CodexUsage {
    /// One window, either shape: the endpoint's (seconds) or a session log's (minutes).
    struct Window: Sendable, Equatable {
        var usedPercent: Double?
        /// Length in seconds, when told.
        var seconds: Double?
        var resetsAt: Date?
    }

    /// One limit: the main one (`codex`) or a per-model one (`metered_feature`, `limit_name`).
    struct Limit: Sendable, Equatable {
        var feature: String?
        var name: String?
        var primary: Window?
        var secondary: Window?
    }

    /// The window key for a length: `five_hour` (5 h), `seven_day` (7 d), `thirty_day`, else
    /// `window_<minutes>m`; unknown length: a reset more than 48 h away reads as weekly, else
    /// the slot decides (the first as the session, the second as the week).
    static func key(seconds: Double?, resetsIn: TimeInterval?, slot: Int) -> String {
        if let seconds, seconds.isFinite, seconds > 0 {
            let minutes = Int((seconds / 60).rounded(.up))
            switch minutes {
            case 300: return "five_hour"
            case 10080: return "seven_day"
            case 43200: return "thirty_day"
            default: return "window_\(minutes)m"
            }
        }
        if let resetsIn, resetsIn > 48 * 3600 { return "seven_day" }
        return slot == 0 ? "five_hour" : "seven_day"
    }

    static func label(forKey key: String) -> String? {
        switch key {
        case "five_hour": "Session"
        case "seven_day": "Weekly"
        case "thirty_day": "Monthly"
        default: nil
        }
    }

    /// The windows of some limits, observed at `now`. A per-model window's key is the main
    /// key with the feature after it (`seven_day_codex_bengalfox`), its label the limit's name.
    static func windows(_ limits: [Limit], observedAt now: Date) -> [UsageWindow] {
        var windows: [UsageWindow] = []
        for limit in limits {
            let feature = limit.feature.map(safeKey)
            for (slot, window) in [limit.primary, limit.secondary].enumerated() {
                guard let window, let used = window.usedPercent, used.isFinite else { continue }
                let base = key(seconds: window.seconds, resetsIn: window.resetsAt.map { $0.timeIntervalSince(now) }, slot: slot)
                let isMain = feature == nil || feature == "codex"
                let windowKey = isMain ? base : base + "_" + feature!
                guard !windows.contains(where: { $0.key == windowKey }) else { continue }
                let shortLength = base == "five_hour" ? "5h" : base == "seven_day" ? "7d" : base == "thirty_day" ? "30d" : base
                let windowLabel = isMain ? label(forKey: base) : (limit.name ?? feature!) + " " + shortLength
                windows.append(UsageWindow(key: windowKey, label: windowLabel, used: used, resetsAt: window.resetsAt, observedAt: now))
            }
        }
        return windows
    }

    /// A feature name as part of a key: lowercase letters, digits and `_`.
    static func safeKey(_ text: String) -> String {
        var out = ""
        for c in text.lowercased().unicodeScalars.prefix(48) {
            out.unicodeScalars.append(("a"..."z").contains(c) || ("0"..."9").contains(c) ? c : "_")
        }
        return out
    }

    // MARK: The endpoint's answer

    struct Body: Decodable {
        var plan_type: String?
        var rate_limit: RateLimit?
        var additional_rate_limits: [Additional]?
    }

    struct RateLimit: Decodable {
        var primary_window: APIWindow?
        var secondary_window: APIWindow?
    }

    struct Additional: Decodable {
        var limit_name: String?
        var metered_feature: String?
        var rate_limit: RateLimit?
    }

    struct APIWindow: Decodable {
        var used_percent: Double?
        var limit_window_seconds: Double?
        var reset_after_seconds: Double?
        var reset_at: Double?
    }

    /// Decodes an answer; `nil` when it is not Codex's usage JSON.
    static func reading(fromAPI data: Data, now: Date) -> Reading? {
        guard let body = try? JSONDecoder().decode(Body.self, from: data) else { return nil }
        func window(_ w: APIWindow?) -> Window? {
            guard let w else { return nil }
            let resetsAt = w.reset_at.map { Date(timeIntervalSince1970: $0) }
                ?? w.reset_after_seconds.map { now.addingTimeInterval($0) }
            return Window(usedPercent: w.used_percent, seconds: w.limit_window_seconds, resetsAt: resetsAt)
        }
        var limits: [Limit] = []
        if let main = body.rate_limit {
            limits.append(Limit(feature: nil, name: nil, primary: window(main.primary_window), secondary: window(main.secondary_window)))
        }
        for extra in body.additional_rate_limits ?? [] {
            guard let limit = extra.rate_limit else { continue }
            limits.append(Limit(feature: extra.metered_feature ?? extra.limit_name, name: extra.limit_name,
                                primary: window(limit.primary_window), secondary: window(limit.secondary_window)))
        }
        return Reading(windows: windows(limits, observedAt: now), plan: body.plan_type, fetchedAt: now, source: .api)
    }
}
