// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// Where a reading came from.
public enum ReadingSource: String, Codable, Sendable, CaseIterable {
    /// `GET /api/oauth/usage`.
    case api
    /// The `rate_limits` block Claude Code hands its status line on stdin.
    case statusLine = "status_line"
    /// The built-in sample (`--demo`).
    case demo
    /// Codex's own session logs (`codex_source = "logs"`): a file, not any API.
    case sessionLog = "session_log"
    /// A source plugin's output (`provider = "plugin:NAME"`).
    case plugin
    /// Claude Code's own copy of the usage body (`cachedUsageUtilization` in its global config).
    case claudeSnapshot = "claude_snapshot"
}

/// One observation of every usage window the account has, as the cache keeps it.
public struct Reading: Codable, Sendable, Equatable {
    /// Windows in display order (see `WindowCatalog.sortKey`), each keyed by its API name.
    public var windows: [UsageWindow]
    public var extra: ExtraUsage?
    /// `pro`, `max`, … from the credentials' `subscriptionType`, when known.
    public var plan: String?
    /// When the newest window in this reading was observed.
    public var fetchedAt: Date
    public var source: ReadingSource
    /// What the source sent that is not data and was left out, for `doctor` and `--verbose`
    /// (`five_hour: used_percentage 1763683200 is not a percentage`).
    public var notes: [String]?
    /// Top-level keys of the body that elbowroom has never heard of (`UsageDecoder.knownKeys`),
    /// sorted: drift shows in `doctor` and `cache show` before a wrong number does.
    public var unknownKeys: [String]?

    public init(windows: [UsageWindow], extra: ExtraUsage? = nil, plan: String? = nil,
                fetchedAt: Date, source: ReadingSource, notes: [String]? = nil, unknownKeys: [String]? = nil) {
        self.windows = WindowCatalog.sorted(windows)
        self.extra = extra
        self.plan = plan
        self.fetchedAt = fetchedAt
        self.source = source
        self.notes = notes?.isEmpty == true ? nil : notes
        self.unknownKeys = unknownKeys?.isEmpty == true ? nil : unknownKeys
    }

    /// Every field as stored, nothing sorted or dropped: the cache reader's (`CacheFileReader`),
    /// which keeps what the file holds.
    init(stored windows: [UsageWindow], extra: ExtraUsage?, plan: String?, fetchedAt: Date, source: ReadingSource,
         notes: [String]?, unknownKeys: [String]?) {
        self.windows = windows
        self.extra = extra
        self.plan = plan
        self.fetchedAt = fetchedAt
        self.source = source
        self.notes = notes
        self.unknownKeys = unknownKeys
    }

    public func window(key: String) -> UsageWindow? {
        windows.first { $0.key == key }
    }

    /// This reading with `newer`'s windows laid over it: windows `newer` lacks (per-model limits
    /// the status line never reports) are kept from `self`.
    /// Each window keeps the source it came from (`UsageWindow.source`), so a merged reading
    /// still says which number came from where.
    public func merging(_ newer: Reading) -> Reading {
        var byKey = Dictionary(windows.map { w -> (String, UsageWindow) in
            var w = w
            w.source = w.source ?? source
            return (w.key, w)
        }, uniquingKeysWith: { a, _ in a })
        for window in newer.windows {
            var w = window
            w.source = w.source ?? newer.source
            byKey[w.key] = w
        }
        return Reading(
            windows: Array(byKey.values), extra: newer.extra ?? extra, plan: newer.plan ?? plan,
            fetchedAt: max(fetchedAt, newer.fetchedAt), source: newer.source, notes: newer.notes ?? notes,
            unknownKeys: unknownKeys)
    }
}

/// One rate-limit window: how much of it is used and when it resets.
public struct UsageWindow: Codable, Sendable, Equatable {
    /// The API's name for the window (`five_hour`, `seven_day`, `seven_day_sonnet`, …). New windows
    /// keep the name the API gives them, so they show up without code changes.
    public var key: String
    /// A display name from the API (`scope.model.display_name`), when it gave one.
    public var label: String?
    /// Percent of the window used, 0…100.
    public var used: Double
    public var resetsAt: Date?
    /// The API's own severity for this window, when it gave one.
    public var severity: String?
    /// `true` when the API marks this as the limit that binds now (`limits[].is_active`).
    public var binding: Bool?
    /// When this window's number was observed.
    public var observedAt: Date
    /// Where this window's number came from, when it differs from the reading's (a status-line
    /// value laid over an API reading); `nil`: the reading's source.
    public var source: ReadingSource?
    /// The source's own figures in words, when `used` alone does not say it all: a Codex credit
    /// limit's `259% used, 1,811.97 of 700 credits` (`used` stops at 100), why a workspace is blocked.
    public var detail: String?

    /// Every field as stored, nothing clamped or normalised: the cache reader's.
    init(storedKey key: String, label: String?, used: Double, resetsAt: Date?, severity: String?, binding: Bool?,
         observedAt: Date, source: ReadingSource?, detail: String?) {
        self.key = key
        self.label = label
        self.used = used
        self.resetsAt = resetsAt
        self.severity = severity
        self.binding = binding
        self.observedAt = observedAt
        self.source = source
        self.detail = detail
    }

