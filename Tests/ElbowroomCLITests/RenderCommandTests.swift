import Foundation
import Testing
import ElbowroomCore
@testable import ElbowroomCLI

@Suite struct RenderCommandTests {
    @Test func freshCacheRendersWithoutStartingAFetch() {
        let s = CLISandbox()
        s.saveCache(used: ["five_hour": 40, "seven_day": 10], age: 30)
        #expect(s.run("-a", "plain") == 0)
        #expect(s.stdout.text.contains("5h"))
        #expect(s.spawner.spawns.isEmpty)
    }

    @Test func dueCacheStartsTheFetcherDetachedWithoutSecretsAndDoesNotWait() {
        let s = CLISandbox()
        s.extraEnvironment["CLAUDE_CODE_OAUTH_TOKEN"] = "sk-ant-oat01-SECRET"
        s.saveCache(used: ["five_hour": 40], age: 600)
        let before = s.clock.now
        #expect(s.run() == 0)
        #expect(s.spawner.spawns.count == 1)
        let spawn = s.spawner.spawns[0]
        #expect(spawn.path == "/opt/fake/elbowroom-fetch")
        #expect(spawn.arguments == ["--urgency", "when-due", "--max-age", "180"])
        #expect(spawn.environment["CLAUDE_CODE_OAUTH_TOKEN"] == nil)
        #expect(spawn.environment["ELBOWROOM_ENV_TOKEN_PRESENT"] == "1")
        #expect(!spawn.environment.values.contains { $0.contains("SECRET") })
        #expect(s.clock.now == before, "a render with data never waits")
        #expect(!s.stdout.text.isEmpty)
    }

    @Test func aCooldownTheFetcherCouldOnlyKeepInItsLockStopsTheNextRendersFetch() throws {
        // The fetcher could not write the cache (full disk, a read-only cache file): its attempt
        // and cooldown are in the fetch lock. A render must see them, not start a fetcher on every
        // prompt that finds the cooldown and exits.
        let s = CLISandbox()
        s.saveCache(used: ["five_hour": 40], age: 600)
        var state = try #require(s.store.load()).fetch
        state.recordFailure(.rateLimited, message: "rate limited", at: s.clock.now.addingTimeInterval(-5), retryAfter: 600)
        _ = try FileLock(path: s.store.fetchLockFile)
        try s.store.saveMarker(state, now: s.clock.now)
        #expect(s.run("-a", "plain") == 0)
        #expect(s.spawner.spawns.isEmpty)
        // With no marker the same cache is due.
        s.store.clearMarker()
        #expect(s.run("-a", "plain") == 0)
        #expect(s.spawner.spawns.count == 1)
    }

    @Test func offlineNeverStartsAFetch() {
        let s = CLISandbox()
        s.saveCache(used: ["five_hour": 40], age: 6000)
        #expect(s.run("--offline") == 0)
        #expect(s.spawner.spawns.isEmpty)
    }

    @Test func waitingStopsWhenTheFetcherSkippedWithoutAnAttempt() {
        let s = CLISandbox()
        s.saveCache(used: ["five_hour": 40], age: 600)
        let start = s.clock.now
        #expect(s.run("--wait") == 0)
        #expect(s.spawner.spawns.count == 1)
        let waited = s.clock.now.timeIntervalSince(start)
        #expect(waited >= 1 && waited < 1.2, "no lock holder and no attempt: stop waiting after the grace second")
    }

    @Test func maxAgeFlagOverridesConfig() {
        let s = CLISandbox()
        s.writeConfig("max_age = 3600\n")
        s.saveCache(used: ["five_hour": 40], age: 600)
        s.run()
        #expect(s.spawner.spawns.isEmpty)
        s.run("--max-age", "60")
        #expect(s.spawner.spawns.count == 1)
        #expect(s.spawner.spawns[0].arguments.suffix(2) == ["--max-age", "60"], "the fetcher agrees on what is due")
    }

