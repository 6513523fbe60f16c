// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
/// A run of one window instance's points in a `UsageHistory` (`UsageHistory.series(_:)`): the
/// window's key and the instance's reset time once, and where its points lie in the history's
/// `points`.
public struct HistorySeries: Sendable, Equatable {
    /// The window's API key (`five_hour`, `seven_day`, …).
    public var key: String
    /// The reset time of the instance, Unix seconds; `nil` when unknown (see `HistorySample`).
    public var resetsAt: Int64?
    /// Its points are `points[start..<end]` of the history that holds it.
    public var start: Int
    public var end: Int

    public init(key: String, resetsAt: Int64?, start: Int, end: Int) {
        self.key = key
        self.resetsAt = resetsAt
        self.start = start
        self.end = end
    }

    /// A reset time as `UsageHistory` keeps it: whether it is known, and if so, what it is.
    static func resetTime(known: Int64, at time: Int64) -> Int64? {
        known != 0 ? time : nil
    }
}
