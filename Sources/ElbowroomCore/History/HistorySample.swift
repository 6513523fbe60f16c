// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
/// One observation of one window, as the usage history keeps it (see `HistoryFile`).
public struct HistorySample: Sendable, Equatable {
    /// When the number was observed, Unix seconds.
    public var at: Int64
    /// The window's API key (`five_hour`, `seven_day`, …).
    public var key: String
    /// Percent used, 0…100, to two decimals.
    public var used: Double
    /// The reset time of the window this sample belongs to, Unix seconds; `nil` when unknown
    /// (an idle window). Samples of one window instance share it, so a reset starts a new series.
    public var resetsAt: Int64?

    public init(at: Int64, key: String, used: Double, resetsAt: Int64?) {
        self.at = at
        self.key = key
        self.used = used
        self.resetsAt = resetsAt
    }

    /// The sample for one window of a reading; `nil` when its key cannot be stored (see `HistoryFile`).
    public init?(_ window: UsageWindow) {
        guard HistoryFile.isStorableKey(window.key) else { return nil }
        self.init(at: EpochTime.seconds(window.observedAt), key: window.key,
                  used: (window.used * 100).rounded() / 100,
                  resetsAt: window.resetsAt.map { EpochTime.seconds($0) })
    }

    /// Whether this sample belongs to the window instance that resets at `reset`: the same reset
    /// time within a minute (the API and the status line round it differently), or both unknown.
    public func belongs(toInstanceResettingAt reset: Int64?) -> Bool {
        Self.sameInstance(resetsAt, reset)
    }

    /// Whether two reset times name the same window instance (within a minute, or both unknown).
    public static func sameInstance(_ a: Int64?, _ b: Int64?) -> Bool {
        switch (a, b) {
        case let (mine?, theirs?): abs(mine - theirs) <= 60
        case (nil, nil): true
        default: false
        }
    }
}
