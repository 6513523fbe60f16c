import Foundation
import Testing
import ElbowroomCore
@testable import ElbowroomCLI

/// `[accounts.NAME]`: several accounts side by side, `--account` for one.
@Suite struct SeveralAccountsTests {
    static let config = """
        [accounts.work]
        claude_config_dir = "~/.claude-work"
        label = "W"

        [accounts.home]
        claude_config_dir = "~/.claude"
        label = "H"

        [accounts.codex]
        provider = "codex"
        label = "X"
        """

    /// Saves a cache for one account (through the account's own paths).
    static func save(_ s: CLISandbox, account name: String, used: [String: Double], age: TimeInterval = 30,
                     message: String? = nil, outcome: FetchOutcome? = nil) {
        let config = try! Config.parse(config, file: "c.toml")
        let account = config.accounts.first { $0.name == name }!
        let paths = Paths(environment: account.environment(over: ElbowroomEnvironment(s.environment)))
        let store = CacheStore(paths: paths)
        let now = s.clock.now
        let observed = now.addingTimeInterval(-age)
        let windows = used.sorted { $0.key < $1.key }.map {
            UsageWindow(key: $0.key, used: $0.value, resetsAt: now.addingTimeInterval(3600), observedAt: observed)
        }
        var cache = CacheFile(account: store.account, reading: Reading(windows: windows, fetchedAt: observed, source: .api))
        cache.fetch.recordSuccess(at: observed)
        if let outcome { cache.fetch.recordFailure(outcome, message: message, at: now) }
        try! store.save(cache)
    }

    static func sandbox() -> CLISandbox {
        let s = CLISandbox()
        s.writeConfig(config)
        save(s, account: "work", used: ["five_hour": 63, "seven_day": 41])
        save(s, account: "home", used: ["five_hour": 12, "seven_day": 40])
        save(s, account: "codex", used: ["five_hour": 46])
        return s
    }

    @Test func everyAccountShowsInConfigOrderWithItsLabel() {
        let s = Self.sandbox()
        #expect(s.run("-a", "plain") == 0)
        #expect(s.stdout.text == "W 5h 37% · 7d 59%  H 5h 88% · 7d 60%  X 5h 54%\n")
        #expect(s.spawner.spawns.isEmpty, "fresh caches: nothing to fetch")
    }

    @Test func accountFlagShowsThatAccountAlone() {
        let s = Self.sandbox()
        #expect(s.run("-a", "plain", "--account", "home") == 0)
        #expect(s.stdout.text == "5h 88% · 7d 60%\n")
    }

    @Test func anUnknownAccountIsAUsageErrorWithASuggestion() {
        let s = Self.sandbox()
        #expect(s.run("-a", "plain", "--account", "hom") == 2)
        #expect(s.stderr.text.contains("did you mean 'home'"))
    }

    /// One chooser (`Config.accounts(chosenBy:)`): every command, and an agent over MCP, says an
    /// unknown account in the same words.
    @Test func everyCommandSaysAnUnknownAccountInOneWording() {
        let wording = "unknown account 'hom' (did you mean 'home'?); accounts: work, home, codex"
        for command in [["-a", "plain"], ["guard"], ["fetch"], ["doctor"], ["cache", "show"], ["history"], ["notify"]] {
            let s = Self.sandbox()
            #expect(ElbowroomMain.run(command + ["--account", "hom"], context: s.context) == 2, "\(command)")
            #expect(s.stderr.text.contains(wording), "\(command): \(s.stderr.text)")
        }
        let s = Self.sandbox()
        let source = UsageReportSource(context: s.context, config: try! Config.parse(Self.config, file: "c.toml"), offline: true)
        guard case .failure(let unknown) = source.report("hom") else { Issue.record("hom is no account"); return }
        #expect(unknown.message == wording)
    }

    @Test func eachAccountHasItsOwnCacheFile() {
        let s = Self.sandbox()
        let files = (try? FileManager.default.contentsOfDirectory(atPath: s.sandbox.cacheHome + "/elbowroom")) ?? []
        #expect(files.filter { $0.hasSuffix(".json") }.count == 3)
    }

    @Test func oneAccountsFailureShowsOnItsPartOnly() {
        let s = CLISandbox()
        s.writeConfig(Self.config)
        Self.save(s, account: "work", used: ["five_hour": 63, "seven_day": 41])
        Self.save(s, account: "home", used: ["five_hour": 12], age: 30, message: "rate limited", outcome: .rateLimited)
        Self.save(s, account: "codex", used: ["five_hour": 46])
        #expect(s.run("-a", "plain") == 0)
        let line = s.stdout.text
        #expect(line.hasPrefix("W 5h 37% · 7d 59%  H 5h 88%"))
        #expect(line.contains("H 5h 88% offline  X 5h 54%"), "\(line)")
    }

