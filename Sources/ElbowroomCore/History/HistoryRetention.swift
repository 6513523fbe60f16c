// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
/// How much history is kept, so the file stays small enough that a render reading it does not
/// notice much (about 264 samples per window, some 10 KiB; a render whose template shows a rate
/// or sparkline parses all of it, see BENCHMARKS.md).
///
/// | age (from the newest sample) | kept per window |
/// |---|---|
/// | up to 2 hours | one sample a minute (what `rate` fits over) |
/// | 2 to 24 hours | one per 15 minutes |
/// | 1 to 8 days | one per 3 hours (a weekly sparkline needs no more) |
/// | older than 8 days | none |
///
/// Within each slot the latest sample wins; a window that resets starts a new series, so the last
/// number before a reset is never thinned away by the first one after it. Beyond all that, at most
/// `maxSamples` lines are kept (the oldest go first).
public enum HistoryRetention {
    public static let horizon: Int64 = 8 * 86400
    public static let maxSamples = 4096

    /// The slot width for a sample `age` seconds older than the newest.
    static func slot(age: Int64) -> Int64 {
        if age <= 2 * 3600 { return 60 }
        if age <= 86400 { return 900 }
        return 3 * 3600
    }

    /// `samples` (oldest first) thinned by the table above, relative to `newest`.
    public static func apply(_ samples: [HistorySample], newest: Int64) -> [HistorySample] {
        // Newest to oldest: a sample is kept unless a newer one of the same series already holds
        // its slot. Slots are aligned to absolute time, so thinning is stable as `newest` moves.
        // The slot each series (key and reset time) last filled: a handful of series, searched
        // in a line, not a dictionary keyed by a string made for every sample (that cost a
        // thousand-line history 3 M instructions, under the cache's lock).
        struct Filled {
            let key: String
            let resetsAt: Int64?
            var width: Int64
            var index: Int64
        }
        var filled: [Filled] = []
        var kept: [HistorySample] = []
        kept.reserveCapacity(min(samples.count, maxSamples))
        for sample in samples.reversed() {
            let age = newest - sample.at
            guard age <= horizon else { continue }
            let width = slot(age: max(age, 0))
            let index = sample.at >= 0 ? sample.at / width : (sample.at - width + 1) / width
            if let s = filled.firstIndex(where: { $0.key == sample.key && $0.resetsAt == sample.resetsAt }) {
                if filled[s].width == width && filled[s].index == index { continue }
                filled[s].width = width
                filled[s].index = index
            } else {
                filled.append(Filled(key: sample.key, resetsAt: sample.resetsAt, width: width, index: index))
            }
            kept.append(sample)
            if kept.count == maxSamples { break }
        }
        return kept.reversed()
    }
}
