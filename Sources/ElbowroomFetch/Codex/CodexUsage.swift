#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ElbowroomCore

/// Codex's usage answer (`GET {base}/wham/usage`, CODEX.md §3) and the rate limits in its session
/// logs (§5) as a `Reading`. Windows are named by their **length**, never by their slot: a weekly-
/// only plan sends its one weekly window first, some accounts a 30-day one, some a 1-hour and a
/// 1-day one (`WindowCatalog.Length`). A workspace's credit limit (`spend_control`) is a window too
/// (`CodexCredit`), and a workspace that refuses every request is said as blocked. Every field may
/// be missing or null; unknown fields are named as drift (`Reading.unknownKeys`); every time and
/// duration is bounded where it is decoded (`EpochTime`): one out of range drops its window with a
/// note, never the reading.
enum CodexUsage {
    /// One window, either shape: the endpoint's (seconds) or a session log's (minutes), as
    /// decoded: raw numbers, bounded by `windows`.
    struct Window: Sendable, Equatable {
        var usedPercent: Double?
        /// Length in seconds, when told.
        var seconds: Double?
        /// Unix time of the reset (seconds, or milliseconds by magnitude), when told.
        var resetAt: Double?
        /// Seconds from the observation to the reset, when told (and `resetAt` is not).
        var resetIn: Double?
    }

    /// One limit: the main one (`codex`) or a per-model one (`metered_feature`, `limit_name`).
    struct Limit: Sendable, Equatable {
        var feature: String?
        var name: String?
        var slots: [Window?]

        var isMain: Bool { feature == nil || feature == "codex" }
    }

    /// The window key and label for a window: by its length (`WindowCatalog.Length`); an unknown length
    /// falls back on the reset (more than 48 h away reads as weekly) and then the slot (first:
    /// session, second: weekly, third: an honest `tertiary_window`).
    static func name(seconds: Double?, resetsIn: TimeInterval?, slot: Int) -> WindowCatalog.Length {
        if let seconds, let length = WindowCatalog.Length(seconds: seconds) { return length }
        if let resetsIn, resetsIn > 48 * 3600, slot < 2 { return WindowCatalog.Length(seconds: 604800)! }
        switch slot {
        case 0: return WindowCatalog.Length(seconds: 18000)!
        case 1: return WindowCatalog.Length(seconds: 604800)!
        default: return WindowCatalog.Length(key: "tertiary_window", label: "Third window", short: "3rd", seconds: nil)
        }
    }

    /// When a window resets: `reset_at` (Unix seconds), else `reset_after_seconds` from `now`;
    /// no date when neither is given. One that is no time is noted at `place` and makes the
    /// window unreadable (it is left out).
    static func resetTime(at: Double?, after: Double?, place: String, now: Date,
                          notes: inout [String]) -> (readable: Bool, date: Date?) {
        if let at {
            guard let date = EpochTime.date(unix: at) else {
                notes.append("\(place): reset_at \(shown(at)) is no time; left out")
                return (false, nil)
            }
            return (true, date)
        }
        if let after {
            guard let seconds = EpochTime.duration(after) else {
                notes.append("\(place): reset_after_seconds \(shown(after)) is no duration; left out")
                return (false, nil)
            }
            return (true, now.addingTimeInterval(seconds))
        }
        return (true, nil)
    }

    /// The windows of some limits, observed at `now`, and notes on what was left out. A
    /// per-model window's key is the main key with the feature after it
    /// (`seven_day_codex_bengalfox`), its label the limit's name and the length; a per-model
    /// window never takes a main window's place.
    static func windows(_ limits: [Limit], observedAt now: Date, notes: inout [String]) -> [UsageWindow] {
        var windows: [UsageWindow] = []
        // Main limits first: a per-model limit that calls itself `codex` comes after them.
        let ordered = limits.filter(\.isMain) + limits.filter { !$0.isMain }
        for limit in ordered {
            let feature = limit.feature.map(safeKey)
            for (slot, window) in limit.slots.enumerated() {
                guard let window, let raw = window.usedPercent else { continue }
                let place = (limit.isMain ? "" : (feature ?? "") + " ") + ["primary", "secondary", "tertiary"][min(slot, 2)] + "_window"
                guard let used = UsagePercent.accept(raw) else {
                    notes.append(UsagePercent.note(key: place, field: "used_percent", value: raw))
                    continue
                }
                let reset = resetTime(at: window.resetAt, after: window.resetIn, place: place, now: now, notes: &notes)
                guard reset.readable else { continue }
                let resetsAt = reset.date
                if let seconds = window.seconds, WindowCatalog.Length(seconds: seconds) == nil {
                    notes.append("\(place): limit_window_seconds \(shown(seconds)) is no length; named by its place")
                }
                let length = name(seconds: window.seconds, resetsIn: resetsAt.map { $0.timeIntervalSince(now) }, slot: slot)
                let key = limit.isMain ? length.key : length.key + "_" + (feature ?? "model")
                // A reset further ahead than the window lasts (and an hour for clocks) is not
                // believed: cached, it would hold off every real reading until then.
                if let resetsAt, resetsAt.timeIntervalSince(now) > (length.seconds ?? 31 * 86400) + 3600 {
                    notes.append("\(key): reset_at \(ISO8601.format(resetsAt)) is further ahead than the window lasts; left out")
                    continue
                }
                guard !windows.contains(where: { $0.key == key }) else { continue }
                let label = limit.isMain ? length.label : (limit.name ?? limit.feature ?? "model") + " " + length.short
                windows.append(UsageWindow(key: key, label: label, used: used, resetsAt: resetsAt, observedAt: now))
            }
        }
        return windows
    }

