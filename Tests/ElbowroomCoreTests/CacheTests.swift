import Foundation
import Testing
@testable import ElbowroomCore

@Suite struct CacheTests {
    let now = Date(timeIntervalSince1970: 1_795_356_000)

    func sandbox() -> (TempDirectory, CacheStore) {
        let dir = TempDirectory()
        let env = ElbowroomEnvironment(["HOME": dir.path, "XDG_CACHE_HOME": dir.path + "/cache"])
        return (dir, CacheStore(paths: Paths(environment: env)))
    }

    func reading(_ pairs: [(String, Double)], at date: Date, source: ReadingSource = .api) -> Reading {
        Reading(windows: pairs.map { UsageWindow(key: $0.0, used: $0.1, resetsAt: date.addingTimeInterval(3600), observedAt: date) },
                fetchedAt: date, source: source)
    }

    /// The paths a store makes on use are the ones `Paths` names, for every kind of account, and
    /// its history's digest is the one `HistoryStore(file:)` derives from the history's path.
    @Test func aStoresPathsAreThePathsOfItsAccount() {
        let dir = TempDirectory()
        for extra in [[:], ["ELBOWROOM_PROVIDER": "codex"], ["ELBOWROOM_PROVIDER": "plug", "ELBOWROOM_ACCOUNT": "w"],
                      ["XDG_CACHE_HOME": dir.path + "/cache/"]] {
            var values = ["HOME": dir.path, "XDG_CACHE_HOME": dir.path + "/cache"]
            values.merge(extra) { $1 }
            let paths = Paths(environment: ElbowroomEnvironment(values))
            let store = CacheStore(paths: paths)
            #expect(store.file == paths.cacheFile)
            #expect(store.lockFile == paths.cacheLockFile)
            #expect(store.fetchLockFile == paths.fetchLockFile)
            #expect(store.historyFile == paths.historyFile)
            #expect(store.account == paths.accountSource)
            let history = HistoryStore(paths: paths)
            #expect(history.file == paths.historyFile)
            #expect(history.digestFile == String(paths.historyFile.dropLast(".history".count)) + ".digest")
        }
        #expect(HistoryStore(file: "/x/usage-1.json").digestFile == "/x/usage-1.json.digest")
    }

    /// `FileSystem.readBytes(directory:file:)` and `size(directory:file:)` (the path as bytes) read
    /// what `read(_:)` and `size(of:)` of the joined path do, with or without a final slash.
    @Test func readingByDirectoryAndNameIsReadingThePath() throws {
        let dir = TempDirectory()
        try Data("hello\n".utf8).write(to: URL(fileURLWithPath: dir.path + "/a.tmpl"))
        for directory in [dir.path, dir.path + "/"] {
            var missing = true
            #expect(FileSystem.readBytes(directory: directory, file: "a.tmpl") == FileSystem.readBytes(dir.path + "/a.tmpl", missing: &missing))
            #expect(!missing)
            #expect(FileSystem.readBytes(directory: directory, file: "a.tmpl") == Array("hello\n".utf8))
            #expect(FileSystem.size(directory: directory, file: "a.tmpl") == 6)
            #expect(FileSystem.readBytes(directory: directory, file: "a.tmpl", limit: 5) == nil)
            #expect(FileSystem.readBytes(directory: directory, file: "missing.tmpl") == nil)
            #expect(FileSystem.size(directory: directory, file: "missing.tmpl") == nil)
            #expect(FileSystem.readBytes(directory: directory, file: "") == nil)  // the directory itself
        }
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

    @Test(arguments: [#""fetchedAt":1e300"#, #""fetchedAt":-1e300"#])
    func absurdDatesAreAMiss(fetchedAt: String) throws {
        let (_, store) = sandbox()
        try FileSystem.makeDirectory(FileSystem.directory(of: store.file), mode: 0o700)
        let text = #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"reading":{"windows":[],"source":"api","#
            + fetchedAt + "}}"
        try text.write(toFile: store.file, atomically: true, encoding: .utf8)
        #expect(store.load() == nil)
        // The same file with a sane date loads (so the check above is about the date).
        try text.replacingOccurrences(of: fetchedAt, with: #""fetchedAt":1795356000"#)
            .write(toFile: store.file, atomically: true, encoding: .utf8)
        #expect(store.load() != nil)
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

    func window(_ used: Double, resetIn: TimeInterval, observed: Date) -> UsageWindow {
        UsageWindow(key: "five_hour", used: used, resetsAt: now.addingTimeInterval(resetIn), observedAt: observed)
    }

    @Test func statusLineIngestOnlyMovesForward() {
        let later = now.addingTimeInterval(60)
        func ingest(_ w: UsageWindow) -> Double? {
            var cache = CacheFile(account: "a", reading: Reading(windows: [window(40, resetIn: 3600, observed: now)], fetchedAt: now, source: .api))
            _ = cache.ingest(Reading(windows: [w], fetchedAt: w.observedAt, source: .statusLine))
            return cache.reading?.window(key: "five_hour")?.used
        }
        #expect(ingest(window(45, resetIn: 3600, observed: later)) == 45, "same window, more used")
        #expect(ingest(window(35, resetIn: 3600, observed: later)) == 40, "same window, less used: a replay")
        #expect(ingest(window(35, resetIn: 3630, observed: later)) == 40, "reset within a minute is the same window")
        #expect(ingest(window(5, resetIn: 3600 + 5 * 3600, observed: later)) == 5, "a later window starts low")
        #expect(ingest(window(90, resetIn: -10, observed: later)) == 40, "a window already reset is a replay")
        #expect(ingest(window(90, resetIn: 600, observed: later)) == 40, "an earlier window is a replay")
        #expect(ingest(window(50, resetIn: 3600, observed: now.addingTimeInterval(-5))) == 40, "older observation")
    }

    @Test func aReplayDoesNotMakeTheDataLookFresh() {
        var cache = CacheFile(account: "a", reading: Reading(windows: [window(40, resetIn: 3600, observed: now)], fetchedAt: now, source: .api))
        let changed = cache.ingest(Reading(windows: [window(30, resetIn: 3600, observed: now.addingTimeInterval(600))],
                                           fetchedAt: now.addingTimeInterval(600), source: .statusLine))
        #expect(!changed)
        #expect(cache.reading?.fetchedAt == now)
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
