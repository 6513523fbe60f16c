// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// Reads and writes one account's cache file. Writes are atomic (temp file, rename in the same
/// directory; not fsynced: it is a cache); the directory is 0700 and the file 0600. A missing, corrupt or
/// other-version file reads as `nil`. A fetch state the fetcher had to keep in the fetch lock
/// file (`FetchStateMarker`) is laid over what the file holds when it is newer.
///
/// Every file here is opened as a private file (`FileSystem.readPrivate`, `FileLock`): a symlink,
/// FIFO, huge or foreign file planted in the cache directory is a miss (and replaced by the next
/// write), never followed or waited on. A cache directory owned by another user is refused.
public struct CacheStore: Sendable {
    public var file: String { paths.cacheFile }
    /// The cache's lock (`Paths.cacheLockFile`).
    public var lockFile: String { Paths.accountFile(cacheDir, accountKey, ".lock") }
    /// The account's fetch lock, which also holds a `FetchStateMarker` when the cache file could
    /// not be written (`Paths.fetchLockFile`).
    public var fetchLockFile: String { Paths.accountFile(cacheDir, accountKey, ".fetch.lock") }
    public var account: String { paths.accountSource }
    /// The usage history beside the cache (`Paths.historyFile`).
    public var historyFile: String { Paths.accountFile(cacheDir, accountKey, ".history") }
    // The paths a cached render does not use are made on use: made here, a render built three
    // paths only to free them, and the first free of a String that long costs a render ~31 k
    // instructions (the runtime's metadata for `_StringBreadcrumbs?`, docs/performance.md).
    private var cacheDir: String { paths.cacheDir }
    private var accountKey: String { paths.accountKey }
    // The account's part is worked out when first used (`Paths.identity`): asking whether the
    // cache directory can be used (`refusal`) does not need it.
    private let paths: Paths
    /// Readers take at most this many bytes (a real cache is a few KiB); `save` refuses to write
    /// more, so what it writes can always be read back.
    public static let sizeLimit = 1 << 20

    public struct Unstorable: Error, CustomStringConvertible {
        public let description: String
    }

    public init(paths: Paths) {
        self.paths = paths
    }

    /// The cache directory (`Paths.cacheDir`), where `file` is.
    public var directory: String { cacheDir }

    /// What reading the cache found.
    public enum Contents: Sendable {
        case missing
        case loaded(CacheFile)
        /// A file that is not a usable cache (corrupt, another version, a planted FIFO or
        /// symlink, too large): a miss, replaced by the next write. The reason, for `doctor`.
        case unusable(String)
        /// The cache directory is not ours (or not a directory): nothing in it is used, and
        /// renders say so. The reason, whole.
        case refused(String)
    }

    /// Reads the cache; read-only (a render never repairs or replaces anything).
    /// `directoryChecked`: the caller has just asked `refusal` itself (a render of several
    /// accounts asks once for all of them: their caches share one directory).
    public func read(directoryChecked: Bool = false) -> Contents {
        if !directoryChecked, let refusal { return .refused(refusal) }
        do {
            guard let bytes = try FileSystem.readPrivateBytes(file, limit: Self.sizeLimit) else { return .missing }
            guard let cache = CacheFile.decode(bytes: bytes) else {
                return .unusable("\(file) is \(bytes.isEmpty ? "empty" : "corrupt, truncated or of another version")")
            }
            return .loaded(cache)
        } catch {
            return .unusable(error.description)
        }
    }

    /// Why the cache directory cannot be used (another user's, or not a directory), whole; `nil`
    /// when it can. Every account's cache is in it: a render of several asks once.
    public var refusal: String? {
        FileSystem.privateDirectoryProblem(directory).map { "cannot use the cache directory: " + $0 }
    }

    /// `read()` with the fetch state of the fetch lock laid over it when that is newer: what
    /// every process that decides about fetching must see.
    public func load() -> CacheFile? {
        switch read() {
        case .loaded(let loaded): return withMarker(loaded)
        case .refused: return nil
        case .missing, .unusable: return withMarker(nil)
        }
    }

