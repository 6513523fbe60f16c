import Foundation
import Testing
import ElbowroomCore
import ElbowroomTestSupport
@testable import ElbowroomCLI

@Suite struct NotifyCommandTests {
    @Test func aCrossingIsSentOnceWithTheEventAsJSONToTheUsersCommand() throws {
        let s = CLISandbox()
        s.writeConfig("notify_command = \"my-notifier --stdin\"\n[notify]\nunused = false\n")
        // Half an hour before the reset: at this pace it lasts, so the only crossing is warn (the
        // weekly window's 70 % left would be `unused`, turned off here).
        s.saveCache(used: ["five_hour": 80, "seven_day": 30], age: 30, resetIn: 1800)
        #expect(s.run("notify", "--offline") == 0)
        #expect(s.stdout.text == "notified: Claude Session: 20% left (warn)\n")
        let run = try #require(s.spawner.runs.first)
        #expect(s.spawner.runs.count == 1)
        #expect(run.path == "/bin/sh" && run.arguments == ["-c", "my-notifier --stdin"])
        let event = try #require(try JSONSerialization.jsonObject(with: run.stdin) as? [String: Any])
        #expect(event["event"] as? String == "warn")
        #expect(event["key"] as? String == "five_hour")
        #expect(event["urgency"] as? String == "normal")
        #expect(event["left"] as? Double == 20)
        #expect(event["title"] as? String == "Claude Session: 20% left")
        #expect(event["body"] as? String == "Down to the warn threshold; resets in 30m.")
        // Claimed in the cache: a second run (another timer, another bar) sends nothing.
        s.stdout.clear()
        #expect(s.run("notify", "--offline") == 0)
        #expect(s.stdout.text.isEmpty && s.spawner.runs.count == 1)
        let reset = Int(s.clock.now.timeIntervalSince1970) + 1800
        #expect(s.store.load()?.notified == ["five_hour \(reset) warn", "seven_day \(reset) unused"])
    }

    @Test func notifySendGetsUrgencyCriticalForCritical() throws {
        let s = CLISandbox()
        let bin = s.sandbox.root + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: bin + "/notify-send", contents: Data("#!/bin/sh\n".utf8),
                                       attributes: [.posixPermissions: 0o755])
        s.extraEnvironment["PATH"] = bin
        s.saveCache(used: ["five_hour": 95], age: 30, resetIn: 1800)
        #expect(s.run("notify", "--offline") == 0)
        let run = try #require(s.spawner.runs.first)
        #expect(run.path == bin + "/notify-send")
        #expect(run.arguments == ["-a", "elbowroom", "-u", "critical", "Claude Session: 5% left",
                                  "Down to the critical threshold; resets in 30m."])
    }

    @Test func withoutANotifierItSaysWhatToInstall() {
        let s = CLISandbox()
        s.extraEnvironment["PATH"] = s.sandbox.root
        s.saveCache(used: ["five_hour": 95], age: 30, resetIn: 1800)
        #expect(s.run("notify", "--offline") == 1)
        #expect(s.stderr.text == "elbowroom: cannot notify: notify-send not found on PATH (install libnotify-bin), or set notify_command in the config\n")
    }

    @Test func notifyBringsTheCacheUpToDateFirstUnlessOffline() {
        let s = CLISandbox()
        s.writeConfig("notify_command = \"true\"\n")
        s.saveCache(used: ["five_hour": 20], age: 600)
        #expect(s.run("notify") == 0)
        #expect(s.spawner.spawns.count == 1, "a due fetch was started")
        #expect(s.run("notify", "--offline") == 0)
        #expect(s.spawner.spawns.count == 1)
    }
}

@Suite struct StatusLineSourceTests {
    static func sandbox() -> CLISandbox {
        let s = CLISandbox()
        s.writeConfig("source = \"statusline\"\n")
        return s
    }

    @Test func nothingEverStartsTheFetcher() {
        let s = Self.sandbox()
        s.saveCache(used: ["five_hour": 20], age: 3600)
        #expect(s.run("-t", "{5h.left}% {stale}stale {age}") == 0)
        #expect(s.stdout.text == "80% stale 1h\n")
        #expect(s.run("--wait") == 0)
        #expect(s.run("notify") == 0)
        #expect(s.spawner.spawns.isEmpty)
        #expect(s.run("fetch") == 1)
        #expect(s.stderr.text.contains("not fetching: source = \"statusline\" in the config: elbowroom never reads the Claude login or touches the network"))
    }

