import Foundation
import Testing
import ElbowroomCore
import ElbowroomAdapters
import ElbowroomTestSupport

/// The real `elbowroom` and `elbowroom-fetch` with two Claude accounts, a Codex account and a
/// source plugin, each against its own loopback stand-in, on one line.
@Suite(.serialized) struct EndToEndSeveralAccountsTests {
    static let workToken = "sk-ant-oat01-E2E-WORK-ACCESS-0123456789"

    final class Setup: @unchecked Sendable {
        let e2e: EndToEnd
        let codex: LoopbackHTTPServer

        init() throws {
            e2e = try EndToEnd()
            let s = e2e.sandbox
            // The work login: another CLAUDE_CONFIG_DIR, another token, its own numbers.
            let workDir = s.home + "/.claude-work"
            try FileManager.default.createDirectory(atPath: workDir, withIntermediateDirectories: true)
            let credentials = Sandbox.credentialsJSON(accessToken: EndToEndSeveralAccountsTests.workToken,
                                                      refreshToken: "sk-ant-ort01-E2E-WORK-REFRESH",
                                                      expiresAt: Date().addingTimeInterval(8 * 3600))
            try credentials.write(toFile: workDir + "/.credentials.json", atomically: true, encoding: .utf8)
            let anthropic = e2e.anthropic
            let workBody = EndToEnd.usageBody(fiveHour: 80, sevenDay: 30)
            e2e.server.setHandler { request in
                if request.path == FakeAnthropic.usagePath,
                   request.header("Authorization") == "Bearer " + EndToEndSeveralAccountsTests.workToken {
                    return .json(200, workBody)
                }
                return anthropic.handle(request)
            }
            // Codex: its stored login and a stand-in for its usage endpoint (a weekly-only plan).
            codex = try LoopbackHTTPServer()
            let reset = Int(Date().timeIntervalSince1970) + 86400
            codex.setHandler { request in
                guard request.path == "/backend-api/wham/usage" else { return .status(404) }
                return .json(200, #"{"plan_type":"plus","rate_limit":{"primary_window":{"used_percent":46,"limit_window_seconds":604800,"reset_at":\#(reset)},"secondary_window":null}}"#)
            }
            let codexHome = s.home + "/.codex"
            try FileManager.default.createDirectory(atPath: codexHome, withIntermediateDirectories: true)
            let payload = Data(#"{"exp":\#(Int(Date().timeIntervalSince1970) + 3600)}"#.utf8).base64EncodedString()
                .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            try #"{"auth_mode":"chatgpt","tokens":{"access_token":"e30.\#(payload).c2ln","account_id":"acct-1"}}"#
                .write(toFile: codexHome + "/auth.json", atomically: true, encoding: .utf8)
            // A source plugin.
            let sources = s.configHome + "/elbowroom/sources"
            try FileManager.default.createDirectory(atPath: sources, withIntermediateDirectories: true)
            // (Core's writer: O_CLOEXEC, so no child forked meanwhile keeps it busy.)
            try FileSystem.writeAtomically(Data("#!/bin/sh\necho '{\"version\":1,\"windows\":[{\"key\":\"5h\",\"used\":10}]}'\n".utf8),
                                           to: sources + "/elbowroom-source-gem", mode: 0o755)
            e2e.sandbox.extra["ELBOWROOM_CODEX_API_URL"] = codex.baseURL + "/backend-api"
            try s.writeConfig("""
                timeout = 3
                [accounts.work]
                claude_config_dir = "~/.claude-work"
                label = "W"
                [accounts.home]
                label = "H"
                [accounts.codex]
                provider = "codex"
                label = "X"
                [accounts.gem]
                provider = "plugin:gem"
                label = "G"
                """)
        }

        deinit { codex.stop() }
    }

    @Test func everyAccountShowsOnOneLineInEveryAdapterEachWithItsOwnCacheAndFetch() throws {
        let setup = try Setup()
        let e2e = setup.e2e
        let first = try e2e.run(["-a", "plain", "--wait"])
        #expect(first.stdout == "W 5h 20% · 7d 70%  H 5h 37% · 7d 59%  X 7d 54%  G 5h 90%\n", "\(first.stdout)\n\(first.stderr)")
        #expect(e2e.usageRequests == 2, "one request per Claude account")
        #expect(setup.codex.requests.count == 1)
        let caches = FileSystem.entries(of: e2e.sandbox.cacheHome + "/elbowroom").filter { $0.hasSuffix(".json") }
        #expect(caches.count == 4)
        // Politeness per account: nothing is due again.
        _ = try e2e.run(["-a", "plain"])
        Thread.sleep(forTimeInterval: 0.5)
        #expect(e2e.usageRequests == 2)
        #expect(setup.codex.requests.count == 1)
        for adapter in AdapterRegistry.builtIn.map(\.name) {
            let run = try e2e.run(["-a", adapter, "--offline"])
            for number in ["20", "37", "54", "90"] {
                #expect(run.stdout.contains(number), "\(adapter): \(run.stdout)")
            }
        }
        let one = try e2e.run(["-a", "plain", "--offline", "--account", "codex"])
        #expect(one.stdout == "7d 54%\n")
    }

    @Test func watchShowsEveryAccountAndFollowsEachCache() throws {
        let setup = try Setup()
        let e2e = setup.e2e
        _ = try e2e.run(["-a", "plain", "--wait"])
        let watch = try EndToEndWatchTests.Watch(e2e, ["-a", "plain", "--interval", "0.2", "--offline"])
        #expect(watch.waitForLines(1))
        #expect(watch.lines.first == "W 5h 20% · 7d 70%  H 5h 37% · 7d 59%  X 7d 54%  G 5h 90%")
        // Another process writes one account's cache: the line follows.
        let home = Paths(environment: ElbowroomEnvironment(e2e.sandbox.environment))
        var cache = try #require(CacheStore(paths: home).load())
        cache.reading?.windows = [UsageWindow(key: "five_hour", used: 99, resetsAt: Date().addingTimeInterval(3600), observedAt: Date())]
        try CacheStore(paths: home).save(cache)
        #expect(Eventually.within(5) { watch.lines.contains { $0.contains("H 5h 1%") } }, "\(watch.lines)")
        kill(watch.process.processIdentifier, SIGTERM)
        #expect(watch.exitStatus(within: 3) == 0)
    }

    /// One account is a list of one (`--account`): the same loop shows it as a render does and
    /// follows its own cache, not the environment's.
    @Test func watchOfOneAccountFollowsThatAccountsCache() throws {
        let setup = try Setup()
        let e2e = setup.e2e
        _ = try e2e.run(["-a", "plain", "--wait"])
        let watch = try EndToEndWatchTests.Watch(e2e, ["-a", "plain", "--interval", "0.2", "--offline", "--account", "work"])
        #expect(watch.waitForLines(1))
        #expect(watch.lines.first == "5h 20% · 7d 70%")
        let config = try Config.parse(try String(contentsOfFile: e2e.sandbox.configHome + "/elbowroom/config.toml", encoding: .utf8),
                                      file: "config.toml")
        let work = Paths(environment: config.accounts[0].environment(over: ElbowroomEnvironment(e2e.sandbox.environment)))
        var cache = try #require(CacheStore(paths: work).load())
        cache.reading?.windows = [UsageWindow(key: "five_hour", used: 99, resetsAt: Date().addingTimeInterval(3600), observedAt: Date())]
        try CacheStore(paths: work).save(cache)
        #expect(Eventually.within(5) { watch.lines.contains { $0 == "5h 1%" } }, "\(watch.lines)")
        kill(watch.process.processIdentifier, SIGTERM)
        #expect(watch.exitStatus(within: 3) == 0)
    }

    @Test func fetchGoesThroughEveryAccountAndTakesAccount() throws {
        let setup = try Setup()
        let e2e = setup.e2e
        let all = try e2e.run(["fetch", "--json"])
        #expect(all.status == 0, "\(all.stderr)")
        #expect(all.stdout.split(separator: "\n").count == 4)
        // "account" is the account's name in every JSON; the login's path is "login".
        let lines = try all.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(lines.compactMap { $0["account"] as? String }.sorted() == ["codex", "gem", "home", "work"], "\(all.stdout)")
        #expect(lines.allSatisfy { $0["schema"] as? Int == 2 })
        #expect(lines.contains { ($0["login"] as? String)?.hasSuffix(".credentials.json") == true }, "\(all.stdout)")
        let one = try e2e.run(["fetch", "--account", "codex", "--force"])
        #expect(one.status == 0)
        #expect(setup.codex.requests.count == 2)
        #expect(e2e.usageRequests == 2)
    }
}
