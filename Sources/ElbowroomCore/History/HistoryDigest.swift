// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// What a render reads of the usage history: `usage-<account>.digest` beside it, written with
/// it (`HistoryStore.record`). The whole history holds some thousand lines; a render needs only
/// each window's current instance, and of that only the samples that `rate` and `spark` can
/// tell apart — a few dozen numbers per window instead of a thousand lines.
///
/// ```
/// elbowroom-digest 1
/// five_hour 1800007980 1800000000 10800:12 7200:30 60:37 0:37.5
/// seven_day_oauth_apps - 1800000000 86400:0 0:0
/// ```
///
/// The first line names the format and its version. Then one line per window: its API key, the
/// reset time of its current instance (Unix seconds, `-` when unknown), the time of its newest
/// sample (Unix seconds), and that instance's samples, oldest first, as `AGE:USED` — seconds
/// before the newest sample, and percent used as in `HistoryFile`. A file with another first
/// line, or a malformed line, makes the whole digest unusable, and a render reads the history
/// itself instead.
///
/// Which samples are kept (`reduce`):
/// - A sample whose number is the same as the one before it is dropped: `rate` and `spark` read
///   the history as "the last number observed holds until the next", so it changes nothing —
///   except that the first and the newest sample are always kept (they fix where the series
///   starts and ends) and at least three are kept when the instance has three (`rate` needs
///   three).
/// - That keeps a real account's instance small (usage moves in whole percent). When it still
///   has more than `maxSamples`, every sample of the last hour is kept (what `rate` fits) and
///   the older ones are thinned to the newest of each of `olderSlots` equal stretches of time,
///   so a sparkline may then shift a point by at most one such stretch.
public enum HistoryDigest {
    public static let header = "elbowroom-digest 1"
    public static let maxSamples = 96
    static let olderSlots: Int64 = 32

    // MARK: - Reduce

    /// Each window's current instance (the series of its newest sample), reduced as above, in
    /// the order the windows first appear in `samples` (oldest first).
    public static func reduce(_ samples: [HistorySample]) -> [[HistorySample]] {
        var keys: [String] = []
        var newest: [HistorySample] = []
        for sample in samples {
            if let k = keys.firstIndex(of: sample.key) {
                if sample.at >= newest[k].at { newest[k] = sample }
            } else {
                keys.append(sample.key)
                newest.append(sample)
            }
        }
        return newest.map { last in
            let instance = samples.filter { $0.key == last.key && $0.belongs(toInstanceResettingAt: last.resetsAt) }
            return thin(withoutRepeats(instance))
        }
    }

    /// `series` without samples that repeat the number before them, keeping the first, the last
    /// and at least three.
    static func withoutRepeats(_ series: [HistorySample]) -> [HistorySample] {
        guard series.count > 2 else { return series }
        var kept = [series[0]]
        var repeats: [HistorySample] = []
        for sample in series.dropFirst().dropLast() {
            if sample.used == kept[kept.count - 1].used { repeats.append(sample) } else { kept.append(sample) }
        }
        kept.append(series[series.count - 1])
        if kept.count < 3, let spare = repeats.last {
            // A flat window: one of its repeats, so `rate` still reads 0 rather than nothing.
            kept.insert(spare, at: kept.firstIndex { $0.at > spare.at } ?? kept.count - 1)
        }
        return kept
    }

    /// `series` with at most about `maxSamples`: the last hour whole, older samples thinned.
    static func thin(_ series: [HistorySample]) -> [HistorySample] {
        guard series.count > maxSamples, let last = series.last else { return series }
        // The sample in force when the last hour began, and all after it: what `rate` reads.
        let hour = (series.lastIndex { $0.at <= last.at - BurnRate.horizon } ?? 0)
        guard hour > 1 else { return series }
        let first = series[0]
        let width = max(1, (series[hour].at - first.at + olderSlots - 1) / olderSlots)
        var kept = [first]
        for k in 1..<hour {
            let slot = (series[k].at - first.at) / width
            // The newest sample of each stretch: drop this one when the next is in the same one.
            if (series[k + 1].at - first.at) / width != slot { kept.append(series[k]) }
        }
        return kept + series[hour...]
    }

    // MARK: - File format

    public static func encode(_ series: [[HistorySample]]) -> Data {
        var out = ByteWriter(capacity: 64 + series.reduce(0) { $0 + 48 + 12 * $1.count })
        out.text(header)
        out.byte(0x0A)
        for samples in series {
            guard let last = samples.last, HistoryFile.isStorableKey(last.key) else { continue }
            out.text(last.key)
            out.byte(0x20)
            if let reset = last.resetsAt { out.integer(reset) } else { out.byte(0x2D) }
            out.byte(0x20)
            out.integer(last.at)
            for s in samples {
                out.byte(0x20)
                out.integer(last.at - s.at)
                out.byte(0x3A)
                out.percent(s.used)
            }
            out.byte(0x0A)
        }
        return out.data
    }

    /// Window after window, each a series of its points (oldest first), or `nil` when the file
    /// is not a digest this version reads whole.
    public static func parse(_ data: Data, windows: [String]? = nil) -> UsageHistory? {
        data.withUnsafeBytes { raw in
            parse(raw.bindMemory(to: UInt8.self), windows: windows)
        }
    }

