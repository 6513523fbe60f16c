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
        context.locateFetcher = { lookups.increment(); return FetcherProgram(path: "/opt/fake/elbowroom-fetch") }
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

    /// A due fetch starts once the render has printed: the prompt has its text before the fork.
    @Test func aDueFetchStartsAfterTheOutputIsWritten() {
        let s = CLISandbox()
        s.saveCache(used: ["five_hour": 40], age: 6000)
        let printedAtSpawn = Counter()
        let stdout = s.stdout
        s.spawner.onSpawn = { if stdout.text.contains("5h 60%") { printedAtSpawn.increment() } }
        #expect(run(s, ["-a", "bash"], lookups: Counter()) == 0)
        #expect(s.spawner.spawns.count == 1)
        #expect(printedAtSpawn.count == 1, "the fetch started before the output: \(s.stdout.text.debugDescription)")
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

/// The real binary, with the real process environment (read with `getenv`/`environ`, not a
/// dictionary): the fetcher it starts gets the environment without a secret, and is told a
/// token was there.
@Suite struct EndToEndChildEnvironmentTests {
    @Test func theStartedFetcherGetsNoSecretFromTheLiveEnvironment() throws {
        let e = try EndToEnd()
        let dump = e.sandbox.root + "/child-env"
        let fake = e.sandbox.root + "/fake-fetch"
        try "#!/bin/sh\nenv > '\(dump).tmp' && mv '\(dump).tmp' '\(dump)'\n".write(toFile: fake, atomically: true, encoding: .utf8)
        chmod(fake, 0o755)
        e.sandbox.extra["ELBOWROOM_FETCH"] = fake
        e.sandbox.extra["CLAUDE_CODE_OAUTH_TOKEN"] = "sk-ant-oat01-LIVE-SECRET"
        e.sandbox.extra["ANTHROPIC_API_KEY"] = "sk-ant-api-LIVE-SECRET"
        e.sandbox.extra["ELBOWROOM_ENV_TOKEN_PRESENT"] = "0"
        e.sandbox.extra["ELBOWROOM_TEST_PLAIN"] = "a=b=c"
        try e.seedCache(fiveHour: 40, age: 600)
        let run = try e.run(["-a", "plain"])
        #expect(run.status == 0)
        var waited = 0
        while !FileManager.default.fileExists(atPath: dump) && waited < 200 {
            usleep(10_000)
            waited += 1
        }
        let lines = try String(contentsOfFile: dump, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(!lines.contains { $0.contains("LIVE-SECRET") })
        #expect(lines.filter { $0.hasPrefix("ELBOWROOM_ENV_TOKEN_PRESENT=") } == ["ELBOWROOM_ENV_TOKEN_PRESENT=1"])
        #expect(lines.contains("ELBOWROOM_TEST_PLAIN=a=b=c"))
        #expect(lines.contains("HOME=" + (e.sandbox.environment["HOME"] ?? "?")))
    }
}
