import Foundation
import Testing
import ElbowroomCore
import ElbowroomTemplate
@testable import ElbowroomCLI

/// `elbowroom guard` (exit status for scripts) and `elbowroom hook` (Claude Code's context line).
@Suite struct GuardTests {
    @Test func enoughLeftInEveryWindowExitsZeroNamingTheLeastOnStderr() {
        let s = CLISandbox()
        s.saveCache(used: ["five_hour": 40, "seven_day": 70], age: 30)
        #expect(s.run("guard", "--min-left", "20") == 0)
        #expect(s.stderr.text == "elbowroom: guard: 7d has 30% left, at least 20%, the least of 2 windows\n")
        #expect(s.stdout.text.isEmpty)
        #expect(s.spawner.spawns.isEmpty)
    }

    @Test func aWindowBelowMinLeftExitsOneNamingIt() {
        let s = CLISandbox()
        s.saveCache(used: ["five_hour": 40, "seven_day": 88], age: 30)
        #expect(s.run("guard", "--min-left", "20") == 1)
        #expect(s.stderr.text.hasPrefix("elbowroom: guard: 7d has 12% left, below 20%, resets "), "\(s.stderr.text)")
        #expect(s.stderr.text.split(separator: "\n").count == 1)
    }

    @Test func theDefaultMinimumIsTheWarnThreshold() {
        let s = CLISandbox()
        s.writeConfig("[thresholds]\nwarn = 30\n")
        s.saveCache(used: ["five_hour": 72], age: 30)
        #expect(s.run("guard") == 1)
        #expect(s.stderr.text.contains("below 30%"))
        s.saveCache(used: ["five_hour": 68], age: 30)
        #expect(s.run("guard") == 0)
    }

    @Test func windowPicksTheWindowsThatCount() {
        let s = CLISandbox()
        s.saveCache(used: ["five_hour": 95, "seven_day": 10], age: 30)
        #expect(s.run("guard", "--min-left", "20", "--window", "7d") == 0)
        #expect(s.run("guard", "--min-left", "20", "--window", "7d", "--window", "5h") == 1)
        #expect(s.run("guard", "--min-left", "20", "--window", "five_hour") == 1)
    }

    @Test func noDataToDecideOnExits69() {
        let s = CLISandbox()
        #expect(s.run("guard", "--offline") == GuardCommand.noData)
        #expect(s.stderr.text.hasPrefix("elbowroom: guard: no usage data yet (loading"))
        s.saveCache(used: ["five_hour": 10], age: 30)
        s.stderr.clear()
        #expect(s.run("guard", "--window", "opus") == GuardCommand.noData)
        #expect(s.stderr.text == "elbowroom: guard: no window 'opus' in the data (it has: 5h)\n")
    }

    @Test(arguments: [["guard", "--min-left", "150"], ["guard", "--min-left", "x"], ["--min-left", "20"],
                      ["guard", "extra"], ["render", "--listen", "127.0.0.1:1"]])
    func usageErrorsExitTwo(_ arguments: [String]) {
        let s = CLISandbox()
        #expect(ElbowroomMain.run(arguments, context: s.context) == 2)
    }

    @Test func neverWaitsOnTheNetworkButStartsADueFetchAsARenderDoes() {
        let s = CLISandbox()
        s.saveCache(used: ["five_hour": 40], age: 600)
        let before = s.clock.now
        #expect(s.run("guard", "--min-left", "10") == 0)
        #expect(s.clock.now == before, "guard waited")
        #expect(s.spawner.spawns.count == 1)
        #expect(s.spawner.spawns[0].arguments == ["--urgency", "when-due", "--max-age", "180"])
    }

    @Test func neverWaitsEvenOnTheFirstRun() {
        let s = CLISandbox()
        let before = s.clock.now
        #expect(s.run("guard") == GuardCommand.noData)
        #expect(s.clock.now == before, "a render waits on the first run; guard does not")
        #expect(s.spawner.spawns.count == 1)
    }

