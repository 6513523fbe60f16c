#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// Reads and writes one account's cache file. Writes are atomic (temp file, fsync, rename in the
/// same directory); the directory is 0700 and the file 0600. A missing, corrupt or
/// other-version file reads as `nil`.
public struct CacheStore: Sendable {
    public let file: String
    public let lockFile: String
    public let account: String
    public let historyFile: String

    public init(paths: Paths) {
        self.file = paths.cacheFile
        self.historyFile = paths.historyFile
        self.lockFile = paths.cacheLockFile
        self.account = paths.accountSource
    }

    public func load() -> CacheFile? {
        guard let data = FileSystem.read(file, limit: 1 << 20) else { return nil }
        return CacheFile.decode(data)
    }

    /// `load()`, or an empty cache for this account.
    public func loadOrEmpty() -> CacheFile {
        load() ?? CacheFile(account: account)
    }

    public func save(_ cache: CacheFile) throws {
        try FileSystem.makeDirectory(FileSystem.directory(of: file), mode: 0o700)
        try FileSystem.writeAtomically(cache.encoded(), to: file, mode: 0o600)
    }

    /// Read-modify-write under the cache's short lock, so the fetcher and the status-line
    /// ingester never lose each other's updates. A changed reading is also recorded in the usage
    /// history (`HistoryStore`), before the cache, so whoever sees the new cache sees its history.
    @discardableResult
    public func update(_ change: (inout CacheFile) -> Bool) throws -> CacheFile {
        try FileSystem.makeDirectory(FileSystem.directory(of: file), mode: 0o700)
        let lock = try FileLock(path: lockFile)
        try lock.lock()
        defer { lock.unlock() }
        var cache = loadOrEmpty()
        let before = cache.reading
        if change(&cache) {
            // The history is a convenience: failing to write it never fails the cache write.
            if let reading = cache.reading, reading != before { _ = try? HistoryStore(file: historyFile).record(reading) }
            try save(cache)
        }
        return cache
    }

    public func clear() throws {
        try FileSystem.remove(file)
    }
}
