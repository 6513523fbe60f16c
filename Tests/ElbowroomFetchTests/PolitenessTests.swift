import Foundation
import Testing
import ElbowroomCore
@testable import ElbowroomFetch
import ElbowroomTestSupport

/// Cooldowns must not depend on the cache being writable: separate `elbowroom-fetch` processes,
/// one after another, as renders start them.
@Suite(.serialized) struct PolitenessTests {
    static func runs(_ count: Int, _ arguments: [String], _ h: FetchHarness) throws -> [BuiltExecutable.Run] {
        let binary = try #require(BuiltExecutable.path("elbowroom-fetch"), "build elbowroom-fetch first")
        return try (0..<count).map { _ in
            try BuiltExecutable.run(binary, arguments: arguments, environment: h.sandbox.environment)
        }
    }

    enum Breakage {
        /// The directory takes no new files (the cache file is replaced by a temp file and a rename).
        case readOnlyDirectory
        /// Something else took the cache file's name.
        case cacheFileIsADirectory
    }

    @Test func aRateLimitIsObeyedWhenTheCacheFileIsADirectory() throws {
        try rateLimitIsObeyed(breakage: .cacheFileIsADirectory)
    }

    @Test(.enabled(if: UnwritableDirectory.isAvailable, "needs a directory that refuses writes (as root: chattr +i)"))
    func aRateLimitIsObeyedWhenTheCacheDirectoryIsReadOnly() throws {
        try rateLimitIsObeyed(breakage: .readOnlyDirectory)
    }

    /// Ten `--urgency now` runs against a 429 make one request.
    func rateLimitIsObeyed(breakage: Breakage) throws {
        let h = try FetchHarness()
        try h.sandbox.writeCredentials(accessToken: Tokens.access, refreshToken: Tokens.refresh, expiresAt: h.valid)
        let paths = h.sandbox.paths
        var undo: (@Sendable () -> Void)?
        defer { undo?() }
        switch breakage {
        case .readOnlyDirectory:
            // A first fetch made the cache and its lock files; then the directory went read-only.
            #expect(try Self.runs(1, ["--urgency", "now"], h)[0].status == 0)
            undo = try UnwritableDirectory.make(paths.cacheDir)
        case .cacheFileIsADirectory:
            try FileManager.default.createDirectory(atPath: paths.cacheFile, withIntermediateDirectories: true)
        }
        let before = h.usageRequests.count
        h.fake.usageReply = .rateLimited(retryAfter: "3600")

        let runs = try Self.runs(10, ["--urgency", "now"], h)
        #expect(h.usageRequests.count == before + 1)
        #expect(runs[0].status == 1)
        #expect(runs[0].stderr.contains("rate limited"))
        #expect(runs.dropFirst().allSatisfy { $0.status == 0 && $0.stderr.contains("skipped: rate limited") },
                "\(runs.map(\.stderr))")
        // What every render reads says so too.
        let cache = try #require(CacheStore(paths: paths).load())
        #expect(cache.fetch.lastOutcome == .rateLimited)
        #expect((cache.fetch.cooldownUntil?.timeIntervalSinceNow ?? 0) > 3500)
    }

    @Test func aSuccessThatCannotBeStoredStillHoldsOffTheNextFetch() throws {
        let h = try FetchHarness()
        try h.sandbox.writeCredentials(accessToken: Tokens.access, refreshToken: Tokens.refresh, expiresAt: h.valid)
        try FileManager.default.createDirectory(atPath: h.sandbox.paths.cacheFile, withIntermediateDirectories: true)
        let runs = try Self.runs(10, ["--urgency", "when-due"], h)
        #expect(h.usageRequests.count == 1)
        #expect(runs[0].status == 1)
        #expect(runs[0].stderr.contains("fetched, but cannot write the cache"))
        let cache = try #require(CacheStore(paths: h.sandbox.paths).load())
        #expect(cache.fetch.message?.contains("cannot write the cache") == true)
        #expect((cache.fetch.cooldownUntil ?? .distantPast) > Date())
    }

    @Test func aResponseOfTwentyThousandWindowsIsCappedAndStaysCached() throws {
        let h = try FetchHarness()
        var body = #"{"five_hour":{"utilization":12.5,"resets_at":"2026-11-22T18:00:00+00:00"}"#
        for i in 0..<20_000 { body += #","w\#(i)":{"utilization":1,"resets_at":null}"# }
        body += "}"
        #expect(body.utf8.count < HTTPLimits.bodyLimit)
        h.fake.usageReply = .json(200, body)
        try h.sandbox.writeCredentials(accessToken: Tokens.access, refreshToken: Tokens.refresh, expiresAt: h.valid)

        let first = try Self.runs(1, ["--urgency", "when-due", "--verbose"], h)[0]
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("kept 64 of them in the cache, dropped 19937"))
        let later = try Self.runs(9, ["--urgency", "when-due"], h)
        #expect(later.allSatisfy { $0.status == 0 })
        #expect(h.usageRequests.count == 1)
        let cache = try #require(CacheStore(paths: h.sandbox.paths).load())
        #expect(cache.reading?.windows.count == ReadingLimits.maxWindows)
        #expect(cache.reading?.windows.first?.key == "five_hour")
    }
}

