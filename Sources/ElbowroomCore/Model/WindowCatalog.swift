// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// What elbowroom knows about window names: the short aliases templates use, each window's length
/// (for pace) and its label. Unknown API keys are still windows; they just have no alias or length.
public enum WindowCatalog {
    /// Template alias → API key. `worst` is computed, not listed here.
    public static let aliases: [(alias: String, key: String)] = [
        ("5h", "five_hour"),
        ("7d", "seven_day"),
        ("sonnet", "seven_day_sonnet"),
        ("opus", "seven_day_opus"),
    ]

    /// The API keys elbowroom knows by name: the aliased windows', and the OAuth apps window.
    public static var knownKeys: [String] { aliases.map(\.key) + ["seven_day_oauth_apps"] }

    /// The API key a template name refers to: an alias or the key itself.
    public static func key(forName name: String) -> String {
        aliases.first { $0.alias == name }?.key ?? name
    }

    /// The alias of an API key, or the key itself.
    public static func shortName(forKey key: String) -> String {
        aliases.first { $0.key == key }?.alias ?? key
    }

    /// Length of the window in seconds, from its name: `five_hour` is 5 h, every `seven_day*` 7
    /// days; Codex's windows named by their length (`Length`): `one_hour`, `one_day`, `thirty_day`
    /// (30 days).
    public static func length(forKey key: String) -> TimeInterval? {
        if key == "five_hour" { return 5 * 3600 }
        if ASCIIAffix.hasPrefix(key, "seven_day") { return 7 * 86400 }
        if key == "one_hour" { return 3600 }
        if key == "one_day" { return 86400 }
        if key == "thirty_day" { return 30 * 86400 }
        return nil
    }

    /// A window named by its length, as Codex names it (CODEX.md §3: "5h limit", "Weekly limit",
    /// "Monthly limit"): the keys `length(forKey:)` gives the length of, the other way round (a
    /// test holds the two together). 1 hour `one_hour` (1h), 5 hours `five_hour` (the session, so
    /// `{5h.left}` works), 1 day `one_day` (1d), 7 days `seven_day` (weekly, `{7d.left}`), 30 days
    /// and ≈30.4 days (`2628000` s) both `thirty_day` (monthly); any other length its own key,
    /// `window_<minutes>m`, with an honest label (`2h window`). Within three minutes of a length is
    /// that length (Codex rounds seconds up to minutes, and its own names allow the same). Made by
    /// the fetcher only, never on the render path.
    public struct Length: Sendable, Equatable {
        public var key: String
        /// What a line calls a main window.
        public var label: String
        /// What follows a per-model limit's name (`GPT-5.3-Codex-Spark 5h`).
        public var short: String
        /// The length in seconds, when known.
        public var seconds: Double?

        /// The window of `seconds` seconds; `nil` when that is no length (`EpochTime.duration`, or
        /// under a minute).
        public init?(seconds raw: Double) {
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

        public init(key: String, label: String, short: String, seconds: Double?) {
            self.key = key
            self.label = label
            self.short = short
            self.seconds = seconds
        }
    }

    /// The latest reset a window observed at `observedAt` can have: its length after it (31
    /// days for a window of unknown length), and an hour for clocks that disagree. A later one is
    /// not believed (`resets_at` far in the future would make every real reading look older).
    public static func latestPlausibleReset(forKey key: String, observedAt: Date) -> Date {
        observedAt.addingTimeInterval((length(forKey: key) ?? 31 * 86400) + 3600)
    }

    /// A human label: a fixed one for the windows Claude Code names (`Session`, `Weekly`, …, its
    /// credit rows in its own words), else the API's display name when it gave one, else the key.
    public static func label(forKey key: String, apiLabel: String? = nil) -> String {
        switch key {
        case "five_hour": return "Session"
        case "seven_day": return "Weekly"
        case "seven_day_sonnet": return "Sonnet"
        case "seven_day_opus": return "Opus"
        case "seven_day_oauth_apps": return "OAuth apps"
        // Claude Code's words for its credit rows, never the codename (a row shows on the line
        // only when used up: it must say what ran out).
        case "cinder_cove": return "Claude Code and Cowork credit"
        case "wattle_ember": return apiLabel.flatMap { $0.isEmpty ? nil : $0 } ?? "Credit"
        default:
            if let apiLabel, !apiLabel.isEmpty { return apiLabel }
            // `seven_day_fable` and a `limits[]` entry named `Fable` are one window: one label.
            let rest = ASCIIAffix.hasPrefix(key, "seven_day_") ? String(key.dropFirst("seven_day_".count)) : key
            return humanize(rest)
        }
    }

    /// Claude Code's own title for the row `/usage` shows: `Current session`, `Current week
    /// (all models)`, `Current week (Sonnet only)`, `Current week (Fable)`, `Claude Code and
    /// Cowork credit`, `wattle_ember`'s label (or `Credit`); else the label.
    public static func title(forKey key: String, apiLabel: String? = nil) -> String {
        switch key {
        case "five_hour": return "Current session"
        case "seven_day": return "Current week (all models)"
        case "seven_day_sonnet": return "Current week (Sonnet only)"
        case "cinder_cove": return "Claude Code and Cowork credit"
        case "wattle_ember": return apiLabel.flatMap { $0.isEmpty ? nil : $0 } ?? "Credit"
        default:
            if ASCIIAffix.hasPrefix(key, "seven_day_") { return "Current week (\(label(forKey: key, apiLabel: apiLabel)))" }
            return label(forKey: key, apiLabel: apiLabel)
        }
    }

