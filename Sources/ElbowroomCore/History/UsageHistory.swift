// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
/// The history as a render sees it: series after series, each a run of one window instance's
/// points — a digest's line (`HistoryDigest`), or in the whole history (`HistoryFile`) each run
/// of consecutive samples with one key and one reset time. A series says its key and reset
/// time once; a point is two numbers and holds no `String` (a digest's samples, each a
/// `HistorySample` with its key, cost a render some 250 instructions apiece).
public struct UsageHistory: Sendable, Equatable {
    /// Every series' points, series after series, each in the order recorded (oldest first):
    /// two numbers a point, as `HistoryPoints` reads them.
    var numbers: [Int64]
    /// Each series' window key.
    var keys: [String]
    /// Each series' reset time and extent, three numbers a series: 1 when its reset time is
    /// known (0 when not), the reset time, and where its points end in `points` (they start
    /// where the series before ends). Numbers, not a `HistorySeries` each: an array of a type of
    /// its own costs a render the runtime's metadata for it, some 7 k instructions.
    var marks: [Int64]

    public init() {
        numbers = []
        keys = []
        marks = []
    }

    /// The samples in the order given (a history file's: time order), as runs.
    public init(samples: [HistorySample]) {
        self.init()
        numbers.reserveCapacity(2 * samples.count)
        for sample in samples {
            numbers.append(sample.at)
            numbers.append(HistoryPoints.bits(sample.used))
            Self.addRun(key: sample.key, resetsAt: sample.resetsAt, end: numbers.count / 2, keys: &keys, marks: &marks)
        }
    }

    init(numbers: [Int64], keys: [String], marks: [Int64]) {
        self.numbers = numbers
        self.keys = keys
        self.marks = marks
    }

    /// Ends a run of `key` and `resetsAt` at `end` (it starts where the last one ends): the
    /// last series goes on when it is of the same key and reset time (consecutive samples of a
    /// window; a digest that lists a window twice in a row), so no two series in a row share
    /// both and two histories of the same samples are equal. A run of no points is none.
    static func addRun(key: String, resetsAt: Int64?, end: Int, keys: inout [String], marks: inout [Int64]) {
        let last = marks.count - 3
        let start = last >= 0 ? Int(marks[last + 2]) : 0
        guard end > start else { return }
        if last >= 0, keys[keys.count - 1] == key,
           HistorySeries.resetTime(known: marks[last], at: marks[last + 1]) == resetsAt {
            marks[last + 2] = Int64(end)
            return
        }
        keys.append(key)
        marks.append(resetsAt == nil ? 0 : 1)
        marks.append(resetsAt ?? 0)
        marks.append(Int64(end))
    }

    public var isEmpty: Bool { numbers.isEmpty }

    /// Every point, series after series.
    public var points: [HistoryPoint] { HistoryPoints(numbers: numbers[...]).array }

    /// The number of series.
    public var seriesCount: Int { keys.count }

    /// Series `index`'s key, reset time and where its points lie.
    public func series(at index: Int) -> HistorySeries {
        HistorySeries(key: keys[index], resetsAt: resetsAt(ofSeries: index),
                      start: index == 0 ? 0 : Int(marks[3 * index - 1]), end: Int(marks[3 * index + 2]))
    }

    /// Every series, in order.
    public var series: [HistorySeries] {
        (0..<seriesCount).map { series(at: $0) }
    }

    func resetsAt(ofSeries index: Int) -> Int64? {
        HistorySeries.resetTime(known: marks[3 * index], at: marks[3 * index + 1])
    }

    /// Every point as a sample, series after series: for a history made from samples, those
    /// samples in their order.
    public var samples: [HistorySample] {
        var samples: [HistorySample] = []
        let points = HistoryPoints(numbers: numbers[...])
        samples.reserveCapacity(points.count)
        for s in series {
            for point in (s.start..<s.end).map({ points[$0] }) {
                samples.append(HistorySample(at: point.at, key: s.key, used: point.used, resetsAt: s.resetsAt))
            }
        }
        return samples
    }

    /// The points of the window instance `window` is in (same key, same reset time within a
    /// minute: `HistorySample.sameInstance`) observed no later than `window`, oldest first,
    /// ending with `window`'s own observation even when the history does not have it yet.
    ///
    /// A digest's series of that instance, already ending with the observation (what a render
    /// finds), is handed out as it lies in `points`, not copied.
    public func instance(of window: UsageWindow) -> HistoryPoints {
        let reset = window.resetsAt.map { EpochTime.seconds($0) }
        let observed = EpochTime.seconds(window.observedAt)
        var first = -1, firstStart = 0, firstEnd = 0
        var matches = 0
        var count = 0
        var start = 0
        for s in keys.indices {
            let end = Int(marks[3 * s + 2])
            defer { start = end }
            guard keys[s] == window.key, HistorySample.sameInstance(resetsAt(ofSeries: s), reset) else { continue }
            if first < 0 { (first, firstStart, firstEnd) = (s, start, end) }
            matches += 1
            count += end - start
        }
        if matches == 1 {
            let whole = HistoryPoints(numbers: numbers[2 * firstStart..<2 * firstEnd])
            let asItLies = whole.read { points in
                var later = false
                for k in 0..<points.count where points.at(k) > observed { later = true }
                return !later && points.at(points.count - 1) == observed
            }
            if asItLies { return whole }
        }
        var instance = HistoryPoints(numbers: [])
        instance.reserveCapacity(count + 1)
        if matches > 0 {
            start = firstStart
            for s in first..<keys.count {
                let end = Int(marks[3 * s + 2])
                defer { start = end }
                guard keys[s] == window.key, HistorySample.sameInstance(resetsAt(ofSeries: s), reset) else { continue }
                for k in start..<end where numbers[2 * k] <= observed {
                    instance.append(HistoryPoint(at: numbers[2 * k], used: HistoryPoints.percent(numbers[2 * k + 1])))
                }
            }
        }
        if instance.last?.at != observed {
            instance.append(HistoryPoint(at: observed, used: window.used))
        }
        return instance
    }
}