    /// `cache` with the fetch state the fetcher kept in the fetch lock (`FetchStateMarker`) when
    /// it could not write the cache, if that is newer. A render reads only the cache file, and
    /// asks this only when the cache says a fetch is due, so that a cache that cannot be written
    /// does not start a fetcher on every prompt (one that would then find the cooldown and exit).
    public func withMarker(_ cache: CacheFile?) -> CacheFile? {
        guard let marker = FetchStateMarker.read(fetchLockFile),
              let attempt = marker.lastAttempt, attempt > (cache?.fetch.lastAttempt ?? .distantPast) else {
            return cache
        }
        var merged = cache ?? CacheFile(account: account)
        merged.fetch = marker
        return merged
    }

    /// For `doctor`: what is wrong with the cache directory and the lock files beside the cache
    /// (the cache file itself is judged by `read()`). A directory of ours that others may write
    /// to is repaired here, and said so in `repairs`.
    public static func inspect(paths: Paths) -> (problems: [String], repairs: [String]) {
        let dir = paths.cacheDir
        if let problem = FileSystem.privateDirectoryProblem(dir) { return (["cannot use the cache directory: " + problem], []) }
        guard FileSystem.exists(dir) else { return ([], []) }
        var problems: [String] = []
        var repairs: [String] = []
        do {
            if let repaired = try FileSystem.makeDirectory(dir, mode: 0o700) { repairs.append(repaired) }
        } catch {
            problems.append("\(error)")
        }
        for lock in [paths.cacheLockFile, paths.fetchLockFile] {
            if let problem = FileSystem.privateFileProblem(lock) {
                problems.append(problem + " (the next fetch replaces it)")
            }
        }
        return (problems, repairs)
    }

    /// `load()`, or an empty cache for this account.
    public func loadOrEmpty() -> CacheFile {
        load() ?? CacheFile(account: account)
    }

    public func save(_ cache: CacheFile) throws {
        let data = cache.encoded()
        guard !data.isEmpty else { throw Unstorable(description: "cannot encode the cache") }
        guard data.count <= Self.sizeLimit else {
            throw Unstorable(description: "the cache would take \(data.count) bytes, more than the \(Self.sizeLimit) its readers accept")
        }
        try FileSystem.makeDirectory(directory, mode: 0o700)
        // No fsync: a render may write this (new status-line data), and a cache needs atomic
        // replacement, not durability (an empty file after a crash is a miss, refilled).
        try FileSystem.writeAtomically(data, to: file, mode: 0o600, durable: false)
    }

    /// Read-modify-write under the cache's short lock, so the fetcher and the status-line
    /// ingester never lose each other's updates. A changed reading is also recorded in the usage
    /// history (`HistoryStore`), before the cache, so whoever sees the new cache sees its history.
    @discardableResult
    public func update(_ change: (inout CacheFile) -> Bool) throws -> CacheFile {
        try FileSystem.makeDirectory(directory, mode: 0o700)
        let lock = try FileLock(path: lockFile)
        try lock.lock()
        defer { lock.unlock() }
        var cache = loadOrEmpty()
        let before = cache.reading
        if change(&cache) {
            // The history is a convenience: failing to write it never fails the cache write.
            if let reading = cache.reading, reading != before {
                _ = try? HistoryStore(file: historyFile).record(reading)
                // The server's numbers (the status line's are taken in with their session).
                if reading.source == .api || reading.source == .claudeSnapshot {
                    let at = Int64(reading.fetchedAt.timeIntervalSince1970)
                    AttributionRecorder.record(nil, windows: reading.windows, at: at,
                                               fromStatusLine: false, cache: &cache, historyFile: historyFile)
                    // A year of history: the finished days summed up, at most once an hour.
                    let daily = DailyArchive(historyFile: historyFile)
                    if daily.isDue { _ = try? daily.maintain(now: at) }
                }
            }
            try save(cache)
        }
        return cache
    }

    /// Keeps `state` in the fetch lock file: for the fetcher, under the fetch lock, when `update`
    /// failed.
    public func saveMarker(_ state: FetchState, now: Date) throws {
        try FetchStateMarker.write(state, to: fetchLockFile, now: now)
    }

    /// Drops a marker once the cache file holds the state again.
    public func clearMarker() {
        FetchStateMarker.clear(fetchLockFile)
    }

    public func clear() throws {
        try FileSystem.remove(file)
        clearMarker()
    }
}