/// The fetch state kept in the fetch lock file, and how the cache reads it.
@Suite struct FetchStateMarkerTests {
    @Test func aMarkerIsReadBackAndClearedAndAPlainLockIsNoMarker() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let store = CacheStore(paths: sandbox.paths)
        try FileSystem.makeDirectory(sandbox.paths.cacheDir, mode: 0o700)
        _ = try FileLock(path: store.fetchLockFile)
        #expect(FetchStateMarker.read(store.fetchLockFile) == nil)
        #expect(store.load() == nil)

        let now = Date(timeIntervalSince1970: TimeInterval(Int(Date().timeIntervalSince1970)))
        var state = FetchState()
        state.recordFailure(.rateLimited, message: "rate limited", at: now, retryAfter: 600)
        try store.saveMarker(state, now: now)
        #expect(FetchStateMarker.read(store.fetchLockFile) == state)
        #expect(store.load()?.fetch == state)

        // A cache written later wins over the marker.
        var newer = CacheFile(account: store.account)
        newer.fetch.recordSuccess(at: now.addingTimeInterval(1))
        try store.save(newer)
        #expect(store.load() == newer)

        store.clearMarker()
        #expect(FetchStateMarker.read(store.fetchLockFile) == nil)
    }

    @Test func withoutRoomForContentTheMtimeStillCarriesTheCooldown() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let store = CacheStore(paths: sandbox.paths)
        try FileSystem.makeDirectory(sandbox.paths.cacheDir, mode: 0o700)
        _ = try FileLock(path: store.fetchLockFile)
        // What a full disk leaves: no content, only the times.
        let until = Date().addingTimeInterval(900)
        var times = [timespec(tv_sec: time(nil), tv_nsec: 0), timespec(tv_sec: Int(until.timeIntervalSince1970), tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, store.fetchLockFile, &times, 0) == 0)
        let state = try #require(store.load()?.fetch)
        #expect(abs((state.cooldownUntil?.timeIntervalSince1970 ?? 0) - until.timeIntervalSince1970) < 1)
        let decision = RefreshPolicy.decide(cache: store.load(), now: Date(), config: Config(), urgency: .now)
        #expect(!decision.shouldFetch)
    }

    @Test func theCacheIsNeverWrittenLargerThanItsReadersAccept() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let store = CacheStore(paths: sandbox.paths)
        let now = Date()
        let windows = (0..<20_000).map { UsageWindow(key: "w\($0)", used: 1, resetsAt: nil, observedAt: now) }
        let huge = CacheFile(account: store.account, reading: Reading(windows: windows, fetchedAt: now, source: .api))
        #expect(throws: CacheStore.Unstorable.self) { try store.save(huge) }
        #expect(!FileManager.default.fileExists(atPath: store.file))
        let (limited, dropped) = huge.reading!.limitedForCache()
        #expect(dropped == 20_000 - ReadingLimits.maxWindows)
        try store.save(CacheFile(account: store.account, reading: limited))
        #expect(store.load()?.reading?.windows.count == ReadingLimits.maxWindows)
    }
}
