import Foundation
import Testing
import ElbowroomCore
@testable import ElbowroomCLI

/// What a render must not do, because it runs on every prompt: look for the fetcher when no
/// fetch starts, or touch the cache when nothing changed.
@Suite struct RenderPathCostTests {
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func increment() { lock.withLock { value += 1 } }
        var count: Int { lock.withLock { value } }
    }

    func run(_ s: CLISandbox, _ arguments: [String], lookups: Counter) -> Int32 {
        var context = s.context
        context.locateFetcher = { lookups.increment(); return "/opt/fake/elbowroom-fetch" }
        return ElbowroomMain.run(arguments, context: context)
    }

    @Test func theFetcherIsLookedForOnlyWhenAFetchStarts() {
        let s = CLISandbox()
        let lookups = Counter()
        s.saveCache(used: ["five_hour": 40], age: 6000)
        #expect(run(s, ["--offline", "-a", "bash"], lookups: lookups) == 0)
        #expect(lookups.count == 0, "--offline: no fetch, no search")
        s.saveCache(used: ["five_hour": 40], age: 30)
        #expect(run(s, ["-a", "bash"], lookups: lookups) == 0)
        #expect(lookups.count == 0, "nothing due: no search")
        s.saveCache(used: ["five_hour": 40], age: 6000)
        #expect(run(s, ["-a", "bash"], lookups: lookups) == 0)
        #expect(lookups.count == 1 && s.spawner.spawns.count == 1)
    }

    /// The same status-line numbers again (every Claude Code status-line render between API
    /// fetches) leave the cache file as it is: same inode, same modification time.
    @Test func aStatusLineRenderWithUnchangedDataWritesNothing() throws {
        let s = CLISandbox()
        let reset = Int(s.clock.now.timeIntervalSince1970) + 7200
        s.stdin = Data(#"{"rate_limits":{"five_hour":{"used_percentage":37,"resets_at":\#(reset)}}}"#.utf8)
        let lookups = Counter()
        #expect(run(s, ["-a", "claude", "--offline"], lookups: lookups) == 0)
        let file = s.paths.cacheFile
        let first = try FileManager.default.attributesOfItem(atPath: file)
        s.clock.advance(by: 5)
        usleep(20_000)  // a write now would get a later mtime
        #expect(run(s, ["-a", "claude", "--offline"], lookups: lookups) == 0)
        let second = try FileManager.default.attributesOfItem(atPath: file)
        #expect(first[.systemFileNumber] as? Int == second[.systemFileNumber] as? Int, "the cache was replaced")
        #expect(first[.modificationDate] as? Date == second[.modificationDate] as? Date, "the cache was written")
        #expect(s.stdout.text.contains("5h 63%"))
    }
}