    /// Credit windows Claude Code's `/usage` shows although their names are codenames.
    public static func isShownCredit(_ key: String) -> Bool {
        key == "cinder_cove" || key == "wattle_ember"
    }

    /// Whether Claude Code's `/usage` shows this window as a row: the session, the week, the
    /// Sonnet week (on max, team or unknown plans), a model-scoped week from `limits[]` (it has a
    /// display name from the API), `cinder_cove` and `wattle_ember`. Not the flat
    /// `seven_day_opus`, `seven_day_oauth_apps` or other codename keys: those stay reachable by name and appear
    /// on a line only when they need attention.
    public static func isShownByClaudeCode(key: String, apiLabel: String?, plan: String?) -> Bool {
        switch key {
        case "five_hour", "seven_day", "cinder_cove", "wattle_ember": return true
        case "seven_day_sonnet":
            guard let plan = plan?.lowercased() else { return true }
            return plan.contains("max") || plan.contains("team")
        case "seven_day_oauth_apps": return false
        // A model-scoped week from `limits[]` carries its display name; the flat keys do not.
        default: return ASCIIAffix.hasPrefix(key, "seven_day_") && apiLabel?.isEmpty == false
        }
    }

    /// A Codex per-model limit's window: a length's key with the limit's feature after it
    /// (`five_hour_codex_bengalfox`, `window_120m_codex_x`). The account's own windows
    /// (`one_hour`, `five_hour`, `one_day`, `seven_day`, `thirty_day`, `window_<m>m`, its credit
    /// limits and `blocked`) are not.
    public static func isCodexPerModel(_ key: String) -> Bool {
        // On bytes when the key is ASCII (every key an API sends): there each byte is a
        // `Character`, and this is what the `String` form below says (a test holds them equal),
        // without its array of prefixes and a `Character` comparison per prefix (~1 k
        // instructions a window, every render of a Codex account).
        var key = key
        let ascii: Bool? = key.withUTF8 { bytes in
            for byte in bytes where byte >= 0x80 { return nil }
            func starts(_ prefix: StaticString) -> Bool {
                let count = prefix.utf8CodeUnitCount
                guard bytes.count >= count else { return false }
                for i in 0..<count where bytes[i] != prefix.utf8Start[i] { return false }
                return true
            }
            if starts("one_hour_") || starts("five_hour_") || starts("one_day_") || starts("seven_day_")
                || starts("thirty_day_") || starts("tertiary_window_") {
                return true
            }
            guard starts("window_"), bytes.count >= 2 else { return false }
            for i in 0..<(bytes.count - 1) where bytes[i] == UInt8(ascii: "m") && bytes[i + 1] == UInt8(ascii: "_") {
                return true
            }
            return false
        }
        return ascii ?? isCodexPerModelByCharacters(key)
    }

    /// `isCodexPerModel` on `Character`s: for a key past ASCII, where a mark may join a byte
    /// to the next.
    static func isCodexPerModelByCharacters(_ key: String) -> Bool {
        for base in ["one_hour_", "five_hour_", "one_day_", "seven_day_", "thirty_day_", "tertiary_window_"] where key.hasPrefix(base) {
            return true
        }
        return key.hasPrefix("window_") && key.contains("m_")
    }

    /// `oauth_apps` → `Oauth Apps`, `fable` → `Fable`: an identifier as words.
    public static func humanize(_ id: String) -> String {
        id.split(whereSeparator: { $0 == "_" || $0 == "-" || $0 == " " })
            .map { $0.prefix(1).uppercased() + $0.dropFirst() }
            .joined(separator: " ")
    }

    /// The API's rate windows by name: `five_hour`, `seven_day` and `seven_day_*` (codename keys
    /// such as `iguana_necktie` may be something else).
    public static func isRateWindowKey(_ key: String) -> Bool {
        key == "five_hour" || ASCIIAffix.hasPrefix(key, "seven_day")
    }

    /// Whether a `rate_limits` key from Claude Code's status line names a usage window
    /// (`five_hour`, `seven_day`, `seven_day_*`, `*_hour`, `*_day`, `*_week`, `*_month`), as
    /// opposed to other entries such as a gateway's `spend_limit`.
    public static func isWindowKey(_ key: String) -> Bool {
        if ASCIIAffix.hasPrefix(key, "seven_day") { return true }
        return ASCIIAffix.hasSuffix(key, "_hour") || ASCIIAffix.hasSuffix(key, "_hours") || ASCIIAffix.hasSuffix(key, "_day")
            || ASCIIAffix.hasSuffix(key, "_days") || ASCIIAffix.hasSuffix(key, "_week") || ASCIIAffix.hasSuffix(key, "_weeks")
            || ASCIIAffix.hasSuffix(key, "_month")
    }

    /// Display order: the known windows first, in alias order, then the rest by name.
    public static func sorted(_ windows: [UsageWindow]) -> [UsageWindow] {
        windows.sorted { sortKey($0.key) < sortKey($1.key) }
    }

    static func sortKey(_ key: String) -> (Int, String) {
        let known = ["five_hour", "seven_day", "seven_day_sonnet", "seven_day_opus"]
        return (known.firstIndex(of: key) ?? known.count, key)
    }
}
