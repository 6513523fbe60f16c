// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
/// The history as a render sees it: series after series, each a run of one window instance's
/// points — a digest's line (`HistoryDigest`), or in the whole history (`HistoryFile`) each run
/// of consecutive samples with one key and one reset time. A series says its key and reset
/// time once; a point is 16 bytes and holds no `String` (a digest's samples, each a
/// `HistorySample` with its key, cost a render some 580 instructions apiece).
public struct UsageHistory: Sendable, Equatable {
    /// Every series' points, series after series, each in the order recorded (oldest first).
    public internal(set) var points: [HistoryPoint]
    /// The series, in the order recorded. Two in a row never share both key and reset time
    /// (they are one run), so two histories of the same samples are equal.
    public internal(set) var series: [HistorySeries]

    public init() {
        points = []
        series = []
    }

    /// The samples in the order given (a history file's: time order), as runs.
    public init(samples: [HistorySample]) {
        self.init()
        points.reserveCapacity(samples.count)
        for sample in samples {
            if let last = series.last, last.key == sample.key, last.resetsAt == sample.resetsAt {
                points.append(HistoryPoint(sample))
                series[series.count - 1].end = points.count
            } else {
                openSeries(key: sample.key, resetsAt: sample.resetsAt)
                points.append(HistoryPoint(sample))
                closeSeries()
            }
        }
    }

    public var isEmpty: Bool { points.isEmpty }

    /// Every point as a sample, series after series: for a history made from samples, those
    /// samples in their order.
    public var samples: [HistorySample] {
        var samples: [HistorySample] = []
        samples.reserveCapacity(points.count)
        for s in series {
            for point in points[s.start..<s.end] {
                samples.append(HistorySample(at: point.at, key: s.key, used: point.used, resetsAt: s.resetsAt))
            }
        }
        return samples
    }

    /// Starts a series of `key` and `resetsAt` for the points appended after it up to
    /// `closeSeries()`; when the last series is of the same key and reset time (a digest that
    /// lists a window twice), they go on with that one instead.
    mutating func openSeries(key: String, resetsAt: Int64?) {
        if let last = series.last, last.end == points.count, last.key == key, last.resetsAt == resetsAt {
            return
        }
        series.append(HistorySeries(key: key, resetsAt: resetsAt, start: points.count, end: points.count))
    }

    /// Ends the series opened last at the last point; one without points is dropped.
    mutating func closeSeries() {
        let last = series.count - 1
        if series[last].start == points.count {
            series.removeLast()
        } else {
            series[last].end = points.count
        }
    }

    /// The points of the window instance `window` is in (same key, same reset time within a
    /// minute: `HistorySample.sameInstance`) observed no later than `window`, oldest first,
    /// ending with `window`'s own observation even when the history does not have it yet.
    ///
    /// A digest's series of that instance, already ending with the observation (what a render
    /// finds), is handed out as it lies in `points`, not copied.
    public func instance(of window: UsageWindow) -> ArraySlice<HistoryPoint> {
        let reset = window.resetsAt.map { EpochTime.seconds($0) }
        let observed = EpochTime.seconds(window.observedAt)
        var first = -1
        var matches = 0
        var count = 0
        for s in series.indices where series[s].key == window.key
            && HistorySample.sameInstance(series[s].resetsAt, reset) {
            if first < 0 { first = s }
            matches += 1
            count += series[s].end - series[s].start
        }
        if matches == 1 {
            let whole = points[series[first].start..<series[first].end]
            var later = false
            for point in whole where point.at > observed { later = true }
            if !later && whole[whole.endIndex - 1].at == observed { return whole }
        }
        var instance: ArraySlice<HistoryPoint> = []
        instance.reserveCapacity(count + 1)
        if matches > 0 {
            for s in first..<series.count where series[s].key == window.key
                && HistorySample.sameInstance(series[s].resetsAt, reset) {
                for point in points[series[s].start..<series[s].end] where point.at <= observed {
                    instance.append(point)
                }
            }
        }
        if instance.last?.at != observed {
            instance.append(HistoryPoint(at: observed, used: window.used))
        }
        return instance
    }
}