    public init(key: String, label: String? = nil, used: Double, resetsAt: Date?,
                severity: String? = nil, binding: Bool? = nil, observedAt: Date, source: ReadingSource? = nil,
                detail: String? = nil) {
        self.key = key
        self.detail = detail
        self.source = source
        self.label = label
        self.used = used.isFinite ? min(max(used, 0), 100) : 0
        self.resetsAt = resetsAt
        self.severity = severity
        self.binding = binding == true ? true : nil
        self.observedAt = observedAt
    }
}

/// The one rule for a usage percentage from any source: rounding noise (`100.4`, `-0.2`,
/// `14.000000000000002`) and a real overrun past the limit (`105` has been seen from Claude Code)
/// are clamped to 0…100; anything far outside — below -1 or above 200, such as the `resets_at`
/// epoch a Claude Code bug writes into `used_percentage` — is not data, and the window is unknown.
public enum UsagePercent {
    /// The highest value still read as a percentage (an overrun: the window is used up).
    public static let ceiling = 200.0

    /// The percentage clamped to 0…100, or `nil` when it is not a percentage at all.
    public static func accept(_ value: Double) -> Double? {
        guard value.isFinite, value >= -1, value <= ceiling else { return nil }
        return min(max(value, 0), 100)
    }

    /// The note `doctor` and `--verbose` show for a value `accept` refused.
    public static func note(key: String, field: String, value: Double) -> String {
        let shown = value.isFinite && abs(value) < 1e15 && value == value.rounded()
            ? String(Int64(value)) : String(value)
        return "\(key): \(field) \(shown) is not a percentage; shown as unknown"
    }
}

/// Money the account spends beyond (or instead of) its windows: `extra_usage` and the newer
/// top-level `spend` object from the API, or a gateway's `rate_limits.spend_limit` from the status
/// line. Amounts are in minor units of `currency` (`exponent` digits: cents for most currencies,
/// whole units for JPY, KRW and VND), as the API sends them.
public struct ExtraUsage: Codable, Sendable, Equatable {
    public var isEnabled: Bool?
    public var monthlyLimitMinor: Double?
    public var usedMinor: Double?
    /// Percent of the limit used: 0…100 from the API; a gateway's may exceed 100.
    public var utilization: Double?
    /// ISO 4217 code (three letters) when the source says; unknown otherwise (amounts then show
    /// without a symbol).
    public var currency: String?
    /// Digits after the decimal point of the minor unit (`decimal_places`, `exponent`); `nil`:
    /// the currency's own (`MinorUnits.digits`).
    public var exponent: Int?
    /// The pool is the organisation's, not the member's (a Team seat's `extra_usage`).
    public var organisation: Bool?
    /// Why spending is off (`out_of_credits`, …), when the API says.
    public var disabledReason: String?
    /// The API says the spend limit is reached.
    public var limitReached: Bool?
    /// A gateway's period (`monthly`, …), from the status line.
    public var period: String?
    /// When a gateway's spend limit resets.
    public var resetsAt: Date?
    /// `status_line` for a gateway's `spend_limit`; `nil`: the reading's source.
    public var source: ReadingSource?

    public init(isEnabled: Bool? = nil, monthlyLimitMinor: Double? = nil, usedMinor: Double? = nil,
                utilization: Double? = nil, currency: String? = nil, exponent: Int? = nil,
                organisation: Bool? = nil, disabledReason: String? = nil, limitReached: Bool? = nil,
                period: String? = nil, resetsAt: Date? = nil, source: ReadingSource? = nil) {
        self.isEnabled = isEnabled
        self.monthlyLimitMinor = monthlyLimitMinor
        self.usedMinor = usedMinor
        self.utilization = utilization
        self.currency = currency
        self.exponent = exponent
        self.organisation = organisation
        self.disabledReason = disabledReason
        self.limitReached = limitReached
        self.period = period
        self.resetsAt = resetsAt
        self.source = source
    }

    /// Digits of the minor unit: `exponent` when given, else the currency's own.
    public var minorDigits: Int { exponent ?? MinorUnits.digits(currency: currency) }

    /// Percent of the limit used: the source's, else worked out from the amounts; `nil` uncapped.
    public var percent: Double? {
        if let utilization { return utilization }
        guard let limit = monthlyLimitMinor, limit > 0, let used = usedMinor else { return nil }
        return used / limit * 100
    }

    /// Whether there is anything to show: spending is on, or money was spent, or a limit is set.
    public var hasSpend: Bool {
        if isEnabled == false && (usedMinor ?? 0) == 0 { return false }
        return usedMinor != nil || monthlyLimitMinor != nil || utilization != nil
    }
}

/// How many digits a currency's minor unit has, and which codes are currencies at all.
public enum MinorUnits {
    /// `0` for JPY, KRW and VND (whole units), `2` for the rest.
    public static func digits(currency: String?) -> Int {
        switch currency {
        case "JPY", "KRW", "VND": 0
        default: 2
        }
    }

    /// An ISO 4217 code: exactly three ASCII letters, upper-cased; anything else is not a
    /// currency and never reaches markup.
    public static func code(_ text: String?) -> String? {
        guard let text, text.utf8.count == 3,
              text.utf8.allSatisfy({ ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) }) else { return nil }
        return text.uppercased()
    }
}