    @Test func waitWaitsForADueFetch() {
        let s = CLISandbox()
        s.saveCache(used: ["five_hour": 40], age: 600)
        let before = s.clock.now
        #expect(s.run("guard", "--wait") == 0)
        #expect(s.clock.now > before)
        #expect(s.spawner.spawns.count == 1)
    }

    @Test func aResetWindowCountsAsFull() {
        let s = CLISandbox()
        s.saveCache(used: ["five_hour": 99], age: 30, resetIn: -10)
        #expect(s.run("guard", "--min-left", "50", "--offline") == 0)
        #expect(s.stderr.text.contains("5h has 100% left"), "\(s.stderr.text)")
    }
}

@Suite struct HookTests {
    static let prompt = Data(#"{"session_id":"x","hook_event_name":"UserPromptSubmit","prompt":"hi"}"#.utf8)

    @Test func aLowWindowAddsOneLineOfContext() throws {
        let s = CLISandbox()
        s.saveCache(used: ["five_hour": 40, "seven_day": 88], age: 30)
        s.stdin = Self.prompt
        #expect(s.run("hook") == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(s.stdout.text.utf8)) as? [String: Any])
        let specific = try #require(object["hookSpecificOutput"] as? [String: Any])
        #expect(specific["hookEventName"] as? String == "UserPromptSubmit")
        let line = try #require(specific["additionalContext"] as? String)
        let reset = LocalTime.system.format(s.clock.now.addingTimeInterval(3600), "%a %H:%M")
        #expect(line == "Weekly limit: 12% left, resets \(reset).")
        #expect(s.stderr.text.isEmpty)
    }

    @Test func sessionStartGetsItsOwnEventName() throws {
        let s = CLISandbox()
        s.saveCache(used: ["five_hour": 95], age: 30)
        s.stdin = Data(#"{"hook_event_name":"SessionStart","source":"startup"}"#.utf8)
        #expect(s.run("hook") == 0)
        #expect(s.stdout.text.contains(#""hookEventName":"SessionStart""#))
        #expect(s.stdout.text.contains("Session limit: 5% left"))
    }

    @Test func allWellPrintsNothing() {
        let s = CLISandbox()
        s.saveCache(used: ["five_hour": 40, "seven_day": 60], age: 30)
        s.stdin = Self.prompt
        #expect(s.run("hook") == 0)
        #expect(s.stdout.text.isEmpty)
    }

    @Test func noDataABadConfigOrNoInputNeverFailThePrompt() {
        let s = CLISandbox()
        #expect(s.run("hook") == 0)
        #expect(s.stdout.text.isEmpty)
        s.writeConfig("[thresholds]\nwarn = oops\n")
        s.saveCache(used: ["five_hour": 99], age: 30)
        s.stdin = Data("not json".utf8)
        #expect(s.run("hook") == 0)
        #expect(s.stdout.text.isEmpty)
    }

    @Test func withoutAnEventNameThePlainLineIsTheOutput() {
        let s = CLISandbox()
        s.saveCache(used: ["five_hour": 95], age: 30)
        #expect(s.run("hook") == 0)
        #expect(s.stdout.text.hasPrefix("Session limit: 5% left, resets "))
        #expect(s.stdout.text.hasSuffix(".\n"))
    }

    @Test func initClaudeHookRunsTheHookOnSessionStartAndEachPrompt() throws {
        let s = CLISandbox()
        #expect(s.run("init", "claude-hook") == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(s.stdout.text.utf8)) as? [String: Any])
        let hooks = try #require(object["hooks"] as? [String: Any])
        #expect(Set(hooks.keys) == ["SessionStart", "UserPromptSubmit"])
        #expect(s.stdout.text.components(separatedBy: "\"command\": \"elbowroom hook\"").count == 3)
    }
}

/// `guard` over `[accounts.NAME]`: one account with `--account`, else every account, the worst
/// answer winning and the line naming its account.
@Suite struct GuardAccountsTests {
    @Test func everyAccountIsCheckedAndTheWorstDecides() {
        let s = SeveralAccountsTests.sandbox()  // work 37 % / 59 % left, home 88 % / 60 %, codex 54 %
        #expect(s.run("guard", "--min-left", "30") == 0)
        #expect(s.stderr.text.hasPrefix("elbowroom: guard: work: 5h has 37% left"), "\(s.stderr.text)")
        s.stderr.clear()
        #expect(s.run("guard", "--min-left", "50") == 1)
        #expect(s.stderr.text.hasPrefix("elbowroom: guard: work: 5h has 37% left, below 50%"), "\(s.stderr.text)")
        #expect(s.stderr.text.split(separator: "\n").count == 1)
    }

    @Test func accountNamesTheOneThatCounts() {
        let s = SeveralAccountsTests.sandbox()
        #expect(s.run("guard", "--min-left", "50", "--account", "home") == 0)
        #expect(s.stderr.text.hasPrefix("elbowroom: guard: 7d has 60% left"), "\(s.stderr.text)")
        s.stderr.clear()
        #expect(s.run("guard", "--account", "nobody") == 2)
        #expect(s.stderr.text.contains("unknown account 'nobody'"))
    }

    @Test func anAccountWithoutDataIsNoAnswerUnlessAnotherIsBelow() {
        let s = CLISandbox()
        s.writeConfig(SeveralAccountsTests.config)
        SeveralAccountsTests.save(s, account: "work", used: ["five_hour": 10])
        #expect(s.run("guard", "--offline", "--min-left", "20") == GuardCommand.noData)
        SeveralAccountsTests.save(s, account: "work", used: ["five_hour": 95])
        #expect(s.run("guard", "--offline", "--min-left", "20") == 1)
    }
}

/// `serve` over `[accounts.NAME]`: what `-a prometheus` and `-a json` print for every account.
@Suite struct ServeAccountsTests {
    @Test func metricsAndUsageCoverEveryAccount() {
        let s = SeveralAccountsTests.sandbox()
        let content = ServeContent(context: s.context, offline: true)
        let metrics = content.respond(HTTPRequestHead(method: "GET", path: "/metrics", keepAlive: false))
        #expect(metrics.status == 200)
        for account in ["work", "home", "codex"] {
            #expect(metrics.body.contains("account=\"\(account)\""), "\(account) missing from /metrics")
        }
        #expect(s.run("-a", "prometheus") == 0)
        #expect(metrics.body == s.stdout.text)
        let usage = content.respond(HTTPRequestHead(method: "GET", path: "/v1/usage", keepAlive: false))
        s.stdout.clear()
        #expect(s.run("-a", "json") == 0)
        #expect(usage.body == s.stdout.text)
        #expect(usage.body.contains("\"accounts\""))
    }

    /// A config of one `[accounts.NAME]` serves that account, as a render shows it (it served
    /// the environment's Claude login instead).
    @Test func theOnlyAccountIsServedAsARenderShowsIt() {
        let s = CLISandbox()
        s.writeConfig("[accounts.codex]\nprovider = \"codex\"\nlabel = \"X\"\n")
        SeveralAccountsTests.save(s, account: "codex", used: ["five_hour": 46])
        let content = ServeContent(context: s.context, offline: true)
        let usage = content.respond(HTTPRequestHead(method: "GET", path: "/v1/usage", keepAlive: false))
        #expect(s.run("-a", "json") == 0)
        #expect(usage.body == s.stdout.text)
        #expect(usage.body.contains("\"used\":46"), "\(usage.body)")
    }

    @Test func aDueAccountIsFetchedOnceWhateverTheScrapes() {
        let s = CLISandbox()
        s.writeConfig(SeveralAccountsTests.config)
        SeveralAccountsTests.save(s, account: "work", used: ["five_hour": 10], age: 30)
        SeveralAccountsTests.save(s, account: "home", used: ["five_hour": 10], age: 10_000)
        SeveralAccountsTests.save(s, account: "codex", used: ["five_hour": 10], age: 30)
        let content = ServeContent(context: s.context, offline: false)
        for _ in 0..<5 { _ = content.respond(HTTPRequestHead(method: "GET", path: "/metrics", keepAlive: false)) }
        #expect(s.spawner.spawns.count == 1, "\(s.spawner.spawns)")
    }
}
