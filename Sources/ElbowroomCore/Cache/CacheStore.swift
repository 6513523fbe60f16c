#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// Reads and writes one account's cache file. Writes are atomic (temp file, fsync, rename in the
/// same directory); the directory is 0700 and the file 0600. A missing, corrupt or
/// other-version file reads as `nil`. A fetch state the fetcher had to keep in the fetch lock
/// file (`FetchStateMarker`) is laid over what the file holds when it is newer.
public struct CacheStore: Sendable {
    public let file: String
    public let lockFile: String
    /// The account's fetch lock, which also holds a `FetchStateMarker` when the cache file could
    /// not be written.
    public let fetchLockFile: String
    public let account: String

    /// Readers take at most this many bytes; `save` refuses to write more, so what it writes can
    /// always be read back.
    public static let readLimit = 1 << 20

    public struct Unstorable: Error, CustomStringConvertible {
        public let description: String
    }

    public init(paths: Paths) {
        self.file = paths.cacheFile
        self.lockFile = paths.cacheLockFile
        self.fetchLockFile = paths.fetchLockFile
        self.account = paths.accountSource
    }

    public func load() -> CacheFile? {
        let cache = FileSystem.read(file, limit: Self.readLimit).flatMap(CacheFile.decode)
        guard let marker = FetchStateMarker.read(fetchLockFile),
              let attempt = marker.lastAttempt, attempt > (cache?.fetch.lastAttempt ?? .distantPast) else {
            return cache
        }
        var merged = cache ?? CacheFile(account: account)
        merged.fetch = marker
        return merged
    }

    /// `load()`, or an empty cache for this account.
    public func loadOrEmpty() -> CacheFile {
        load() ?? CacheFile(account: account)
    }

    public func save(_ cache: CacheFile) throws {
        let data = cache.encoded()
        guard !data.isEmpty else { throw Unstorable(description: "cannot encode the cache") }
        guard data.count <= Self.readLimit else {
            throw Unstorable(description: "the cache would take \(data.count) bytes, more than the \(Self.readLimit) its readers accept")
        }
        try FileSystem.makeDirectory(FileSystem.directory(of: file), mode: 0o700)
        try FileSystem.writeAtomically(data, to: file, mode: 0o600)
    }

    /// Read-modify-write under the cache's short lock, so the fetcher and the status-line
    /// ingester never lose each other's updates.
    @discardableResult
    public func update(_ change: (inout CacheFile) -> Bool) throws -> CacheFile {
        try FileSystem.makeDirectory(FileSystem.directory(of: file), mode: 0o700)
        let lock = try FileLock(path: lockFile)
        try lock.lock()
        defer { lock.unlock() }
        var cache = loadOrEmpty()
        if change(&cache) { try save(cache) }
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