    @Test func firstRunWaitsBoundedForData() throws {
        let s = CLISandbox()
        // The fetcher is running (holds the lock) but never finishes.
        try FileSystem.makeDirectory(s.paths.cacheDir, mode: 0o700)
        let lock = try FileLock(path: s.paths.fetchLockFile)
        s.spawner.onSpawn = { _ = lock.tryLock() }
        let start = s.clock.now
        #expect(s.run() == 0)
        #expect(s.spawner.spawns.count == 1)
        let waited = s.clock.now.timeIntervalSince(start)
        #expect(waited >= FetchTrigger.firstRunWait && waited < FetchTrigger.firstRunWait + 0.2)
    }

    @Test func firstRunPicksUpDataTheFetcherWrites() {
        let s = CLISandbox()
        let store = s.store
        let clock = s.clock
        s.spawner.onSpawn = {
            var cache = CacheFile(account: store.account, reading: Reading(
                windows: [UsageWindow(key: "five_hour", used: 12, resetsAt: clock.now.addingTimeInterval(600), observedAt: clock.now)],
                fetchedAt: clock.now, source: .api))
            cache.fetch.recordSuccess(at: clock.now)
            try! store.save(cache)
        }
        let start = s.clock.now
        #expect(s.run() == 0)
        #expect(s.clock.now.timeIntervalSince(start) < 0.2)
        #expect(s.store.load()?.reading != nil)
    }

    @Test func aFetchInFlightIsNotStartedTwice() throws {
        let s = CLISandbox()
        s.saveCache(used: ["five_hour": 40], age: 600)
        let lock = try FileLock(path: s.paths.fetchLockFile)
        #expect(lock.tryLock())
        s.run()
        #expect(s.spawner.spawns.isEmpty)
        lock.unlock()
        s.run()
        #expect(s.spawner.spawns.count == 1)
    }

    @Test func demoNeedsNoCredentialsOrNetwork() {
        let s = CLISandbox()
        #expect(s.run("--demo") == 0)
        #expect(s.spawner.spawns.isEmpty)
        #expect(s.stdout.text.contains("5h"))
        #expect(!FileSystem.exists(s.store.file))
    }

    @Test func brokenConfigIsExit2WithFileLineAndColumn() {
        let s = CLISandbox()
        s.writeConfig("max_age = \"soon\"\n")
        #expect(s.run() == 2)
        #expect(s.stderr.text == "elbowroom: \(s.paths.configFile):1:11: error: 'max_age' must be a number, not a string\n")
    }

    @Test func unknownAdapterSuggests() {
        let s = CLISandbox()
        #expect(s.run("-a", "plian") == 2)
        #expect(s.stderr.text.contains("unknown adapter 'plian' (did you mean 'plain'?)"))
    }

    /// `-a starship`: starship reads another adapter's output; say which, and the snippet.
    @Test func starshipIsPointedAtItsSnippet() {
        let s = CLISandbox()
        #expect(s.run("-a", "starship") == 2)
        #expect(s.stderr.text == "elbowroom: unknown adapter 'starship': starship runs elbowroom in a custom module, as -a plain (or -a ansi); 'elbowroom init starship' prints it; 'elbowroom adapters' lists them\n")
        #expect(try! #require(IntegrationSnippets.snippet(named: "starship")).contains("elbowroom -a plain"))
        let hook = CLISandbox()
        #expect(hook.run("-a", "claude-hook") == 2)
        #expect(hook.stderr.text.contains("that is a snippet, not an adapter; 'elbowroom init claude-hook' prints it"))
    }
}