    @Test func theBarsLevelIsTheWorstOverAllAccounts() {
        let s = CLISandbox()
        s.writeConfig(Self.config)
        Self.save(s, account: "work", used: ["five_hour": 10])
        Self.save(s, account: "home", used: ["five_hour": 95])
        Self.save(s, account: "codex", used: ["five_hour": 20])
        #expect(s.run("-a", "waybar") == 0)
        #expect(s.stdout.text.contains(#""class":"critical""#))
        #expect(s.stdout.text.contains(#""percentage":95"#))
    }

    /// `cache show`'s `account:` is the account's name (it was the login's path, now `login:`).
    @Test func cacheShowSaysTheAccountsNameAndItsLogin() {
        let s = Self.sandbox()
        #expect(s.run("cache", "show", "--account", "home") == 0)
        let lines = s.stdout.text.split(separator: "\n")
        #expect(lines.first == "account: home", "\(s.stdout.text)")
        #expect(lines.dropFirst().first?.hasPrefix("login: ") == true, "\(s.stdout.text)")
        #expect(lines.dropFirst().first?.hasSuffix("/.claude/.credentials.json") == true, "\(s.stdout.text)")
    }

    @Test func jsonCoversEveryAccount() throws {
        let s = Self.sandbox()
        #expect(s.run("-a", "json") == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(s.stdout.text.utf8)) as? [String: Any])
        let accounts = try #require(object["accounts"] as? [[String: Any]])
        #expect(accounts.map { $0["account"] as? String } == ["work", "home", "codex"])
        #expect(accounts.allSatisfy { $0["name"] == nil }, "one key for the name: account")
        #expect(object["version"] as? Int == 2)
        #expect(accounts.map { $0["provider"] as? String } == ["claude", "claude", "codex"])
        #expect(object["level"] as? String == "ok")
    }

    @Test func prometheusLabelsEveryMetricWithItsAccount() {
        let s = Self.sandbox()
        #expect(s.run("-a", "prometheus") == 0)
        let samples = s.stdout.text.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(!samples.isEmpty)
        #expect(samples.allSatisfy { $0.contains("{account=\"") }, "\(samples)")
        #expect(samples.contains(#"elbowroom_window_used_percent{account="codex",window="five_hour"} 46"#))
    }

    @Test func aTemplateAddressesOneAccountAndRepeatsAGroupPerAccount() {
        let s = Self.sandbox()
        #expect(s.run("-a", "plain", "-t", "{home:5h.left}|( {each:label}={each:5h.left})") == 0)
        #expect(s.stdout.text == "88| W=37 H=88 X=54\n")
    }

    @Test func theTooltipGroupsByAccount() {
        let s = Self.sandbox()
        #expect(s.run("-a", "waybar", "--tooltip", "{5h.left}") == 0)
        #expect(s.stdout.text.contains(#""tooltip":"<span weight=\"bold\">W</span>\n37\n\n<span weight=\"bold\">H</span>\n88\n\n<span weight=\"bold\">X</span>\n54""#), "\(s.stdout.text)")
    }

    /// The tooltip says whose usage each part is: a Codex account's is not "Claude usage",
    /// side by side or alone (`--account`), and a source plugin's carries the plugin's name.
    @Test func theTooltipNamesEachAccountsAgent() {
        let s = Self.sandbox()
        #expect(s.run("-a", "waybar") == 0)
        let both = s.stdout.text
        #expect(both.contains(#"W</span>\nClaude usage"#) && both.contains(#"H</span>\nClaude usage"#), "\(both)")
        #expect(both.contains(#"X</span>\nCodex usage"#), "\(both)")
        #expect(s.run("-a", "waybar", "--account", "codex") == 0)
        #expect(s.stdout.text.contains(#""tooltip":"Codex usage"#), "\(s.stdout.text)")
        #expect(s.run("-a", "plain", "--account", "work", "-t", "{agent}") == 0)
        #expect(s.stdout.text.hasSuffix("Claude\n"), "\(s.stdout.text)")
        var plugin = Account(name: "g")
        plugin.provider = Provider("plugin:gemini")!
        #expect(Paths(environment: plugin.environment(over: ElbowroomEnvironment(s.environment))).agent == "gemini")
    }

