// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// The JSON Claude Code writes to its status-line command's stdin. Only what elbowroom uses is
/// decoded; every field is optional. `rate_limits` appears for Pro/Max after the first response.
public struct StatusLineInput: Sendable, Equatable {
    public var modelName: String?
    public var currentDir: String?
    public var costUSD: Double?
    public var contextUsedPercent: Double?
    /// `session_id`, for attribution (`AttributionState`).
    public var sessionID: String?
    /// Where the session works: `workspace.project_dir`, else `cwd`, else `workspace.current_dir`.
    public var project: String?
    /// The session's tokens so far (`context_window.total_input_tokens` + `total_output_tokens`).
    public var tokens: Int64?
    /// The windows from `rate_limits` (`five_hour`, `seven_day`, …), or empty.
    public var windows: [UsageWindow]
    /// Values left out because they are not data (see `UsagePercent`), for `--verbose`.
    public var notes: [String]
    /// A gateway's `rate_limits.spend_limit`: percent (may exceed 100), dollars, period.
    public var spendLimit: ExtraUsage?
    /// Whether Claude Code sent a `rate_limits` object at all (it does not before the first
    /// response, for API-key sessions, and in some versions).
    public var sentRateLimits: Bool

    public init(modelName: String? = nil, currentDir: String? = nil, costUSD: Double? = nil,
                contextUsedPercent: Double? = nil, windows: [UsageWindow] = [], notes: [String] = [],
                spendLimit: ExtraUsage? = nil, sentRateLimits: Bool = false,
                sessionID: String? = nil, project: String? = nil, tokens: Int64? = nil) {
        self.modelName = modelName
        self.currentDir = currentDir
        self.costUSD = costUSD
        self.contextUsedPercent = contextUsedPercent
        self.windows = windows
        self.notes = notes
        self.spendLimit = spendLimit
        self.sentRateLimits = sentRateLimits || !windows.isEmpty || spendLimit != nil
        self.sessionID = sessionID
        self.project = project
        self.tokens = tokens
    }

    /// Decodes stdin; `nil` when it is not a JSON object at all.
    ///
    /// Only entries that are usage windows are taken (`spend_limit` and the like are not). A `0`
    /// with no `resets_at` is an idle window (100 % left); a percentage far outside 0…100 is not
    /// data (a Claude Code bug writes the reset epoch there): the window is left out, with a note;
    /// so is a window that resets further ahead than it lasts (`implausibleReset`).
    public static func decode(_ data: Data, observedAt: Date) -> StatusLineInput? {
        // Read by hand (`StatusLineReader`): this runs on every Claude Code status-line render.
        guard let fields = StatusLineReader.read(data) else { return nil }
        var windows: [UsageWindow] = []
        var notes: [String] = []
        var seen: [String] = []
        var spendLimit: ExtraUsage?
        for limit in fields.limits ?? [] where !seen.contains(limit.key) {
            seen.append(limit.key)
            if limit.key == "spend_limit" {
                if limit.isObject {
                    spendLimit = Self.spendLimit(used: limit.used, resetsAt: limit.resetsAt, usedUSD: limit.usedUSD,
                                                 limitUSD: limit.limitUSD, period: limit.period)
                }
                continue
            }
            guard WindowCatalog.isWindowKey(limit.key), let value = limit.used else { continue }
            guard let used = UsagePercent.accept(value) else {
                notes.append(UsagePercent.note(key: limit.key, field: "used_percentage", value: value))
                continue
            }
            if let note = implausibleReset(key: limit.key, limit.resetsAt, observedAt: observedAt) {
                notes.append(note)
                continue
            }
            windows.append(UsageWindow(key: limit.key, used: used, resetsAt: limit.resetsAt, observedAt: observedAt))
        }
        return StatusLineInput(
            modelName: fields.modelName, currentDir: fields.currentDir, costUSD: fields.costUSD.map(boundedCost),
            contextUsedPercent: fields.contextUsedPercent.map(boundedPercent),
            windows: WindowCatalog.sorted(windows), notes: notes.sorted(),
            spendLimit: spendLimit, sentRateLimits: fields.limits != nil,
            sessionID: fields.sessionID, project: fields.projectDir ?? fields.cwd ?? fields.currentDir,
            tokens: tokenCount(fields.inputTokens, fields.outputTokens))
    }

    /// Input plus output tokens, each within 0…2⁵⁰; `nil` when neither was sent.
    static func tokenCount(_ input: Double?, _ output: Double?) -> Int64? {
        guard input != nil || output != nil else { return nil }
        func bounded(_ n: Double?) -> Int64 { Int64(min(max(n ?? 0, 0), 1e15).rounded(.down)) }
        return bounded(input) + bounded(output)
    }

    /// A gateway's `spend_limit` as money: dollars in cents, the percent as sent (a gateway lets
    /// spending pass its limit, so it may exceed 100; beyond `UsagePercent.ceiling × 50` it is
    /// not a percentage). `nil` when it carries nothing.
    static func spendLimit(used: Double?, resetsAt: Date?, usedUSD: Double?, limitUSD: Double?,
                           period: String?) -> ExtraUsage? {
        func money(_ dollars: Double?) -> Double? {
            dollars.flatMap { $0.isFinite && abs($0) < 1e13 ? ($0 * 100).rounded() : nil }
        }
        let percent = used.flatMap { $0.isFinite && $0 >= 0 && $0 <= 10_000 ? $0 : nil }
        guard percent != nil || usedUSD != nil || limitUSD != nil else { return nil }
        return ExtraUsage(isEnabled: true, monthlyLimitMinor: money(limitUSD), usedMinor: money(usedUSD),
                          utilization: percent, currency: "USD", exponent: 2,
                          period: period.map { SafeText.clean(String($0.prefix(32)), lines: .join) }.flatMap { $0.isEmpty ? nil : $0 },
                          resetsAt: resetsAt, source: .statusLine)
    }

    /// A note when `resetsAt` lies further ahead than the window lasts
    /// (`WindowCatalog.latestPlausibleReset`): such a window is left out, since a cached window
    /// that resets in years holds off every real one until then (`CacheFile.ingest`).
    static func implausibleReset(key: String, _ resetsAt: Date?, observedAt: Date) -> String? {
        guard let resetsAt, resetsAt > WindowCatalog.latestPlausibleReset(forKey: key, observedAt: observedAt) else { return nil }
        return "\(key): resets_at \(ISO8601.format(resetsAt)) is further ahead than the window lasts; left out"
    }

    /// The cost within the money bound the cache keeps (`ReadingLimits.maxMoney`, in cents), so
    /// `{claude.cost}` never shows `$inf` (1e308 dollars is finite; in cents it is not).
    static func boundedCost(_ usd: Double) -> Double {
        min(max(usd, -ReadingLimits.maxMoney / 100), ReadingLimits.maxMoney / 100)
    }

    /// A percentage of the context window within 0…100, as a window's `used` is.
    static func boundedPercent(_ percent: Double) -> Double {
        min(max(percent, 0), 100)
    }

    /// The rate limits (and a gateway's spend limit) as a reading, or `nil` when Claude Code sent none.
    public func reading(at date: Date) -> Reading? {
        windows.isEmpty && spendLimit == nil ? nil
            : Reading(windows: windows, extra: spendLimit, fetchedAt: date, source: .statusLine, notes: notes)
    }
}