    /// A number as a note shows it: whole when it is one, else as Swift prints it.
    static func shown(_ value: Double) -> String {
        value.isFinite && abs(value) < 1e15 && value == value.rounded() ? String(Int64(value)) : String(value)
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

    /// Top-level keys of the answer elbowroom knows (reads, or knows to leave alone): any other
    /// is drift, named by `doctor` and `cache show` (CODEX.md §3, "Newer shapes").
    static let knownKeys: Set<String> = [
        "plan_type", "rate_limit", "additional_rate_limits", "credits", "spend_control",
        "rate_limit_reached_type", "code_review_rate_limit", "rate_limit_reset_credits",
        "user_id", "account_id", "email", "promo", "referral_beacon",
        "rate_limit_upsell", "model_usage", "applicable_available_count", "overage_limit_reached",
        "approx_local_messages", "approx_cloud_messages",
    ]

    struct Body: Decodable {
        var plan_type: String?
        var rate_limit: RateLimit?
        var additional_rate_limits: [Additional]?
        var spend_control: CodexCredit.SpendControl?
        var rate_limit_reached_type: CodexCredit.ReachedType?
        var keys: [String] = []

        enum CodingKeys: String, CodingKey {
            case plan_type, rate_limit, additional_rate_limits, spend_control, rate_limit_reached_type
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            plan_type = try? c.decodeIfPresent(String.self, forKey: .plan_type)
            rate_limit = try? c.decodeIfPresent(RateLimit.self, forKey: .rate_limit)
            additional_rate_limits = try? c.decodeIfPresent([Additional].self, forKey: .additional_rate_limits)
            spend_control = try? c.decodeIfPresent(CodexCredit.SpendControl.self, forKey: .spend_control)
            rate_limit_reached_type = try? c.decodeIfPresent(CodexCredit.ReachedType.self, forKey: .rate_limit_reached_type)
            keys = (try? decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)) ?? []
        }
    }

    struct RateLimit: Decodable {
        var primary_window: APIWindow?
        var secondary_window: APIWindow?
        var tertiary_window: APIWindow?

        enum CodingKeys: String, CodingKey { case primary_window, secondary_window, tertiary_window }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            primary_window = try? c.decodeIfPresent(APIWindow.self, forKey: .primary_window)
            secondary_window = try? c.decodeIfPresent(APIWindow.self, forKey: .secondary_window)
            tertiary_window = try? c.decodeIfPresent(APIWindow.self, forKey: .tertiary_window)
        }

        var slots: [Window?] { [primary_window?.window, secondary_window?.window, tertiary_window?.window] }
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

        enum CodingKeys: String, CodingKey { case used_percent, limit_window_seconds, reset_after_seconds, reset_at }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            used_percent = try? c.decodeIfPresent(Double.self, forKey: .used_percent)
            limit_window_seconds = try? c.decodeIfPresent(Double.self, forKey: .limit_window_seconds)
            reset_after_seconds = try? c.decodeIfPresent(Double.self, forKey: .reset_after_seconds)
            reset_at = try? c.decodeIfPresent(Double.self, forKey: .reset_at)
        }

        var window: Window {
            Window(usedPercent: used_percent, seconds: limit_window_seconds, resetAt: reset_at,
                   resetIn: reset_at == nil ? reset_after_seconds : nil)
        }
    }

    /// Decodes an answer; `nil` when it is not Codex's usage JSON (not an object with `plan_type`
    /// or a limit).
    static func reading(fromAPI data: Data, now: Date) -> Reading? {
        guard let body = try? JSONDecoder().decode(Body.self, from: data) else { return nil }
        guard body.plan_type != nil || body.keys.contains("rate_limit") || body.keys.contains("spend_control") else { return nil }
        var limits: [Limit] = []
        if let main = body.rate_limit {
            limits.append(Limit(feature: nil, name: nil, slots: main.slots))
        }
        for extra in body.additional_rate_limits ?? [] {
            guard let limit = extra.rate_limit else { continue }
            limits.append(Limit(feature: extra.metered_feature ?? extra.limit_name, name: extra.limit_name, slots: limit.slots))
        }
        var notes: [String] = []
        var found = windows(limits, observedAt: now, notes: &notes)
        found += CodexCredit.windows(body.spend_control, reached: body.rate_limit_reached_type?.type,
                                     observedAt: now, notes: &notes)
        let unknown = body.keys.filter { !knownKeys.contains($0) }.sorted()
        return Reading(windows: found, plan: body.plan_type, fetchedAt: now, source: .api, notes: notes,
                       unknownKeys: Array(unknown.prefix(32)))
    }
}

/// Any key, for listing an object's keys (drift).
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