    /// `--wait` over several accounts whose fetches never land waits once, not once per
    /// account: all three within one fetch's wait (it took three).
    @Test func waitingForSeveralFetchesTakesOneDeadline() throws {
        let s = CLISandbox()
        s.writeConfig("timeout = 1\n" + Self.config)
        // Each fetcher is running (holds its account's lock) but never finishes.
        var locks: [FileLock] = []
        for account in try Config.parse(Self.config, file: "c.toml").accounts {
            Self.save(s, account: account.name, used: ["five_hour": 10], age: 10_000)
            let paths = Paths(environment: account.environment(over: ElbowroomEnvironment(s.environment)))
            locks.append(try FileLock(path: paths.fetchLockFile))
        }
        let held = locks
        s.spawner.onSpawn = { for lock in held { _ = lock.tryLock() } }
        let start = s.clock.now
        #expect(s.run("-a", "plain", "--wait") == 0)
        #expect(!s.spawner.spawns.isEmpty)
        let waited = s.clock.now.timeIntervalSince(start)
        var config = Config()
        config.timeout = 1
        let once = FetchTrigger.waitTimeout(config)  // 4 s
        #expect(waited >= once - 0.1 && waited < once + 0.5, "waited \(waited)s")
    }

    /// Another user's cache directory holds every account's cache: several accounts say why,
    /// as one account does, instead of showing each "loading" and starting fetchers into it.
    @Test(.enabled(if: geteuid() == 0)) func aCacheDirectoryOfAnotherUserIsRefusedForEveryAccount() {
        let s = Self.sandbox()
        for account in ["work", "home", "codex"] { Self.save(s, account: account, used: ["five_hour": 10], age: 10_000) }
        #expect(chown(s.paths.cacheDir, 65534, 65534) == 0)
        defer { _ = chown(s.paths.cacheDir, 0, 0) }
        #expect(s.run("-a", "waybar") == 0)
        #expect(s.stdout.text == #"{"text":"⚠ elbowroom","tooltip":"cannot use the cache directory (see elbowroom doctor)","class":"error"}"# + "\n")
        #expect(s.stderr.text.contains("is owned by uid 65534"), "\(s.stderr.text)")
        #expect(s.spawner.spawns.isEmpty, "no fetch into a directory that cannot take its result")
        let content = ServeContent(context: s.context, offline: false)
        #expect(content.respond(HTTPRequestHead(method: "GET", path: "/metrics", keepAlive: false)).status == 500)
    }

    @Test func aDueAccountStartsItsFetcherWithItsOwnEnvironment() {
        let s = CLISandbox()
        s.writeConfig(Self.config)
        Self.save(s, account: "work", used: ["five_hour": 63], age: 600)
        Self.save(s, account: "home", used: ["five_hour": 12])
        Self.save(s, account: "codex", used: ["five_hour": 46], age: 600)
        #expect(s.run("-a", "plain") == 0)
        let spawns = s.spawner.spawns
        #expect(spawns.count == 2)
        #expect(spawns.first?.environment["CLAUDE_CONFIG_DIR"] == s.sandbox.home + "/.claude-work")
        #expect(spawns.first?.environment["ELBOWROOM_ACCOUNT"] == "work")
        #expect(spawns.last?.environment["ELBOWROOM_PROVIDER"] == "codex")
        #expect(spawns.last?.environment["ELBOWROOM_ACCOUNT"] == "codex")
    }

    @Test func doctorGoesThroughEveryAccountAndSaysWhereACodexLoginIs() {
        let s = Self.sandbox()
        _ = s.run("doctor")
        let out = s.stdout.text
        #expect(out.contains("account work (claude):"))
        #expect(out.contains("account codex (codex):"))
        #expect(out.contains("codex login: " + s.sandbox.home + "/.codex/auth.json not found"), "\(out)")
        // One account alone is checked as what it is (Claude's checks ran for `--account codex`).
        let one = Self.sandbox()
        _ = one.run("doctor", "--account", "codex")
        #expect(one.stdout.text.contains("codex login: " + one.sandbox.home + "/.codex/auth.json not found"), "\(one.stdout.text)")
        #expect(!one.stdout.text.contains("credentials"), "\(one.stdout.text)")
    }

