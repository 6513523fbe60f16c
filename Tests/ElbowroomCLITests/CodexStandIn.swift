import Foundation
import Testing
import ElbowroomCore
import ElbowroomTestSupport

/// The built `elbowroom` and `elbowroom-fetch` with one account of another provider (`codex`, Codex
/// from its session logs, `plugin:NAME`; the account's TOML lines are given), a stored Codex login,
/// and a loopback stand-in for Codex's usage endpoint.
/// The real processes, one account of `provider` (`codex`, `codex` from logs, `plugin:odd`).
final class CodexStandIn: @unchecked Sendable {
    let e2e: EndToEnd
    let codex: LoopbackHTTPServer
    let codexHome: String

    init(account: String) throws {
        e2e = try EndToEnd()
        codex = try LoopbackHTTPServer()
        codexHome = e2e.sandbox.home + "/.codex"
        try FileManager.default.createDirectory(atPath: codexHome, withIntermediateDirectories: true)
        let payload = Data(#"{"exp":\#(Int(Date().timeIntervalSince1970) + 3600)}"#.utf8).base64EncodedString()
            .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        try #"{"auth_mode":"chatgpt","tokens":{"access_token":"e30.\#(payload).c2ln","account_id":"acct-1"}}"#
            .write(toFile: codexHome + "/auth.json", atomically: true, encoding: .utf8)
        e2e.sandbox.extra["ELBOWROOM_CODEX_API_URL"] = codex.baseURL + "/backend-api"
        e2e.sandbox.extra["CODEX_HOME"] = codexHome
        try e2e.sandbox.writeConfig("timeout = 3\nmax_age = 60\n[accounts.x]\n" + account + "\n")
    }

    deinit { codex.stop() }

    /// Every cache file elbowroom wrote, decoded as a render decodes it (`nil`: unreadable).
    var caches: [CacheFile?] {
        let dir = e2e.sandbox.cacheHome + "/elbowroom"
        return FileSystem.entries(of: dir).filter { $0.hasSuffix(".json") }.map { name in
            FileSystem.read(dir + "/" + name, limit: 1 << 20).flatMap(CacheFile.decode)
        }
    }

    /// Fetches once with the built fetcher; checks the cache is readable with its fetch
    /// state, and that the next renders start no fetch (`requests` counts what was asked).
    func renderTwice(requests: () -> Int) throws -> (line: String, cache: CacheFile) {
        let first = try e2e.run(["fetch"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(!first.stderr.contains("Fatal error") && !first.stderr.contains("crash"), "\(first.stderr)")
        let caches = self.caches
        #expect(caches.count == 1)
        let cache = try #require(caches.first ?? nil, "the cache is unreadable: every render would fetch again")
        #expect(cache.fetch.lastAttempt != nil && cache.fetch.lastOutcome == .ok, "the fetch state survives: \(cache.fetch)")
        let asked = requests()
        for _ in 0..<3 { _ = try e2e.run(["-a", "plain"]) }
        Thread.sleep(forTimeInterval: 0.8)
        #expect(requests() == asked, "a render started another fetch")
        let again = try e2e.run(["-a", "plain", "--offline"])
        return (again.stdout, cache)
    }
}

extension CodexStandIn {
    /// The stand-in answers every usage request with `body`.
    func serve(_ body: String) { codex.setHandler { _ in .json(200, body) } }

    /// A session log of these lines, as Codex writes them.
    func writeLog(_ lines: [String]) throws {
        let dir = codexHome + "/sessions/2026/11/24"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try (lines.joined(separator: "\n") + "\n").write(toFile: dir + "/rollout-2026-11-24T10-00-00-abc.jsonl", atomically: true, encoding: .utf8)
    }

    /// `elbowroom fetch` with the built fetcher; then `elbowroom ARGS --offline`.
    func fetchThenRun(_ arguments: [String]) throws -> EndToEnd.Run {
        let fetched = try e2e.run(["fetch"])
        #expect(fetched.status == 0, "\(fetched.stderr)")
        return try e2e.run(arguments + ["--offline"])
    }

    func run(_ arguments: [String]) throws -> EndToEnd.Run { try e2e.run(arguments) }

    /// Unix seconds `seconds` from now (the real clock: these are real processes).
    static func inFuture(_ seconds: Double) -> Int { Int(Date().timeIntervalSince1970 + seconds) }
}
