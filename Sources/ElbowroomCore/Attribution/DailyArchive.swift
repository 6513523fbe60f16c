#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// Keeps the daily summaries (`DailySummary`, `usage-<account>.daily`) and the attribution log's
/// length: every day the 8-day detail (usage history, attribution log) has in full and the file
/// lacks is summed up into it, days past `DailySummary.keepDays` and rise lines past
/// `AttributionLog.horizon` go. Run under the cache's lock (`CacheStore.maintainHistory`), by the
/// fetcher at most once an hour and by the commands that read the summaries; never by a render.
public struct DailyArchive: Sendable {
    public let file: String
    public let historyFile: String
    /// How often a fetch maintains the summaries.
    public static let every: TimeInterval = 3600

    public init(historyFile: String) {
        self.historyFile = historyFile
        let base = historyFile.hasSuffix(".history") ? String(decoding: historyFile.utf8.dropLast(8), as: UTF8.self) : historyFile
        file = base + ".daily"
    }

    public func read() throws(FileSystem.Failure) -> DailySummary.File {
        guard let data = try FileSystem.readPrivate(file, limit: DailySummary.maxBytes * 2) else { return DailySummary.File() }
        return DailySummary.File.parse(String(decoding: data, as: UTF8.self))
    }

    public func load() -> DailySummary.File { (try? read()) ?? DailySummary.File() }

    /// Whether the summaries were last written longer ago than `every` (by the real clock).
    public var isDue: Bool {
        guard let written = FileSystem.modificationDate(of: file) else { return true }
        return Date().timeIntervalSince(written) >= Self.every || Date() < written
    }

    /// Sums up the finished days the detail has and the file lacks, drops what is too old, and
    /// compacts the attribution log. Returns the summaries as written.
    @discardableResult
    public func maintain(now: Int64) throws -> DailySummary.File {
        var stored = load()
        let samples = HistoryStore(file: historyFile).load().samples
        let log = AttributionLog(historyFile: historyFile)
        let contents = log.load()
        let today = DailySummary.day(of: now)
        let have = stored.storedDays
        var first = today
        if let s = samples.first { first = min(first, DailySummary.day(of: s.at)) }
        if let r = contents.rises.first { first = min(first, DailySummary.day(of: r.at)) }
        var changed = false
        var day = first
        while day < today {
            if !have.contains(day) {
                let (days, sessions) = DailySummary.compute(day: day, samples: samples, log: contents)
                stored.days += days
                stored.sessions += sessions.map { (day, $0.id, $0.info) }
                changed = changed || !days.isEmpty
            }
            day += 1
        }
        let oldest = today - DailySummary.keepDays
        if stored.days.contains(where: { $0.day < oldest }) {
            stored.days.removeAll { $0.day < oldest }
            stored.sessions.removeAll { $0.day < oldest }
            changed = true
        }
        var data = stored.encoded()
        while data.count > DailySummary.maxBytes, let drop = stored.storedDays.min() {
            stored.days.removeAll { $0.day == drop }
            stored.sessions.removeAll { $0.day == drop }
            data = stored.encoded()
            changed = true
        }
        if stored.days.isEmpty && !FileSystem.exists(file) {
            // Nothing to keep yet: no file for a history that has none.
        } else if changed || !FileSystem.exists(file) {
            try FileSystem.makeDirectory(FileSystem.directory(of: file), mode: 0o700)
            try FileSystem.writeAtomically(data, to: file, mode: 0o600, durable: false)
        } else {
            // Touched, so `isDue` waits another hour.
            try? FileSystem.writeAtomically(data, to: file, mode: 0o600, durable: false)
        }
        if contents.rises.first.map({ $0.at < now - AttributionLog.horizon }) == true {
            try log.compact(now: now)
        }
        return stored
    }

    /// The summaries of the days from `fromDay` to today: the stored ones, and the others
    /// (today, days not summed up yet) computed from the detail.
    public func days(from fromDay: Int64, now: Int64, stored: DailySummary.File, samples: [HistorySample],
                     log: AttributionLog.Contents) -> DailySummary.File {
        var out = DailySummary.File()
        let have = stored.storedDays
        out.days = stored.days.filter { $0.day >= fromDay }
        out.sessions = stored.sessions.filter { $0.day >= fromDay }
        var day = fromDay
        let today = DailySummary.day(of: now)
        while day <= today {
            if !have.contains(day) {
                let (days, sessions) = DailySummary.compute(day: day, samples: samples, log: log)
                out.days += days
                out.sessions += sessions.map { (day, $0.id, $0.info) }
            }
            day += 1
        }
        out.days.sort { ($0.day, $0.key) < ($1.day, $1.key) }
        return out
    }
}

extension CacheStore {
    /// `DailyArchive.maintain` under the cache's lock (every attribution-log append holds it).
    @discardableResult
    public func maintainHistory(now: Int64) throws -> DailySummary.File {
        // A command that only reads makes no cache directory where there is none.
        guard FileSystem.exists(directory) else { return DailySummary.File() }
        let lock = try FileLock(path: lockFile)
        try lock.lock()
        defer { lock.unlock() }
        return try DailyArchive(historyFile: historyFile).maintain(now: now)
    }
}