    /// The general lines (programs, config, source) once, then each account's own under its
    /// name: three accounts made 19 lines, the general ones three times.
    @Test func doctorPrintsTheGeneralLinesOnceThenEachAccounts() {
        let s = Self.sandbox()
        _ = s.run("doctor")
        let lines = s.stdout.text.split(separator: "\n").map(String.init)
        for general in ["programs: ", "config: ", "source: "] {
            #expect(lines.filter { $0.dropFirst(5).hasPrefix(general) }.count == 1, "\(general)\n\(s.stdout.text)")
        }
        let headers = lines.indices.filter { lines[$0].hasPrefix("account ") }
        #expect(headers.map { lines[$0] } == ["account work (claude):", "account home (claude):", "account codex (codex):"])
        // Before the first account: general lines only.
        #expect(lines[..<headers[0]].allSatisfy { line in ["programs: ", "config: ", "source: ", "path: "].contains { line.dropFirst(5).hasPrefix($0) } },
                "\(s.stdout.text)")
        #expect(lines.filter { $0.dropFirst(5).hasPrefix("credentials: ") }.count == 2)
        #expect(lines.filter { $0.dropFirst(5).hasPrefix("cache: ") }.count == 3)
    }

    /// The `source:` line, mark included, fits a terminal's 80 columns (it folded to four lines).
    @Test(arguments: ["api", "statusline"]) func doctorsSourceLineFitsEightyColumns(source: String) {
        let s = CLISandbox()
        s.writeConfig("source = \"\(source)\"\n")
        _ = s.run("doctor")
        let line = s.stdout.text.split(separator: "\n").first { $0.dropFirst(5).hasPrefix("source: ") }
        #expect(line != nil && line!.count <= 80, "\(line ?? "")")
    }

    /// `--demo`: each account its own provider's kind of rows (Codex and a plugin had Claude's
    /// per-model rows and credits).
    @Test func demoGivesEachProviderItsOwnRows() throws {
        let s = CLISandbox()
        s.writeConfig(Self.config + "\n[accounts.gem]\nprovider = \"plugin:gem\"\nlabel = \"G\"\n")
        #expect(s.run("--demo", "-a", "plain") == 0)
        let line = s.stdout.text
        #expect(line.hasPrefix("W 5h 37% · 7d 59% · Sonnet 82% · Opus 8% · credits $12.34 / $50.00  H "), "\(line)")
        #expect(line.hasSuffix("  X 7d 54% · 5h 72%  G Daily 80%\n"), "\(line)")
        s.stdout.clear()
        #expect(s.run("--demo", "-a", "plain", "--account", "codex") == 0)
        #expect(s.stdout.text == "7d 54% · 5h 72%\n", "least headroom first")
    }

    @Test func historyAndCacheTakeAccount() {
        let s = Self.sandbox()
        #expect(s.run("cache", "path", "--account", "codex") == 0)
        #expect(s.run("cache", "path") == 0)
        #expect(s.run("history", "--account", "nope") == 2)
        let lines = s.stdout.text.split(separator: "\n")
        #expect(lines.count == 2 && lines[0] != lines[1], "without --account: the first account, not codex")
    }

    @Test func anAdapterPluginGetsEveryAccount() throws {
        let s = Self.sandbox()
        let dir = s.sandbox.configHome + "/elbowroom/adapters"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try FileSystem.writeAtomically(Data("#!/bin/sh\ncat > \"$HOME/frame.json\"\necho ok\n".utf8),
                                       to: dir + "/elbowroom-adapter-spy", mode: 0o755)
        #expect(s.run("-a", "spy") == 0)
        let frame = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: s.sandbox.home + "/frame.json"))) as? [String: Any])
        let accounts = try #require(frame["accounts"] as? [[String: Any]])
        #expect(accounts.map { $0["label"] as? String } == ["W", "H", "X"])
        #expect((frame["text"] as? String)?.hasPrefix("W 5h 37%") == true)
    }

    @Test func claudeCodesStatusLineGoesIntoTheAccountItBelongsTo() throws {
        let s = Self.sandbox()
        s.stdin = Data(ClaudeStatusLineTests.stdin.utf8)
        #expect(s.run("-a", "claude") == 0)
        // home is the CLAUDE_CONFIG_DIR Claude Code runs with; work and codex are untouched.
        #expect(s.store.load()?.reading?.window(key: "seven_day")?.used == 12)
        let parts = s.stdout.text.components(separatedBy: "  H ")
        #expect(parts.count == 2, "\(s.stdout.text)")
        #expect(parts.last?.contains("Opus") == true && parts.first?.contains("Opus") == false,
                "the model shows in the session's own account's part: \(s.stdout.text)")
        let config = try Config.parse(Self.config, file: "c.toml")
        let work = Paths(environment: config.accounts[0].environment(over: ElbowroomEnvironment(s.environment)))
        #expect(CacheStore(paths: work).load()?.reading?.window(key: "seven_day")?.used == 41)
    }

    @Test func withoutAccountTablesNothingChanges() {
        let s = CLISandbox()
        s.saveCache(used: ["five_hour": 63, "seven_day": 41], age: 30)
        #expect(s.run("-a", "plain") == 0)
        #expect(s.stdout.text == "5h 37% · 7d 59%\n")
    }
}
