import ElbowroomCore

/// Refresh requests of `watch` and `tray` (SIGUSR1, a left click, the tray's "Refresh now"),
/// coalesced: at most one forced fetch every `interval` seconds;
/// requests in between collapse into one that runs when the interval is up. A storm of requests
/// costs a re-render each, never a fetch each.
struct ForcedRefresh {
    /// The least time between two forced refreshes.
    static let interval: TimeInterval = 5
    /// A request not yet run.
    private(set) var pending = false
    /// When the last forced refresh ran.
    private(set) var last: Date?

    /// Asks for a refresh (a click, a menu row; SIGUSR1 is taken in by `due`).
    mutating func request() { pending = true }

    /// Whether a forced refresh runs this tick (then it counts as run). `allowed` false (`--demo`,
    /// `--offline`): requests are dropped.
    mutating func due(now: Date, allowed: Bool) -> Bool {
        if watchRefreshRequested != 0 {
            watchRefreshRequested = 0
            pending = true
        }
        if !allowed { pending = false }
        guard pending, last.map({ now.timeIntervalSince($0) >= Self.interval }) ?? true else { return false }
        pending = false
        last = now
        return true
    }

    /// How long to sleep at most: `interval`, or less when a pending request comes due sooner.
    func timeout(_ interval: TimeInterval, now: Date) -> TimeInterval {
        guard pending, let last else { return interval }
        return min(interval, max(0.01, last.addingTimeInterval(Self.interval).timeIntervalSince(now)))
    }
}
