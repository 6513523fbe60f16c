// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// One window as the user sees it now: projected past its reset, with pace and level.
public struct WindowView: Sendable, Equatable {
    /// The API key (`five_hour`, …).
    public var key: String
    /// The template name: the alias (`5h`, `7d`, `sonnet`, `opus`) or the key.
    public var name: String
    public var label: String
    /// Percent used now, 0…100 (0 once the window has reset).
    public var used: Double
    /// `100 - used`.
    public var left: Double
    /// When the window resets; `nil` when unknown or already past.
    public var resetsAt: Date?
    /// Seconds until the reset; `nil` when unknown or already past.
    public var resetsIn: TimeInterval?
    public var level: Level
    /// Projected percent used at the reset: at `rate` when it has a value, else at the window's
    /// average rate so far; `nil` when it cannot be told.
    public var pace: Double?
    /// Seconds until 100 %, at the same rate as `pace`; `nil` when it will not run out before the reset.
    public var eta: TimeInterval?
    /// Percent per hour now, from the usage history (`BurnRate`); `nil` without enough history.
    public var rate: Double?
    /// The window's recent history (`Sparkline`); `nil` without history.
    public var spark: Sparkline?
    /// Whether `resets_at` has passed since the observation (numbers shown as reset).
    public var hasReset: Bool
    /// The API marks this as the limit that binds now.
    public var binding: Bool
    public var observedAt: Date
    /// Claude Code's title for the row (`Current week (Sonnet only)`, see `WindowCatalog.title`);
    /// worked out when asked, not on every render.
    public var title: String {
        // `label` is the API's display name when it gave one, else the key made readable.
        let apiLabel = key == "wattle_ember" && label == WindowCatalog.humanize(key) ? nil : label
        return WindowCatalog.title(forKey: key, apiLabel: apiLabel)
    }
    /// Where the number came from: `api`, `status_line`, `claude_snapshot` or `demo`.
    public var source: ReadingSource = .api
    /// Whether Claude Code's `/usage` shows this window as a row (`WindowCatalog.isShownByClaudeCode`);
    /// for another provider's account, whether it is one of the account's own limits (a Codex
    /// per-model limit is not: it shows when it needs attention).
    public var shown: Bool = true
    /// The source's own figures in words (`UsageWindow.detail`): `259% used, 1,811.97 of 700 credits`.
    public var detail: String?

    /// What a one-line template calls it (`{each.short}`): `5h`, `7d`, else the label.
    public var short: String { key == "five_hour" ? "5h" : key == "seven_day" ? "7d" : label }

    /// Worth a place on a one-line display it does not normally have: not ok, or binding.
    public var needsAttention: Bool { level != .ok || binding }

    /// Seconds since the number was observed.
    public func age(now: Date) -> TimeInterval { max(0, now.timeIntervalSince(observedAt)) }
}

/// The account's spend as the user sees it: `extra_usage`/`spend` from the API, or a gateway's
/// `spend_limit` from the status line.
public struct SpendView: Sendable, Equatable {
    public var usedMinor: Double?
    public var limitMinor: Double?
    /// ISO 4217 code, or `""` when the source did not say.
    public var currency: String
    /// Digits of the minor unit (2 for cents, 0 for JPY, KRW, VND, or the body's `decimal_places`).
    public var exponent: Int
    /// Percent of the limit spent; may exceed 100 (a gateway's); `nil` uncapped.
    public var percent: Double?
    /// From the thresholds on `100 - percent` (critical past 100); ok uncapped.
    public var level: Level
    /// The organisation's pool, not the member's.
    public var organisation: Bool
    public var period: String?
    public var resetsAt: Date?
    public var source: ReadingSource
    /// Whether it is the account's limit: the account has no windows, or it is a gateway's spend
    /// limit. Then it drives the level, the bar's class and the icons.
    public var isLimit: Bool
}

