import Foundation
import ElbowroomCore
import ElbowroomTestSupport
import Testing

/// `elbowroom -a claude --then 'COMMAND'` and `elbowroom init claude --keep`, run as the built
/// program with a status-line payload on stdin, as Claude Code runs it.
@Suite struct StatusLineChainTests {
    /// What Claude Code hands its status line: 30 % and 10 % used.
    static func payload(fiveHour: Double = 30, sevenDay: Double = 10) -> String {
        let now = Int(Date().timeIntervalSince1970)
        return #"{"session_id":"s1","model":{"id":"claude-opus","display_name":"Opus"},"workspace":{"current_dir":"/tmp"},"#
            + #""rate_limits":{"five_hour":{"used_percentage":\#(fiveHour),"resets_at":\#(now + 3600)},"#
            + #""seven_day":{"used_percentage":\#(sevenDay),"resets_at":\#(now + 3 * 86400)}}}"#
    }

    /// COMMAND reads the same stdin: it prints what it was given, a field of it here.
    static let echoModel = #"printf 'theirs: %s\n' "$(sed 's/.*"display_name":"\([^"]*\)".*/\1/')""#

    @Test(arguments: [("after", ["theirs: Opus", "Opus · 5h 70% · 7d 90%"]),
                      ("before", ["Opus · 5h 70% · 7d 90%", "theirs: Opus"]),
                      ("none", ["theirs: Opus"])])
    func elbowroomsLineGoesWhereThePositionSays(_ position: String, _ expected: [String]) throws {
        let e2e = try EndToEnd()
        let run = try e2e.run(["-a", "claude", "--offline", "--color", "never", "--then", Self.echoModel,
                               "--then-position", position], stdin: Self.payload())
        #expect(run.status == 0, "\(run.stderr)")
        let lines = Self.visible(run.stdout)
        #expect(lines == expected, "\(run.stdout)")
    }

    @Test func theDefaultPutsTheirLineFirst() throws {
        let e2e = try EndToEnd()
        let run = try e2e.run(["-a", "claude", "--offline", "--then", Self.echoModel], stdin: Self.payload())
        #expect(Self.visible(run.stdout) == ["theirs: Opus", "Opus · 5h 70% · 7d 90%"], "\(run.stdout)")
    }

    /// A slow COMMAND is killed with what it started at 2 s, its place says why, and the reading
    /// it was handed is in the cache all the same.
    @Test func aSlowCommandIsCutOffAndTheIngestStays() throws {
        let e2e = try EndToEnd()
        let pids = e2e.sandbox.root + "/pids"
        let run = try e2e.runBounded(["-a", "claude", "--offline", "--then",
                                      "sleep 30 & echo $$ $! > \(pids); wait; echo too late"],
                                     seconds: 10, stdin: Self.payload(fiveHour: 42))
        #expect(run.status == 0)
        #expect(run.seconds < 5, "took \(run.seconds) s")
        #expect(Self.visible(run.stdout) == ["⚠ status line: did not finish within 2s", "Opus · 5h 58% · 7d 90%"], "\(run.stdout)")
        #expect(!run.stdout.contains("too late"))
        let started = (try? String(contentsOfFile: pids, encoding: .utf8))?.split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? []
        #expect(started.count == 2)
        for pid in started {
            #expect(Eventually.within(2) { kill(pid, 0) != 0 }, "process \(pid) outlived its deadline")
        }
        let cache = try #require(CacheStore(paths: e2e.sandbox.paths).load())
        #expect(cache.reading?.windows.first { $0.key == "five_hour" }?.used == 42)
        #expect(cache.reading?.source == .statusLine)
    }

    @Test(arguments: [("exit 3", "exited with status 3"), ("no-such-statusline-xyz", "command not found (exit 127)")])
    func aFailingCommandShowsAShortReasonAndTheIngestStays(_ command: String, _ reason: String) throws {
        let e2e = try EndToEnd()
        let run = try e2e.run(["-a", "claude", "--offline", "--then", command], stdin: Self.payload(fiveHour: 55))
        #expect(run.status == 0, "Claude Code shows nothing of a status line that exits non-zero")
        #expect(Self.visible(run.stdout) == ["⚠ status line: \(reason)", "Opus · 5h 45% · 7d 90%"], "\(run.stdout)")
        #expect(run.stderr.contains("--then: \(reason)"))
        #expect(CacheStore(paths: e2e.sandbox.paths).load()?.reading?.windows.first { $0.key == "five_hour" }?.used == 55)
    }

