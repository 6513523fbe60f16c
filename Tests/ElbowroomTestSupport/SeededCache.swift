import Foundation
import ElbowroomCore

/// A cache a test plants before it runs the program: what a successful API fetch would have
/// written (`CacheStore.save`, whole, renamed into place), for the account `paths` name.
public enum SeededCache {
    /// One window of it: its key, percent used, and when it resets.
    public typealias Window = (key: String, used: Double, resetsAt: Date)

    /// Saves `windows`, observed and fetched at `observed`, as a success.
    public static func save(_ windows: [Window], observed: Date, paths: Paths) throws {
        var cache = CacheFile(account: paths.accountSource, reading: Reading(
            windows: windows.map { UsageWindow(key: $0.key, used: $0.used, resetsAt: $0.resetsAt, observedAt: observed) },
            fetchedAt: observed, source: .api))
        cache.fetch.recordSuccess(at: observed)
        try CacheStore(paths: paths).save(cache)
    }

    /// Saves `windows` (key, percent used), each resetting `resetIn` seconds from now, observed
    /// `age` seconds ago.
    public static func save(_ windows: [(String, Double)], age: TimeInterval = 0, resetIn: TimeInterval = 3600,
                            paths: Paths) throws {
        let now = Date()
        try save(windows.map { ($0.0, $0.1, now.addingTimeInterval(resetIn)) }, observed: now.addingTimeInterval(-age), paths: paths)
    }
}