@Suite struct ClaudeStatusLineTests {
    static let stdin = #"""
    {"model":{"display_name":"Opus"},"rate_limits":{"five_hour":{"used_percentage":37,"resets_at":1795370400},"seven_day":{"used_percentage":12,"resets_at":1795800000}}}
    """#

    @Test func ingestsRateLimitsKeepingOtherWindows() throws {
        let s = CLISandbox()
        s.saveCache(used: ["five_hour": 90, "seven_day_opus": 55], age: 120)
        s.stdin = Data(Self.stdin.utf8)
        s.run("-a", "claude")
        let reading = try #require(s.store.load()?.reading)
        #expect(reading.window(key: "five_hour")?.used == 37)
        #expect(reading.window(key: "seven_day")?.used == 12)
        #expect(reading.window(key: "seven_day_opus")?.used == 55)
        #expect(reading.fetchedAt == s.clock.now)
        #expect(s.spawner.spawns.isEmpty, "fresh status-line data means no request")
    }

    @Test func garbageStdinChangesNothing() {
        let s = CLISandbox()
        s.saveCache(used: ["five_hour": 90], age: 60)
        let before = s.store.load()
        s.stdin = Data("not json".utf8)
        #expect(s.run("-a", "claude") == 0)
        #expect(s.store.load() == before)
    }
}

@Suite struct SmallCommandTests {
    /// integrations/ holds the same text, written by scripts/generate (GenerateCheckTests).
    @Test func initPrintsEverySnippet() throws {
        for snippet in IntegrationSnippets.snippets {
            let s = CLISandbox()
            #expect(s.run("init", snippet.name) == 0)
            #expect(s.stdout.text == snippet.text + "\n")
        }
        let s = CLISandbox()
        #expect(s.run("init", "tumx") == 2)
        #expect(s.stderr.text.contains("did you mean 'tmux'?"))
    }

    @Test func cachePathShowClear() {
        let s = CLISandbox()
        s.run("cache", "path")
        #expect(s.stdout.text == s.store.file + "\n")
        s.saveCache(used: ["five_hour": 40], age: 30)
        s.run("cache", "show")
        #expect(s.stdout.text.contains("status: ok"))
        #expect(s.stdout.text.contains("five_hour: 40% used, 60% left"))
        #expect(s.run("cache", "clear") == 0)
        #expect(!FileSystem.exists(s.store.file))
    }

    @Test func doctorReportsEachPartWithoutTokens() throws {
        let s = CLISandbox()
        let creds = #"{"claudeAiOauth":{"accessToken":"sk-ant-oat01-TOPSECRET","refreshToken":"sk-ant-ort01-ALSOSECRET","expiresAt":1795370400000,"subscriptionType":"max"},"mcpOAuth":{}}"#
        try creds.write(toFile: s.paths.credentialsFile, atomically: true, encoding: .utf8)
        s.saveCache(used: ["five_hour": 40], age: 30)
        #expect(s.run("doctor") == 0)
        let out = s.stdout.text
        #expect(out.contains("credentials: \(s.paths.credentialsFile)"))
        #expect(out.contains("plan max"))
        #expect(out.contains("token expires in 4h"))
        #expect(out.contains("api: reachable (fake)"))
        #expect(!out.contains("SECRET") && !s.stderr.text.contains("SECRET"))
        #expect(out.contains("source: api"))
        #expect(out.split(separator: "\n").count == 6)
    }

    @Test func doctorFailsWhenSignedOut() {
        let s = CLISandbox()
        #expect(s.run("doctor") == 1)
        #expect(s.stdout.text.contains("FAIL credentials: \(s.paths.credentialsFile) not found"))
    }

    @Test func helpNamesEveryVariableTheREADMEDocuments() {
        let h = CLISandbox()
        h.run("--help")
        for name in ["CLAUDE_CONFIG_DIR", "ELBOWROOM_CONFIG", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "NO_COLOR",
                     "CLICOLOR_FORCE", "ELBOWROOM_API_URL", "ELBOWROOM_TOKEN_URL", "ELBOWROOM_FETCH", "ELBOWROOM_DEBUG"] {
            #expect(h.stdout.text.contains(name), "\(name) missing from --help")
        }
    }

    @Test func versionAndHelp() {
        let s = CLISandbox()
        s.run("--version")
        #expect(s.stdout.text == "elbowroom \(Version.current)\n")
        let h = CLISandbox()
        h.run("--help")
        for command in ["watch", "fetch", "doctor", "templates", "adapters", "init", "cache"] {
            #expect(h.stdout.text.contains("elbowroom \(command)"))
        }
    }
}
