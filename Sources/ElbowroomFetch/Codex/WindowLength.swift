#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ElbowroomCore

/// A Codex window named by its length, as Codex names it (CODEX.md §3: "5h limit", "Weekly
/// limit", "Monthly limit"): 1 hour `one_hour` (1h), 5 hours `five_hour` (the session, so
/// `{5h.left}` works), 1 day `one_day` (1d), 7 days `seven_day` (weekly, `{7d.left}`), 30 days
/// and ≈30.4 days (`2628000` s) both `thirty_day` (monthly); any other length its own key,
/// `window_<minutes>m`, with an honest label (`2h window`). Within three minutes of a length is
/// that length (Codex rounds seconds up to minutes, and its own names allow the same).
struct WindowLength: Sendable, Equatable {
    var key: String
    /// What a line calls a main window.
    var label: String
    /// What follows a per-model limit's name (`GPT-5.3-Codex-Spark 5h`).
    var short: String
    /// The length in seconds, when known.
    var seconds: Double?

    /// The window of `seconds` seconds; `nil` when that is no length (`EpochTime.duration`, or
    /// under a minute).
    init?(seconds raw: Double) {
        guard let seconds = EpochTime.duration(raw), seconds >= 60 else { return nil }
        let minutes = Int((seconds / 60).rounded(.up))  // bounded above: never traps
        func near(_ m: Int) -> Bool { abs(minutes - m) <= 3 }
        switch minutes {
        case _ where near(60): self.init(key: "one_hour", label: "1h", short: "1h", seconds: seconds)
        case _ where near(300): self.init(key: "five_hour", label: "Session", short: "5h", seconds: seconds)
        case _ where near(1440): self.init(key: "one_day", label: "1d", short: "1d", seconds: seconds)
        case _ where near(10080): self.init(key: "seven_day", label: "Weekly", short: "7d", seconds: seconds)
        case 28 * 1440...31 * 1440: self.init(key: "thirty_day", label: "Monthly", short: "30d", seconds: seconds)
        default:
            let text = DurationText.short(Double(minutes) * 60)
            self.init(key: "window_\(minutes)m", label: text + " window", short: text, seconds: seconds)
        }
    }

    init(key: String, label: String, short: String, seconds: Double?) {
        self.key = key
        self.label = label
        self.short = short
        self.seconds = seconds
    }
}
