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

    public init(windows: [UsageWindow], extra: ExtraUsage? = nil, plan: String? = nil,
                fetchedAt: Date, source: ReadingSource, notes: [String]? = nil) {
        self.windows = WindowCatalog.sorted(windows)
        self.extra = extra
        self.plan = plan
        self.fetchedAt = fetchedAt
        self.source = source
        self.notes = notes?.isEmpty == true ? nil : notes
    }

    public func window(key: String) -> UsageWindow? {
        windows.first { $0.key == key }
    }

    /// This reading with `newer`'s windows laid over it: windows `newer` lacks (per-model limits
    /// the status line never reports) are kept from `self`.
    public func merging(_ newer: Reading) -> Reading {
        var byKey = Dictionary(windows.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        for window in newer.windows { byKey[window.key] = window }
        return Reading(
            windows: Array(byKey.values), extra: newer.extra ?? extra, plan: newer.plan ?? plan,
            fetchedAt: max(fetchedAt, newer.fetchedAt), source: newer.source, notes: newer.notes ?? notes)
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

    public init(key: String, label: String? = nil, used: Double, resetsAt: Date?,
                severity: String? = nil, binding: Bool? = nil, observedAt: Date) {
        self.key = key
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

/// Extra usage (pay-as-you-go beyond the plan). Money is in minor units (cents), as the API sends it.
public struct ExtraUsage: Codable, Sendable, Equatable {
    public var isEnabled: Bool?
    public var monthlyLimitMinor: Double?
    public var usedMinor: Double?
    /// Percent of the monthly limit used, 0…100.
    public var utilization: Double?
    /// ISO 4217 code when the API says; unknown otherwise (amounts then show without a symbol).
    public var currency: String?

    public init(isEnabled: Bool? = nil, monthlyLimitMinor: Double? = nil, usedMinor: Double? = nil,
                utilization: Double? = nil, currency: String? = nil) {
        self.isEnabled = isEnabled
        self.monthlyLimitMinor = monthlyLimitMinor
        self.usedMinor = usedMinor
        self.utilization = utilization
        self.currency = currency
    }
}