    /// `windows`: the keys of the windows the render shows (the cache's reading's); a line of
    /// any other window is stepped over unread, as no render asks its points (a history that
    /// kept the Opus and Sonnet weeks from a fetch, read beside a status line's two windows, was
    /// half points no one looked at). `nil`: every window.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, windows: [String]? = nil) -> UsageHistory? {
        var c = ByteCursor(bytes)
        guard c.line(header) else { return nil }
        // Every line ends with a newline, so the last byte is one (`readPoints` counts on it).
        guard c.atEnd || bytes[bytes.count - 1] == 0x0A else { return nil }
        // Room for more windows than a digest has (grown, the numbers would free a buffer of
        // 64 bytes or more: ~31 k instructions the first time, see docs/performance.md).
        var keys: [String] = []
        keys.reserveCapacity(16)
        var marks: [Int64] = []
        marks.reserveCapacity(3 * 16)
        var usable = true
        // Every point has one colon (` AGE:USED`; a key may have more): room for all of them
        // at once, filled in place (appended one by one, each point cost a uniqueness
        // and a capacity check). Two numbers a point (`HistoryPoints`). (Room for a point every
        // four bytes, the fewest one takes, was 2.3 times that: three accounts' digests took
        // three heap pages more than their points.)
        let colons = colonCount(UnsafeBufferPointer(rebasing: bytes[c.i...]))
        let numbers = [Int64](unsafeUninitializedCapacity: 2 * colons) { numbers, count in
            while !c.atEnd {
                guard let key = c.key() else {
                    usable = false
                    break
                }
                if let windows, !windows.contains(key) {
                    // (The digest ends with a newline: `parse` checked.)
                    while bytes[c.i] != 0x0A { c.i &+= 1 }
                    c.i &+= 1
                    continue
                }
                guard c.space(), let resetsAt = c.resetTime(), c.space(),
                      let newest = c.integer(), readPoints(&c, newest: newest, into: numbers, count: &count),
                      c.byte(0x0A) else {
                    usable = false
                    break
                }
                UsageHistory.addRun(key: key, resetsAt: resetsAt, end: count / 2, keys: &keys, marks: &marks)
            }
            if !usable { count = 0 }
        }
        return usable ? UsageHistory(numbers: numbers, keys: keys, marks: marks) : nil
    }

    /// How many bytes of `bytes` are colons, eight at a time (a byte at a time, the count cost a
    /// render more instructions than the heap pages it saved).
    package static func colonCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        var count = 0
        var i = 0
        while i &+ 8 <= bytes.count {
            let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ 0x3A3A_3A3A_3A3A_3A3A
            // The top bit of each byte of `x` that is zero (a colon), nothing else: a byte's low
            // seven bits plus 0x7F carry into its top bit unless they are all zero, and never
            // into the next byte.
            count &+= (~(((x & low7) &+ low7) | x | low7)).nonzeroBitCount
            i &+= 8
        }
        while i < bytes.count {
            if base[i] == 0x3A { count &+= 1 }
            i &+= 1
        }
        return count
    }

    /// Reads the points of a line (` AGE:USED` each, oldest first) from `c` up to the line's end
    /// into `numbers` (two each, as `HistoryPoints` holds them) from `count` on; `false` when one is malformed or out of order. Thousands a
    /// render, so in locals, and with no look at where the bytes end: the digest's last byte is
    /// a newline, which ends every run of digits.
    @inline(__always)
    static func readPoints(_ c: inout ByteCursor, newest: Int64, into numbers: UnsafeMutableBufferPointer<Int64>,
                           count: inout Int) -> Bool {
        let b = c.b.baseAddress!
        var i = c.i
        var n = count
        defer {
            c.i = i
            count = n
        }
        /// A run of 1 to 12 digits from `i` (`nil`: none, or more), `i` left after it.
        @inline(__always) func digits() -> Int64? {
            let first = i
            var value: Int64 = 0
            while true {
                let digit = b[i] &- 0x30
                guard digit <= 9 else { break }
                value = value &* 10 &+ Int64(digit)
                i &+= 1
            }
            return UInt(bitPattern: i &- first &- 1) < 12 ? value : nil
        }
        var previousAge = Int64.max
        while b[i] == 0x20 {
            i &+= 1
            // No older than the epoch, no older than the point before.
            guard let age = digits(), b[i] == 0x3A, age <= newest, age <= previousAge else { return false }
            i &+= 1
            guard let whole = digits() else { return false }
            let used: Double
            if b[i] == 0x2E {
                var rest = ByteCursor(c.b, at: i &+ 1)
                guard let value = rest.fraction(after: whole) else { return false }
                used = value
                i = rest.i
            } else {
                guard whole <= 100 else { return false }
                used = Double(whole)
            }
            guard n &+ 1 < numbers.count else { return false }
            numbers.initializeElement(at: n, to: newest &- age)
            numbers.initializeElement(at: n &+ 1, to: HistoryPoints.bits(used))
            n &+= 2
            previousAge = age
        }
        return true
    }
}
