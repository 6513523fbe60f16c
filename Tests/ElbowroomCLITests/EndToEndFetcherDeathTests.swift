import Foundation
import ElbowroomCore
import ElbowroomTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A fetcher that dies mid-request — a crash inside a library, `kill -9`, an out-of-memory kill —
/// must leave the attempt on record, or every render starts another fetch, and must leave no
/// core file with the tokens behind.
@Suite(.serialized) struct EndToEndFetcherDeathTests {
    @Test func aFetcherKilledMidRequestLeavesItsAttemptAndBackoffOnRecord() throws {
        let e = try EndToEnd(usage: .hang)
        try e.seedCache(fiveHour: 20, age: 1000)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: e.fetcher)
        process.arguments = ["--urgency", "now"]
        process.environment = e.sandbox.environment
        process.currentDirectoryURL = URL(fileURLWithPath: e.sandbox.root)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        #expect(Eventually.within(10) { e.usageRequests == 1 }, "the fetcher never asked")

        #if os(Linux)
        // No core file can be written, and it works from `/`, not the prompt's directory.
        let limits = (try? String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)) ?? ""
        let core = limits.split(separator: "\n").first { $0.hasPrefix("Max core file size") }
        #expect(core.map { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst(4).prefix(2) == ["0", "0"] } == true,
                "\(core.map(String.init) ?? "no limits")")
        let cwd = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd")) ?? "?"
        #expect(cwd == "/")
        #endif

        kill(pid, SIGKILL)
        process.waitUntilExit()

        let cache = try #require(CacheStore(paths: e.sandbox.paths).load())
        #expect(cache.fetch.lastOutcome == .interrupted)
        #expect(cache.fetch.activeCooldown(now: Date()) != nil)
        // A render neither shows the attempt as a failure while it may still run, nor starts a
        // second fetch during the backoff.
        #expect(DisplayStatus.of(cache: cache, now: Date(), staleAfter: 900) == .stale)
        #expect(DisplayStatus.of(cache: cache, now: Date().addingTimeInterval(FetchState.inFlightGrace + 1), staleAfter: 900) == .offline)
        let render = try e.run(["-a", "plain", "-t", "{5h.left}%"])
        #expect(render.status == 0)
        #expect(render.stdout == "80%\n")
        Thread.sleep(forTimeInterval: 1)
        #expect(e.usageRequests == 1, "a render started another fetch during the backoff")
        #expect(!FileManager.default.fileExists(atPath: e.sandbox.root + "/core"))
    }
}