    /// COMMAND gets elbowroom's environment less every variable that carries a credential.
    @Test func noTokenReachesTheCommandsEnvironment() throws {
        let e2e = try EndToEnd()
        var environment = e2e.sandbox.environment
        environment["CLAUDE_CODE_OAUTH_TOKEN"] = "sk-ant-oat01-SECRET-ENV-TOKEN"
        environment["ANTHROPIC_API_KEY"] = "sk-ant-api03-SECRET-KEY"
        environment["ANTHROPIC_AUTH_TOKEN"] = "gateway-SECRET"
        environment["KEPT_FOR_THEM"] = "yes"
        let run = try e2e.runBounded(["-a", "claude", "--offline", "--then", "env"], environment: environment,
                                     stdin: Self.payload())
        #expect(run.stdout.contains("KEPT_FOR_THEM=yes"), "\(run.stdout)")
        #expect(run.stdout.contains("CLAUDE_CONFIG_DIR="))
        #expect(!run.stdout.contains("SECRET"), "\(run.stdout)")
        #expect(!run.stdout.contains("TOKEN_PRESENT"))
    }

    /// What the program's start-up sets for the Swift runtime alone (SWIFT_BACKTRACE: the
    /// backtracer it does not carry, Sources/CSystem/backtrace.c) is gone before COMMAND starts;
    /// a SWIFT_BACKTRACE of the user's own is theirs, and passed on as it was.
    @Test func theStartUpsSettingForTheRuntimeDoesNotReachTheCommand() throws {
        let e2e = try EndToEnd()
        var environment = e2e.sandbox.environment
        environment["SWIFT_BACKTRACE"] = nil
        let run = try e2e.runBounded(["-a", "claude", "--offline", "--then", "env"], environment: environment,
                                     stdin: Self.payload())
        #expect(run.stdout.contains("CLAUDE_CONFIG_DIR="), "\(run.stdout)")
        #expect(!run.stdout.contains("SWIFT_BACKTRACE"), "\(run.stdout)")
        environment["SWIFT_BACKTRACE"] = "enable=no,color=no"
        let theirs = try e2e.runBounded(["-a", "claude", "--offline", "--then", "env"], environment: environment,
                                        stdin: Self.payload())
        #expect(theirs.stdout.contains("SWIFT_BACKTRACE=enable=no,color=no\n"), "\(theirs.stdout)")
    }

    @Test func thenGoesWithClaudeOnly() throws {
        let e2e = try EndToEnd()
        let run = try e2e.run(["-a", "tmux", "--then", "true"], stdin: Self.payload())
        #expect(run.status == 2)
        #expect(run.stderr.contains("--then goes with -a claude"), "\(run.stderr)")
        let watch = try e2e.run(["watch", "-a", "claude", "--then", "true"])
        #expect(watch.status == 2 && watch.stderr.contains("--then goes with"), "\(watch.stderr)")
        let position = try e2e.run(["-a", "claude", "--then", "true", "--then-position", "middle"])
        #expect(position.status == 2 && position.stderr.contains("before, after or none"), "\(position.stderr)")
    }

