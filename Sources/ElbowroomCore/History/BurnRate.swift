// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
/// How fast a window is being used *now*, in percent per hour: a least-squares line through the
/// last hour of the current window instance (less when the instance's history is younger).
///
/// - Only samples of the window instance the reading is in count, so a reset never reads as
///   negative burn; a slope below zero (rounding noise) is 0.
/// - The samples are read as what was known at each moment — the last number observed holds until
///   the next — on a one-minute grid up to `now`. Samples come irregularly (a fetch every few
///   minutes, the status line only when a number moves), so a quiet hour counts as quiet however
///   few samples it left (the one in force when it began is enough), and a burst of samples does
///   not outweigh it.
/// - No value with fewer than `minimumSamples` samples in the instance or less than
///   `minimumSpan` seconds from the first one fitted to `now`: a rate from two points a minute
///   apart is noise.
public enum BurnRate {
    public static let minimumSamples = 3
    public static let minimumSpan: Int64 = 600
    public static let horizon: Int64 = 3600
    static let step: Int64 = 60

    /// Percent per hour from `points` (one window instance, oldest first) as of `now`
    /// (Unix seconds), or `nil`.
    public static func percentPerHour(_ points: HistoryPoints, now: Int64) -> Double? {
        points.read { points in
            guard points.count >= minimumSamples else { return nil }
            let end = max(now, points.at(points.count - 1))
            let start = end - horizon
            // The point in force when the hour opens, then every one inside it.
            var inside = 0
            while inside < points.count && points.at(inside) < start { inside += 1 }
            let first = inside > 0 ? inside - 1 : 0
            let from = max(start, points.at(first))
            guard end - from >= minimumSpan else { return nil }
            return slope(points, first: first, from: from, to: end).map { max(0, $0 * 3600) }
        }
    }

    /// The least-squares slope, percent per second, of the step function through `points` from
    /// `first` on, sampled every `step` seconds from `from` to `to`.
    @inline(__always)
    static func slope(_ points: HistoryPoints.Reader, first: Int, from: Int64, to: Int64) -> Double? {
        // The times are whole multiples of the step from 0: their count, sum and sum of squares
        // are integers, which a running sum of doubles adds exactly, so they are written out
        // here; the sums over the numbers are added up step by step as before (in that order:
        // the same bits).
        let m = to >= from ? (to - from) / step + 1 : 0
        let n = Double(m)
        let sumT = Double(step * (m * (m - 1) / 2))
        let sumTT = Double(step * step * ((m - 1) * m * (2 * m - 1) / 6))
        var sumU = 0.0, sumTU = 0.0
        var index = first
        var t = from
        while t <= to {
            while index + 1 < points.count && points.at(index + 1) <= t { index += 1 }
            let y = points.used(index)
            // Every step before the next point comes in reads this one.
            let until = index + 1 < points.count ? min(to, points.at(index + 1) - 1) : to
            repeat {
                let x = Double(t - from)
                sumU += y
                sumTU += x * y
                t += step
            } while t <= until
        }
        let denominator = n * sumTT - sumT * sumT
        guard n >= 2, denominator > 0 else { return nil }
        let slope = (n * sumTU - sumT * sumU) / denominator
        return slope.isFinite ? slope : nil
    }
}
