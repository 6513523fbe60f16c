import Foundation
import ElbowroomCore
import ElbowroomTestSupport
import Testing

/// `kill -9` of the built `elbowroom-fetch` at random moments — before the lock, mid-refresh,
/// mid-request, mid-write of the credentials or the cache: after every kill both files parse
/// (or the cache is absent), and a lock whose holder died never blocks the next fetch.
@Suite struct EndToEndKillTests {
    /// SplitMix64: a seeded generator, so a failing run can be replayed.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func killingTheFetcherAtRandomMomentsNeverLeavesABrokenFileOrAStuckLock() throws {
        let e = try EndToEnd()
        // Every run refreshes: the stored token is expired and each grant lives one second.
        // (The refresh token is not rotated here: a kill between the server's rotation and our
        // write would lose it, which no client can prevent — only the file's integrity is ours.)
        e.anthropic.configure {
            $0.rotateRefreshToken = false
            $0.expiresIn = 1
        }
        try e.sandbox.writeCredentials(accessToken: "sk-ant-oat01-expired-0123456789", refreshToken: e.anthropic.validRefreshToken,
                                       expiresAt: Date().addingTimeInterval(-3600))
        try e.sandbox.writeConfig("timeout = 3\nrefresh = \"always\"\n")
        // Slowed endpoints, so kills land mid-request as well as mid-write.
        let anthropic = e.anthropic
        e.server.setHandler { request in
            usleep(request.path.hasPrefix(FakeAnthropic.tokenPath) ? 15_000 : 10_000)
            return anthropic.handle(request)
        }
        let seed = UInt64(ProcessInfo.processInfo.environment["ELBOWROOM_KILL_SEED"] ?? "") ?? 20_261_122
        var random = SeededGenerator(state: seed)
        let paths = e.sandbox.paths
        var killedRunning = 0
        let started = Date()

        // 120 rounds, and more (up to 360) until 30 kills have landed while the fetcher ran: how
        // many do depends on how fast this machine runs a fetch against the delays below.
        for round in 0..<360 {
            if round >= 120 && killedRunning >= 30 { break }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: e.fetcher)
            process.arguments = ["--urgency", "force"]
            process.environment = e.sandbox.environment
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32.random(in: 0...120_000, using: &random))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal { killedRunning += 1 }

            let context = "round \(round), seed \(seed)"
            let credentials = try #require(e.sandbox.credentialsData(), "\(context): credentials gone")
            guard case .oauth? = try? CredentialsParser.parse(credentials) else {
                Issue.record("\(context): credentials do not parse: \(String(decoding: credentials, as: UTF8.self))")
                return
            }
            let document = e.sandbox.credentialsObject()
            #expect(document?["mcpOAuth"] != nil && document?["someUnknownTopLevelKey"] as? String == "keep me", "\(context)")
            if let cache = try FileSystem.readPrivate(paths.cacheFile, limit: CacheStore.sizeLimit) {
                #expect(CacheFile.decode(cache) != nil, "\(context): cache does not parse: \(String(decoding: cache, as: UTF8.self))")
            }
        }
        // (Kills before the process got going count too: they test the detached start.)
        #expect(killedRunning >= 30, "kills should land while the fetcher runs (\(killedRunning))")
        #expect(e.server.requests(path: FakeAnthropic.tokenPath).count > 0, "no kill came mid-refresh")

        // The dead left their attempts on record: a render's fetch backs off instead of asking again.
        // (Counted once the server is done with what the last of them sent: a request a fetcher
        // sent just before its kill is still being served, each held 10–15 ms above. A fast
        // fetcher, as a release build is, has one out more often.)
        var requests = e.usageRequests
        while true {
            usleep(100_000)
            let settled = e.usageRequests
            if settled == requests { break }
            requests = settled
        }
        let due = try BuiltExecutable.run(e.fetcher, arguments: ["--urgency", "when-due"], environment: e.sandbox.environment)
        #expect(due.status == 0 && e.usageRequests == requests)
        // A kill mid-refresh may leave Claude Code's refresh locks behind: they expire by its own
        // rule (a minute untouched), never blocking it longer. Aged past that here, so the test
        // need not wait the minute:
        let storage = ClaudeCodeStorage(environment: e.sandbox.elbowroomEnvironment)
        let longAgo = Int(Date().timeIntervalSince1970) - Int(ClaudeCodeStorage.refreshLockStaleAfter) - 1
        for lock in [storage.refreshLock, storage.legacyLock()] where FileSystem.exists(lock) {
            var times = [timespec(tv_sec: longAgo, tv_nsec: 0), timespec(tv_sec: longAgo, tv_nsec: 0)]
            _ = utimensat(AT_FDCWD, lock, &times, 0)
        }
        // A forced run then recovers at once: no lock held by the dead, a fresh reading in the cache.
        let finalStart = Date()
        let final = try BuiltExecutable.run(e.fetcher, arguments: ["--urgency", "force"], environment: e.sandbox.environment)
        #expect(final.status == 0, "\(final.stderr)")
        #expect(Date().timeIntervalSince(finalStart) < 5, "a lock left by the dead would make this wait")
        #expect(e.usageRequests == requests + 1)
        let cache = try #require(CacheStore(paths: paths).load())
        #expect(cache.fetch.lastOutcome == .ok)
        #expect(cache.reading?.window(key: "five_hour")?.used == 63)
        #expect(!FileLock.isHeld(paths.fetchLockFile))
        // A lock the dead left behind may still be there (the last run needed no refresh), but
        // never one that looks held: each is stale, and the next refresh takes it over.
        #expect(storage.lockHolders(now: Date()).allSatisfy { $0.contains("stale") }, "\(storage.lockHolders(now: Date()))")
        #expect(Date().timeIntervalSince(started) < 60)
    }
}
