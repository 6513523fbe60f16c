import Foundation
import Testing
import ElbowroomCore
import ElbowroomTestSupport
@testable import ElbowroomCLI

/// Two accounts of one source plugin: each its own cache, its own numbers, its own cooldown
/// (the built programs, a real plugin that reads the account it is asked for).
@Suite struct PluginAccountsTests {
    static let plugin = """
        #!/bin/sh
        case "$ELBOWROOM_ACCOUNT" in
          alice) echo '{"version":1,"windows":[{"key":"5h","used":10}]}' ;;
          bob) echo '{"version":1,"status":"signed_out","error":"bob is signed out"}' ;;
          *) exit 3 ;;
        esac
        """

    @Test func twoAccountsOfOnePluginNeverShareACache() throws {
        let e = try EndToEnd()
        let sources = e.sandbox.configHome + "/elbowroom/sources"
        try FileManager.default.createDirectory(atPath: sources, withIntermediateDirectories: true)
        try FileSystem.writeAtomically(Data(Self.plugin.utf8), to: sources + "/elbowroom-source-gem", mode: 0o755)
        try e.sandbox.writeConfig("""
            timeout = 3
            [accounts.alice]
            provider = "plugin:gem"
            label = "A"
            [accounts.bob]
            provider = "plugin:gem"
            label = "B"
            """)
        let run = try e.run(["-a", "plain", "--wait"])
        #expect(run.stdout.hasPrefix("A 5h 90%  B "), "\(run.stdout) \(run.stderr) \(FileSystem.entries(of: e.sandbox.cacheHome + "/elbowroom"))")
        #expect(!run.stdout.contains("B 5h 90%"), "bob shows alice's numbers: \(run.stdout)")
        let caches = FileSystem.entries(of: e.sandbox.cacheHome + "/elbowroom").filter { $0.hasSuffix(".json") }
        #expect(caches.count == 2, "\(caches)")
        // guard decides on the account it is asked about.
        #expect(try e.run(["guard", "--account", "alice", "--min-left", "50"]).status == 0)
        #expect(try e.run(["guard", "--account", "bob", "--min-left", "50"]).status != 0)
        let bob = try e.run(["-a", "json", "--account", "bob", "--offline"])
        #expect(bob.stdout.contains("bob is signed out"), "\(bob.stdout)")
        let alice = try e.run(["-a", "json", "--account", "alice", "--offline"])
        #expect(!alice.stdout.contains("signed out"), "\(alice.stdout)")
    }

    /// A cache from before accounts had their own is kept when one account of that plugin can
    /// own it; with two, neither takes it.
    @Test func aSingleAccountsOldCacheIsKept() throws {
        let e = try EndToEnd()
        let s = e.sandbox
        try s.writeConfig("[accounts.alice]\nprovider = \"plugin:gem\"\n")
        let base = s.elbowroomEnvironment
        let config = try Config.load(paths: Paths(environment: base))
        let account = try #require(config.accounts.first)
        let paths = Paths(environment: account.environment(over: base))
        let legacy = try #require(paths.legacyPluginAccountKey)
        #expect(legacy == SHA256.hexPrefix("plugin:gem") && legacy != paths.accountKey)
        try FileManager.default.createDirectory(atPath: paths.cacheDir, withIntermediateDirectories: true)
        let old = CacheStore(paths: Paths(environment: base.overlaid(names: ["ELBOWROOM_PROVIDER"], values: ["plugin:gem"])))
        #expect(old.file == Paths.join(paths.cacheDir, "usage-\(legacy).json"))
        let now = Date()
        var cache = CacheFile(account: old.account, reading: Reading(windows: [UsageWindow(key: "five_hour", used: 33, resetsAt: now + 3600, observedAt: now)], fetchedAt: now, source: .api))
        cache.fetch.recordSuccess(at: now)
        try old.save(cache)
        // The fetcher (the real one, through fetch) renames the old files to the account's.
        _ = try e.run(["fetch", "--account", "alice"])
        #expect(CacheStore(paths: paths).load()?.reading?.windows.first?.used == 33)
        #expect(!FileSystem.exists(old.file))
    }
}
