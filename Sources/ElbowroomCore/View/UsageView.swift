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

    /// Worth a place on a one-line display it does not normally have: not ok, or binding.
    public var needsAttention: Bool { level != .ok || binding }
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

    /// The window with the least headroom left; the API's binding limit instead when it names
    /// one and no other window is at a worse level.
    public var worst: WindowView? { Self.worst(of: windows) }

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
    public init(cache: CacheFile?, now: Date, config: Config, history: UsageHistory? = nil) {
        self.now = now
        let reading = cache?.reading
        status = DisplayStatus.of(cache: cache, now: now, staleAfter: config.staleAfter)
        age = reading.map { max(0, now.timeIntervalSince($0.fetchedAt)) }
        isStale = age.map { $0 > config.staleAfter } ?? false
        isOffline = status == .offline || status == .rateLimited
        error = status == .ok || status == .stale || status == .loading
            ? nil : (cache?.fetch.message ?? Self.defaultMessage(status))
        if status == .loading && !config.usageSource.mayFetch {
            // Nothing will ever fetch: say where the data will come from.
            error = "waiting for Claude Code's status line"
        }
        plan = reading?.plan
        extra = reading?.extra
        source = reading?.source
        cooldownUntil = cache?.fetch.activeCooldown(now: now)
        windows = (reading?.windows ?? []).map {
            Self.project($0, now: now, thresholds: config.thresholds, history: history)
        }
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