/// Everything a template or adapter can show, computed once from the cache.
public struct UsageView: Sendable, Equatable {
    public var now: Date
    public var status: DisplayStatus
    /// Seconds since the newest observation; `nil` without data.
    public var age: TimeInterval?
    public var isStale: Bool
    public var isOffline: Bool
    /// A short description of the last failure, when the status is not `ok`.
    public var error: String?
    public var plan: String?
    public var windows: [WindowView]
    public var extra: ExtraUsage?
    public var source: ReadingSource?
    /// When a cooldown (429 or backoff) ends.
    public var cooldownUntil: Date?
    /// The spend, when the account has any to show.
    public var spend: SpendView?
    /// The windows a line shows by default: those Claude Code's `/usage` shows, and any other
    /// that needs attention (`WindowView.shown`, `needsAttention`). `windows` keeps them all,
    /// reachable by name.
    public var rows: [WindowView] = []
    /// Top-level keys of the last body elbowroom has never heard of.
    public var unknownKeys: [String] = []
    /// The cache's attribution state lines, read only for `W.top` (`topConsumer(of:)`).
    public var attribution: String?
    /// No data, and only Claude Code's status line can bring some (`source = "statusline"`). A
    /// render that has a status line which brought none says "Claude Code sent no limits"
    /// instead (before the first response, API-key sessions and some versions send none).
    public var waitsForStatusLine = false
    /// `display`: whether the shipped templates' percentages count what is left or what is used.
    public var display: Display = .left
    /// Whose usage this is (`{agent}`): `Claude`, `Codex`, or a source plugin's name.
    public var agent = "Claude"
    /// What `error` says for a status-line render whose input carried no limits.
    public static let statusLineSentNoLimits = "Claude Code sent no limits"

    /// The window with the least headroom left among `rows`; the API's binding limit instead
    /// when it names one and no other window is at a worse level.
    public var worst: WindowView? { Self.worst(of: rows) }

    /// Percent used of the worst window, else of a spend that is the account's limit (may
    /// exceed 100): waybar's `percentage`.
    public var headlinePercent: Double? {
        if let worst { return worst.used }
        return spend.flatMap { $0.isLimit ? $0.percent : nil }
    }

    /// What kind of account the data shows: `subscriber` (windows), `organisation pool`,
    /// `gateway` (a spend limit from the status line), `spend only`, `no limits`, or `blocked` (a Codex workspace refusing every request) — for
    /// `doctor`, `cache show` and the `account` variable. `nil` without data.
    public var accountType: String? {
        guard age != nil else { return nil }
        if window(named: "blocked") != nil { return "blocked" }
        if spend?.source == .statusLine { return windows.isEmpty ? "gateway" : "subscriber with gateway spend limit" }
        if !windows.isEmpty { return "subscriber" }
        if let spend { return spend.organisation ? "organisation pool" : "spend only" }
        return "no limits"
    }

    /// A few words for an account with data but no window and no spend: which plan, and that
    /// there is nothing to show (`team plan: no limits or spend to show`). `nil` otherwise.
    public var notice: String? {
        guard age != nil, windows.isEmpty, spend == nil else { return nil }
        return "\(plan.map { $0 + " plan" } ?? "this account"): no limits or spend to show"
    }

    /// `worst` over some of the windows (`other` in templates: those a template does not name).
    public static func worst(of windows: [WindowView]) -> WindowView? {
        let least = windows.min { ($0.left, $0.resetsIn ?? .infinity) < ($1.left, $1.resetsIn ?? .infinity) }
        let binding = windows.filter(\.binding).min { $0.left < $1.left }
        if let least, let binding, binding.level >= least.level {
            return binding
        }
        return least
    }

    /// The overall level: the worst window's, or ok without data.
    public var level: Level {
        // A loop, not `map(\.level).max()`: every render asks, and an array of levels would cost
        // its first use of `[Level]` (~11 k instructions of runtime metadata).
        var worst = Level.ok
        for window in windows { worst = max(worst, window.level) }
        if let spend, spend.isLimit { worst = max(worst, spend.level) }
        return worst
    }

    /// A window by alias (`5h`), API key (`five_hour`) or `worst`.
    public func window(named name: String) -> WindowView? {
        if name == "worst" { return worst }
        let key = WindowCatalog.key(forName: name)
        return windows.first { $0.key == key }
    }

