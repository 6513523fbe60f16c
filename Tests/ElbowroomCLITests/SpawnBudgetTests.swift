import Foundation
import Testing
import ElbowroomCore
import ElbowroomTestSupport
@testable import ElbowroomCLI

/// Many accounts due at once: one render (or serve answer) starts at most `SpawnBudget.perPass`
/// fetchers, and later renders reach the others.
@Suite struct SpawnBudgetTests {
    static func sandbox(accounts: Int) -> CLISandbox {
        let s = CLISandbox()
        s.writeConfig((0..<accounts).map { "[accounts.a\($0)]\nprovider = \"plugin:p\"\n" }.joined())
        return s
    }

    @Test func oneRenderStartsAtMostAFewFetchersAndLaterRendersTheRest() {
        let s = Self.sandbox(accounts: 40)
        // Every account has seen a fetch long ago: all due, none a first run.
        for i in 0..<40 {
            let paths = Paths(environment: ElbowroomEnvironment(s.environment).overlaid(
                names: ["ELBOWROOM_ACCOUNT", "ELBOWROOM_PROVIDER"], values: ["a\(i)", "plugin:p"]))
            var cache = CacheFile(account: paths.accountSource)
            cache.fetch.recordSuccess(at: s.clock.now.addingTimeInterval(-3600))
            try! CacheStore(paths: paths).save(cache)
        }
        #expect(s.run("-a", "plain") == 0)
        #expect(s.spawner.spawns.count == SpawnBudget.perPass, "\(s.spawner.spawns.count) fetchers from one render")
        let first = Set(s.spawner.spawns.map { $0.environment["ELBOWROOM_ACCOUNT"] ?? "" })
        #expect(first == ["a0", "a1", "a2", "a3"])
        // (RecordingSpawner runs nothing: the next render finds them due still and starts the
        // first again; with real fetchers running, their locks make it reach the next ones.)
        #expect(s.run("-a", "plain") == 0)
        #expect(s.spawner.spawns.count == 2 * SpawnBudget.perPass)
    }

    @Test func aFirstRunOfManyAccountsStartsAtMostAFew() {
        let s = Self.sandbox(accounts: 25)
        #expect(s.run("-a", "plain") == 0)
        #expect(s.spawner.spawns.count == SpawnBudget.perPass, "\(s.spawner.spawns.count) fetchers from one render")
    }

    @Test func serveStartsAtMostAFewPerAnswer() {
        let s = Self.sandbox(accounts: 30)
        let content = ServeContent(context: s.context, offline: false)
        _ = content.respond(HTTPRequestHead(method: "GET", path: "/metrics", keepAlive: false))
        #expect(s.spawner.spawns.count == SpawnBudget.perPass)
    }

    /// One account chooser and one pass for `serve` and `mcp`: an agent's question costs no more
    /// fetchers than a scrape.
    @Test func mcpStartsAtMostAFewPerAnswer() throws {
        let s = Self.sandbox(accounts: 30)
        let source = UsageReportSource(context: s.context, config: try Config.load(paths: s.paths), offline: false)
        guard case .success(let report) = source.report(nil) else { Issue.record("every account"); return }
        #expect(report.parts.count == 30)
        #expect(s.spawner.spawns.count == SpawnBudget.perPass)
    }

    /// The real programs: twelve plugin accounts, all due; each render starts four fetchers, the
    /// next render the next four.
    @Test func realRendersReachEveryAccountInTurn() throws {
        let e = try EndToEnd()
        let sources = e.sandbox.configHome + "/elbowroom/sources"
        try FileManager.default.createDirectory(atPath: sources, withIntermediateDirectories: true)
        let script = "#!/bin/sh\necho \"$ELBOWROOM_ACCOUNT\" >> \"$HOME/runs\"\nsleep 0.5\necho '{\"version\":1,\"windows\":[{\"key\":\"5h\",\"used\":10}]}'\n"
        try FileSystem.writeAtomically(Data(script.utf8), to: sources + "/elbowroom-source-p", mode: 0o755)
        try e.sandbox.writeConfig("timeout = 3\n" + (0..<12).map { "[accounts.a\($0)]\nprovider = \"plugin:p\"\n" }.joined())
        func runs() -> [String] {
            ((try? String(contentsOfFile: e.sandbox.home + "/runs", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        _ = try e.run(["-a", "plain"])
        Thread.sleep(forTimeInterval: 1.5)
        #expect(runs().sorted() == ["a0", "a1", "a2", "a3"], "\(runs())")
        _ = try e.run(["-a", "plain"])
        Thread.sleep(forTimeInterval: 1.5)
        #expect(Set(runs()) == Set((0..<8).map { "a\($0)" }), "\(runs())")
        #expect(runs().count == 8, "no account fetched twice: \(runs())")
    }
}
