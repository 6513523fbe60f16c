#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// The on-disk cache of one account: the last good reading and the fetch state.
/// Versioned; a file of another version, or one that does not decode, is a cache miss.
public struct CacheFile: Codable, Sendable, Equatable {
    public static let currentVersion = 1

    public var version: Int
    /// The credentials source this cache belongs to (a path or a Keychain service, never a token).
    public var account: String
    public var reading: Reading?
    public var fetch: FetchState

    public init(account: String, reading: Reading? = nil, fetch: FetchState = FetchState()) {
        self.version = Self.currentVersion
        self.account = account
        self.reading = reading
        self.fetch = fetch
    }

    public static func decode(_ data: Data) -> CacheFile? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        guard let file = try? decoder.decode(CacheFile.self, from: data),
              file.version == currentVersion else { return nil }
        return file
    }

    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        // Encoding plain value types cannot fail.
        return (try? encoder.encode(self)) ?? Data()
    }

    /// Takes in a status-line reading when it is newer than what the cache holds for those
    /// windows; windows it lacks (per-model limits) are kept. Returns whether anything changed.
    public mutating func ingest(_ newer: Reading) -> Bool {
        guard let current = reading else {
            reading = newer
            return true
        }
        let changed = newer.windows.contains { window in
            guard let old = current.window(key: window.key) else { return true }
            return window.observedAt > old.observedAt
                && (window.used != old.used || window.resetsAt != old.resetsAt
                    || window.observedAt.timeIntervalSince(old.observedAt) >= 10)
        }
        guard changed else { return false }
        let fresher = Reading(
            windows: newer.windows.filter { w in
                current.window(key: w.key).map { w.observedAt > $0.observedAt } ?? true
            },
            extra: nil, plan: nil, fetchedAt: newer.fetchedAt, source: newer.source)
        reading = current.merging(fresher)
        return true
    }
}