    /// - Parameter history: the usage history, for `rate`, `spark`, and `pace`/`eta` at the
    ///   current rate; without it those use the window's average rate.
    /// - Parameter provider: whose account this is (`agent`; and `source = "statusline"` leaves
    ///   only Claude's account waiting for Claude Code's status line: another still fetches).
    public init(cache: __shared CacheFile?, now: Date, config: __shared Config, history: __shared UsageHistory? = nil,
                provider: Provider = .claude) {
        self.now = now
        agent = provider.agent
        display = config.display
        let reading = cache?.reading
        status = DisplayStatus.of(cache: cache, now: now, staleAfter: config.staleAfter)
        age = reading.map { max(0, now.timeIntervalSince($0.fetchedAt)) }
        isStale = age.map { $0 > config.staleAfter } ?? false
        isOffline = status == .offline || status == .rateLimited
        error = status == .ok || status == .stale || status == .loading
            ? nil : (cache?.fetch.message ?? Self.defaultMessage(status))
        if status == .loading && !config.usageSource.mayFetch && provider == .claude {
            // Nothing will ever fetch: say where the data will come from, or that it came
            // without limits (`StatusLineIngest` records that, so every consumer says it).
            error = cache?.fetch.message == Self.statusLineSentNoLimits
                ? Self.statusLineSentNoLimits : "waiting for Claude Code's status line"
            waitsForStatusLine = true
        }
        plan = reading?.plan
        extra = reading?.extra
        source = reading?.source
        cooldownUntil = cache?.fetch.activeCooldown(now: now)
        windows = []
        // Room for every window at once (one allocation, not one per doubling).
        if let stored = reading?.windows, !stored.isEmpty { windows.reserveCapacity(stored.count) }
        for stored in reading?.windows ?? [] {
            // `reset_policy = "unknown"`: a window whose reset passed with no newer data has no number.
            if config.resetPolicy == .unknown, let r = stored.resetsAt, r <= now { continue }
            var w = Self.project(stored, now: now, thresholds: config.thresholds, history: history)
            w.source = stored.source ?? reading?.source ?? .api
            w.detail = stored.detail
            switch provider {
            case .claude: w.shown = WindowCatalog.isShownByClaudeCode(key: stored.key, apiLabel: stored.label, plan: plan)
            case .codex: w.shown = !WindowCatalog.isCodexPerModel(stored.key)
            default: w.shown = true  // a source plugin's or another agent's: every window it reports
            }
            windows.append(w)
        }
        // Every window a row (the usual case): the rows are the windows' own array, not a copy.
        var hidden = 0
        for w in windows where !(w.shown || w.needsAttention) { hidden += 1 }
        if hidden == 0 || hidden == windows.count {
            // (Never hide every window: an account whose only limits are ones `/usage` leaves
            // out, a limits[]-only body with an Opus week, shows them.)
            rows = windows
        } else {
            rows.reserveCapacity(windows.count - hidden)
            for w in windows where w.shown || w.needsAttention { rows.append(w) }
        }
        // Another provider's windows have no fixed order Claude Code's `/usage` gives them: the
        // least headroom comes first, so a line cut short keeps the limit that binds.
        if provider != .claude && rows.count > 1 {
            rows.sort { ($0.left, $0.resetsIn ?? .infinity) < ($1.left, $1.resetsIn ?? .infinity) }
        }
        unknownKeys = reading?.unknownKeys ?? []
        attribution = cache?.attribution
        if let extra = reading?.extra, extra.hasSpend {
            spend = Self.spend(extra, windowsEmpty: windows.isEmpty, readingSource: reading?.source ?? .api,
                               now: now, thresholds: config.thresholds)
        }
    }

    static func spend(_ e: ExtraUsage, windowsEmpty: Bool, readingSource: ReadingSource, now: Date,
                      thresholds: Thresholds) -> SpendView? {
        let source = e.source ?? readingSource
        // A gateway's limit that has reset is a new period: nothing known about it yet.
        if let r = e.resetsAt, r <= now, source == .statusLine { return nil }
        let percent = e.percent.flatMap { $0.isFinite ? max(0, $0) : nil }
        // The API's `monthly_limit: null` is no cap (Claude Code reads "Unlimited"), whatever
        // percent rides along; a gateway may send only its percent.
        let capped = percent != nil && (source == .statusLine ? (e.monthlyLimitMinor ?? 1) > 0 : (e.monthlyLimitMinor ?? 0) > 0)
        let level: Level = capped ? .forLeft(100 - (percent ?? 0), thresholds: thresholds)
            : (e.limitReached == true ? .critical : .ok)
        return SpendView(
            usedMinor: e.usedMinor, limitMinor: e.monthlyLimitMinor, currency: MinorUnits.code(e.currency) ?? "",
            exponent: e.minorDigits, percent: capped ? percent : nil,
            level: e.limitReached == true ? .critical : level, organisation: e.organisation == true,
            period: e.period, resetsAt: e.resetsAt, source: source,
            isLimit: windowsEmpty || source == .statusLine)
    }

