/// One number of a window instance's history: what `BurnRate` and `Sparkline` read. The window
/// and instance it belongs to are its `HistorySeries`'s, said once for all of its points (a
/// `HistorySample` says them again on every line, and holds its key as a `String`).
public struct HistoryPoint: Sendable, Equatable {
    /// When the number was observed, Unix seconds.
    public var at: Int64
    /// Percent used, 0…100, to two decimals.
    public var used: Double

    public init(at: Int64, used: Double) {
        self.at = at
        self.used = used
    }

    /// The point of `sample` (its key and reset time are its series').
    public init(_ sample: HistorySample) {
        self.init(at: sample.at, used: sample.used)
    }
}