    /// The lines Claude Code shows: SGR removed, trimmed, empty ones dropped.
    static func visible(_ output: String) -> [String] {
        let plain = output.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        return plain.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    // MARK: init claude --keep

    /// The status line already in settings.json, with quotes of every kind, comes back wrapped:
    /// the JSON reads back to a command that, run by sh as Claude Code runs it, runs theirs with
    /// the same output.
    @Test func keepWrapsTheirCommandQuotedForJSONAndShell() throws {
        let e2e = try EndToEnd()
        let theirs = #"printf '%s|%s\n' "it's \"quoted\"" 'back\slash $HOME' && cat >/dev/null"#
        let settings: [String: Any] = [
            "model": "opus",
            "statusLine": ["type": "command", "command": theirs, "padding": 1],
        ]
        try JSONSerialization.data(withJSONObject: settings)
            .write(to: URL(fileURLWithPath: e2e.sandbox.claudeConfigDir + "/settings.json"))
        let run = try e2e.run(["init", "claude", "--keep"])
        #expect(run.status == 0, "\(run.stderr)")
        let printed = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)")
        let statusLine = try #require(printed["statusLine"] as? [String: Any])
        #expect(statusLine["type"] as? String == "command")
        #expect(statusLine["padding"] as? Int == 1, "their padding is kept")
        #expect(statusLine["refreshInterval"] as? Int == 30)
        let command = try #require(statusLine["command"] as? String)
        // (This elbowroom is not on the system PATH, so the snippet names it in full.)
        #expect(command.hasPrefix(e2e.elbowroom + " -a claude --then '"), "\(command)")

        // Run as Claude Code runs it: sh -c, the status line on stdin, elbowroom on PATH.
        var environment = e2e.sandbox.environment
        environment["PATH"] = URL(fileURLWithPath: e2e.elbowroom).deletingLastPathComponent().path + ":/usr/bin:/bin"
        let direct = try BoundedRun.run("/bin/sh", ["-c", theirs], environment: environment, seconds: 5)
        let wrapped = try runShell(command + " --offline", stdin: Self.payload(), environment: environment)
        #expect(direct.stdout == #"it's "quoted"|back\slash $HOME"# + "\n")
        #expect(Self.visible(wrapped) == [#"it's "quoted"|back\slash $HOME"#, "Opus · 5h 70% · 7d 90%"], "\(wrapped)")
    }

    @Test func keepReadsTheSettingsOfCLAUDE_CONFIG_DIR() throws {
        let e2e = try EndToEnd()
        let other = e2e.sandbox.root + "/other-claude"
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        try Data(#"{"statusLine":{"type":"command","command":"my-line --work"}}"#.utf8)
            .write(to: URL(fileURLWithPath: other + "/settings.json"))
        var environment = e2e.sandbox.environment
        environment["CLAUDE_CONFIG_DIR"] = other
        let run = try e2e.runBounded(["init", "claude", "--keep"], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(#"elbowroom -a claude --then 'my-line --work'""#), "\(run.stdout)")
    }

    @Test func keepSaysWhenThereIsNothingToKeep() throws {
        let e2e = try EndToEnd()
        let missing = try e2e.run(["init", "claude", "--keep"])
        #expect(missing.status == 1 && missing.stdout.isEmpty)
        #expect(missing.stderr.contains("settings.json") && missing.stderr.contains("elbowroom init claude"), "\(missing.stderr)")
        let settings = e2e.sandbox.claudeConfigDir + "/settings.json"
        try Data(#"{"model":"opus"}"#.utf8).write(to: URL(fileURLWithPath: settings))
        let none = try e2e.run(["init", "claude", "--keep"])
        #expect(none.status == 1 && none.stderr.contains("no statusLine command"), "\(none.stderr)")
        try Data(#"{"statusLine":{"type":"command","command":"/usr/local/bin/elbowroom -a claude"}}"#.utf8)
            .write(to: URL(fileURLWithPath: settings))
        let ours = try e2e.run(["init", "claude", "--keep"])
        #expect(ours.status == 1 && ours.stderr.contains("already runs elbowroom"), "\(ours.stderr)")
        let wrongInit = try e2e.run(["init", "tmux", "--keep"])
        #expect(wrongInit.status == 2 && wrongInit.stderr.contains("--keep goes with 'elbowroom init claude'"))
    }

    private func runShell(_ command: String, stdin: String, environment: [String: String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.environment = environment
        let out = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = input
        try process.run()
        // (`try?`: a program that has exited already, a usage error reading no stdin, has closed the pipe.)
        try? input.fileHandleForWriting.write(contentsOf: Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