    static func defaultMessage(_ status: DisplayStatus) -> String? {
        switch status {
        case .signedOut: "sign in to Claude Code"
        case .expired: "open Claude Code to refresh"
        case .rateLimited: "rate limited"
        case .offline: "offline"
        default: nil
        }
    }

    /// Time from `now` to a projected run-out; `nil` once that moment has passed without newer
    /// data showing the window used up: the projection was wrong or the data is old, and
    /// "out in 0s" would claim what nobody knows.
    static func eta(_ runsOutAt: Date, now: Date) -> TimeInterval? {
        let remaining = runsOutAt.timeIntervalSince(now)
        return remaining > 0 ? remaining : nil
    }

    /// Projects a stored window to `now`: past its reset it reads 0 % used; otherwise pace and eta
    /// come from the burn rate of the last hour when the history gives one, else from the
    /// average rate between the window's start and the observation.
    public static func project(_ w: UsageWindow, now: Date, thresholds: Thresholds,
                               history: UsageHistory? = nil) -> WindowView {
        let name = WindowCatalog.shortName(forKey: w.key)
        let label = WindowCatalog.label(forKey: w.key, apiLabel: w.label)
        if let resetsAt = w.resetsAt, resetsAt <= now {
            return WindowView(key: w.key, name: name, label: label, used: 0, left: 100, resetsAt: nil,
                              resetsIn: nil, level: .forLeft(100, thresholds: thresholds), pace: nil,
                              eta: nil, rate: nil, spark: nil, hasReset: true, binding: false, observedAt: w.observedAt)
        }
        let used = min(max(w.used, 0), 100)
        var pace: Double?
        var eta: TimeInterval?
        var rate: Double?
        var spark: Sparkline?
        if let history {
            let instance = history.instance(of: w)
            let nowSeconds = Int64(now.timeIntervalSince1970.rounded(.down))
            rate = BurnRate.percentPerHour(instance, now: nowSeconds)
            spark = Sparkline(instance, now: nowSeconds)
        }
        if let rate {
            // Percent per hour now, from the observation on.
            if let resetsAt = w.resetsAt {
                pace = used + rate * max(0, resetsAt.timeIntervalSince(w.observedAt)) / 3600
            }
            if rate > 0 {
                let runsOutAt = w.observedAt.addingTimeInterval((100 - used) / rate * 3600)
                if w.resetsAt.map({ runsOutAt < $0 }) ?? true { eta = Self.eta(runsOutAt, now: now) }
            }
        } else if let resetsAt = w.resetsAt, let length = WindowCatalog.length(forKey: w.key) {
            let elapsed = length - resetsAt.timeIntervalSince(w.observedAt)
            // Too early in a window the rate is noise; five minutes in it starts to mean something.
            if elapsed >= 300 && elapsed <= length {
                let rate = used / elapsed  // percent per second
                pace = used * length / elapsed
                if rate > 0 {
                    let runsOutAt = w.observedAt.addingTimeInterval((100 - used) / rate)
                    if runsOutAt < resetsAt { eta = Self.eta(runsOutAt, now: now) }
                }
            }
        }
        return WindowView(
            key: w.key, name: name, label: label, used: used, left: 100 - used, resetsAt: w.resetsAt,
            resetsIn: w.resetsAt.map { $0.timeIntervalSince(now) },
            level: .forLeft(100 - used, thresholds: thresholds, apiSeverity: w.severity),
            pace: pace, eta: eta, rate: rate, spark: spark, hasReset: false, binding: w.binding == true,
            observedAt: w.observedAt)
    }
}