    /// `statusline` is about Claude's login: a Codex account still fetches, with `--account`
    /// as over several accounts (one refused it, the other did not).
    @Test func anotherProvidersAccountStillFetches() {
        let s = CLISandbox()
        s.writeConfig("source = \"statusline\"\n[accounts.codex]\nprovider = \"codex\"\n")
        #expect(s.run("fetch", "--account", "codex") == 1)  // the stand-in fetcher cannot be run
        #expect(!s.stderr.text.contains("not fetching"), "\(s.stderr.text)")
        #expect(s.stderr.text.contains("cannot run /opt/fake/elbowroom-fetch"), "\(s.stderr.text)")
    }

    /// A Codex account has nothing to wait for from Claude Code: before its first fetch it is
    /// loading, as anywhere else (it said "waiting for Claude Code's status line", and started
    /// its fetch all the same).
    @Test func anotherProvidersAccountDoesNotWaitForClaudeCode() {
        let s = CLISandbox()
        s.writeConfig("source = \"statusline\"\n[accounts.codex]\nprovider = \"codex\"\n")
        #expect(s.run("--account", "codex", "-a", "plain") == 0)
        #expect(!s.stdout.text.contains("waiting for Claude Code"), "\(s.stdout.text)")
        #expect(s.spawner.spawns.count == 1)
    }

    @Test func withoutDataItSaysItWaitsForClaudeCode() {
        let s = Self.sandbox()
        #expect(s.run() == 0)
        #expect(s.stdout.text == "waiting for Claude Code's status line\n")
        #expect(s.spawner.spawns.isEmpty)
    }

    @Test func theStatusLineStillFeedsTheCache() {
        let s = Self.sandbox()
        let reset = Int(s.clock.now.timeIntervalSince1970) + 3600
        s.stdin = Data(#"{"rate_limits":{"five_hour":{"used_percentage":30,"resets_at":\#(reset)}}}"#.utf8)
        #expect(s.run("-a", "claude", "-t", "{5h.left}%") == 0)
        #expect(s.stdout.text.contains("70%"))
        #expect(s.store.load()?.reading?.window(key: "five_hour")?.used == 30)
        #expect(s.spawner.spawns.isEmpty)
    }

    @Test func doctorSaysWhichModeAndNeverReadsTheLoginOrProbes() throws {
        let s = Self.sandbox()
        // A login doctor would describe in api mode (and call invalid here).
        try "not json".write(toFile: s.paths.credentialsFile, atomically: true, encoding: .utf8)
        try #"{"statusLine":{"type":"command","command":"elbowroom -a claude"}}"#
            .write(toFile: s.sandbox.claudeConfigDir + "/settings.json", atomically: true, encoding: .utf8)
        s.saveCache(used: ["five_hour": 20], age: 30)
        #expect(s.run("doctor") == 0)
        let out = s.stdout.text
        #expect(out.contains("ok   source: statusline (no login read, no network; 5h and 7d only)\n"))
        #expect(out.contains("ok   status line: \(s.sandbox.claudeConfigDir)/settings.json runs 'elbowroom -a claude'"))
        #expect(!out.contains("credentials:") && !out.contains("api:"))
        #expect(s.spawner.runs.isEmpty, "no probe")

        try #"{"statusLine":{"type":"command","command":"ccstatusline"}}"#
            .write(toFile: s.sandbox.claudeConfigDir + "/settings.json", atomically: true, encoding: .utf8)
        s.stdout.clear()
        #expect(s.run("doctor") == 1)
        #expect(s.stdout.text.contains("FAIL status line: \(s.sandbox.claudeConfigDir)/settings.json runs 'ccstatusline', not elbowroom: without it no data arrives; `elbowroom init claude` prints the snippet"))
    }

    @Test func doctorSaysWhoFillsAnEmptyCache() {
        let s = Self.sandbox()
        s.run("doctor")
        #expect(s.stdout.text.contains("(none yet; Claude Code's status line fills it)"))
        #expect(!s.stdout.text.contains("the first render fetches"))
    }

    @Test func initClaudeRefreshesWhileIdleAndSaysWhy() {
        let s = CLISandbox()
        #expect(s.run("init", "claude") == 0)
        #expect(s.stdout.text.contains(#""refreshInterval": 30"#))
        #expect(s.stderr.text.contains("re-runs the status line every 30 s while the session is idle, so countdowns keep moving"))
    }
}
