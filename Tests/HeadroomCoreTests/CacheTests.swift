import Foundation
import Testing
@testable import HeadroomCore

@Suite struct CacheTests {
    let now = Date(timeIntervalSince1970: 1_795_356_000)

    func sandbox() -> (TempDirectory, CacheStore) {
        let dir = TempDirectory()
        let env = HeadroomEnvironment(["HOME": dir.path, "XDG_CACHE_HOME": dir.path + "/cache"])
        return (dir, CacheStore(paths: Paths(environment: env)))
    }

    func reading(_ pairs: [(String, Double)], at date: Date, source: ReadingSource = .api) -> Reading {
        Reading(windows: pairs.map { UsageWindow(key: $0.0, used: $0.1, resetsAt: date.addingTimeInterval(3600), observedAt: date) },
                fetchedAt: date, source: source)
    }

    @Test func roundTripsWithModesAndNoTempFilesLeft() throws {
        let (_, store) = sandbox()
        var cache = CacheFile(account: store.account, reading: reading([("five_hour", 37.5)], at: now))
        cache.fetch.recordSuccess(at: now)
        try store.save(cache)
        #expect(store.load() == cache)
        #expect(FileSystem.mode(of: store.file) == 0o600)
        #expect(FileSystem.mode(of: FileSystem.directory(of: store.file)) == 0o700)
        #expect(FileSystem.entries(of: FileSystem.directory(of: store.file)) == [store.file.split(separator: "/").last.map(String.init)!])
    }

    @Test(arguments: ["", "{", "[]", #"{"version":2,"account":"a","fetch":{"consecutiveFailures":0}}"#, "\u{0}\u{1}binary"])
    func corruptOrOtherVersionIsAMiss(contents: String) throws {
        let (_, store) = sandbox()
        try FileSystem.makeDirectory(FileSystem.directory(of: store.file), mode: 0o700)
        try contents.write(toFile: store.file, atomically: true, encoding: .utf8)
        #expect(store.load() == nil)
        #expect(store.loadOrEmpty().reading == nil)
    }

    @Test func statusLineIngestKeepsWindowsItDidNotGet() {
        var cache = CacheFile(account: "a", reading: reading([("five_hour", 10), ("seven_day", 20), ("seven_day_opus", 30)], at: now))
        let newer = reading([("five_hour", 15), ("seven_day", 21)], at: now.addingTimeInterval(60), source: .statusLine)
        let changed = cache.ingest(newer)
        #expect(changed)
        #expect(cache.reading?.window(key: "five_hour")?.used == 15)
        #expect(cache.reading?.window(key: "seven_day_opus")?.used == 30)
        #expect(cache.reading?.fetchedAt == now.addingTimeInterval(60))
    }

    @Test func olderStatusLineDataIsIgnored() {
        var cache = CacheFile(account: "a", reading: reading([("five_hour", 10)], at: now))
        let changed = cache.ingest(reading([("five_hour", 99)], at: now.addingTimeInterval(-60), source: .statusLine))
        #expect(!changed)
        #expect(cache.reading?.window(key: "five_hour")?.used == 10)
    }

    @Test func updateIsReadModifyWriteUnderTheLock() throws {
        let (_, store) = sandbox()
        try store.update { $0.fetch.consecutiveFailures += 1; return true }
        try store.update { $0.fetch.consecutiveFailures += 1; return true }
        #expect(store.load()?.fetch.consecutiveFailures == 2)
        try store.update { _ in false }
        #expect(store.load()?.fetch.consecutiveFailures == 2)
    }

    @Test func concurrentUpdatesLoseNothing() async throws {
        let (_, store) = sandbox()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask { _ = try? store.update { $0.fetch.consecutiveFailures += 1; return true } }
            }
        }
        #expect(store.load()?.fetch.consecutiveFailures == 20)
    }
}
