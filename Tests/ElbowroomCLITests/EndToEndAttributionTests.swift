import Foundation
import ElbowroomCore
import ElbowroomTestSupport
import Testing

/// Which session ate the window: status lines of two concurrent Claude Code sessions and the
/// server's readings, through the built program with `ELBOWROOM_NOW`, then `history --by`,
/// `notify` (the `elsewhere` event), `doctor` and `history --daily` read what they left.
@Suite(.serialized) struct EndToEndAttributionTests {
    static let start = 1_800_000_000
    static let fiveReset = start + 2 * 3600
    static let sevenReset = start + 5 * 86400

    /// A Claude Code status-line payload of one session.
    static func statusLine(session: String, project: String, model: String, cost: Double, tokens: Int,
                           five: Double, seven: Double) -> String {
        #"{"session_id":"\#(session)","transcript_path":"/tmp/t.jsonl","cwd":"\#(project)/src","model":{"id":"x","display_name":"\#(model)"},"#
            + #""workspace":{"current_dir":"\#(project)/src","project_dir":"\#(project)"},"version":"2.1.0","#
            + #""cost":{"total_cost_usd":\#(cost),"total_duration_ms":1000},"#
            + #""context_window":{"total_input_tokens":\#(tokens),"total_output_tokens":\#(tokens / 10),"used_percentage":12},"#
            + #""rate_limits":{"five_hour":{"used_percentage":\#(five),"resets_at":\#(fiveReset)},"seven_day":{"used_percentage":\#(seven),"resets_at":\#(sevenReset)}}}"#
    }

    /// The usage endpoint's answer.
    static func usage(five: Double, seven: Double) -> String {
        let f = ISO8601.format(Date(timeIntervalSince1970: Double(fiveReset)))
        let s = ISO8601.format(Date(timeIntervalSince1970: Double(sevenReset)))
        return #"{"five_hour":{"utilization":\#(five),"resets_at":"\#(f)"},"seven_day":{"utilization":\#(seven),"resets_at":"\#(s)"}}"#
    }

    static let alice = "aaaaaaaa-1111-4111-8111-111111111111"
    static let bob = "bbbbbbbb-2222-4222-8222-222222222222"

    /// A sandbox whose login stays valid in 2027 (no refresh, which a running `claude` would hold
    /// off), notifying through a command into `events`, with `runs_out` off (only `elsewhere` is
    /// looked at here).
    static func setUp() throws -> (EndToEnd, events: String) {
        let e = try EndToEnd()
        try e.sandbox.writeCredentials(accessToken: e.anthropic.validAccessToken, refreshToken: e.anthropic.validRefreshToken,
                                       expiresAt: Date(timeIntervalSince1970: 1_900_000_000))
        let events = e.sandbox.root + "/events.jsonl"
        try e.sandbox.writeConfig("timeout = 3\nnotify_command = \"cat >> '\(events)'\"\n[notify]\nruns_out = false\n")
        // The process table elbowroom looks for Claude Code in: this test process (no claude),
        // and what `startClaude` adds, so a real Claude Code run by another test at the same
        // time never counts as a local spender here.
        try FileManager.default.createDirectory(atPath: procTable(e), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: procTable(e) + "/\(getpid())", withDestinationPath: "/proc/\(getpid())")
        e.sandbox.extra["ELBOWROOM_PROC_ROOT"] = procTable(e)
        return (e, events)
    }

    static func procTable(_ e: EndToEnd) -> String { e.sandbox.root + "/proc" }

    /// A real process named claude of this user (`program`: a copy of sleep), running for a
    /// minute and listed in the sandbox's process table.
    static func startClaude(_ e: EndToEnd, _ program: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = ["60"]  // (sleep would refuse `-p PROMPT`: what counts is the name and owner)
        try process.run()
        try FileManager.default.createSymbolicLink(atPath: procTable(e) + "/\(process.processIdentifier)",
                                                   withDestinationPath: "/proc/\(process.processIdentifier)")
        return process
    }

    /// A /proc with one process of this user that is not Claude Code: nothing silent runs.
    static func quietProc(_ e: EndToEnd) throws -> String {
        let root = e.sandbox.root + "/proc"
        try FileManager.default.createDirectory(atPath: root + "/4242", withIntermediateDirectories: true)
        try "bash\n".write(toFile: root + "/4242/comm", atomically: true, encoding: .utf8)
        try "bash\0".write(toFile: root + "/4242/cmdline", atomically: true, encoding: .utf8)
        return root
    }

    func at(_ e: EndToEnd, _ offset: Int) { e.sandbox.extra["ELBOWROOM_NOW"] = String(Self.start + offset) }

    func fetch(_ e: EndToEnd, five: Double, seven: Double, at offset: Int) throws {
        at(e, offset)
        e.anthropic.configure { $0.usageReply = .json(200, Self.usage(five: five, seven: seven)) }
        let run = try e.run(["fetch", "--force"])
        #expect(run.status == 0, "\(run.stderr)")
    }

    func status(_ e: EndToEnd, _ session: String, cost: Double, five: Double, seven: Double, at offset: Int,
                pid: Int32? = nil) throws {
        at(e, offset)
        let alice = session == Self.alice
        if let pid { e.sandbox.extra["CLAUDE_PID"] = String(pid) } else { e.sandbox.extra["CLAUDE_PID"] = nil }
        let stdin = Self.statusLine(session: session, project: alice ? "/work/app" : "/work/web", model: alice ? "Opus 4.5" : "Sonnet 4.5",
                                    cost: cost, tokens: Int(cost * 10000), five: five, seven: seven)
        let run = try e.run(["-a", "claude", "--offline"], stdin: stdin)
        #expect(run.status == 0, "\(run.stderr)")
        e.sandbox.extra["CLAUDE_PID"] = nil
    }

    /// The two sessions' spending and the server's readings up to the last fetch, whose rise of
    /// 8 points no session spent for.
    func twoSessions(_ e: EndToEnd, alicePID: Int32? = nil) throws {
        try fetch(e, five: 10, seven: 20, at: 0)
        try status(e, Self.alice, cost: 1.0, five: 12, seven: 21, at: 60, pid: alicePID)   // 5h +2: alice
        try status(e, Self.bob, cost: 0.5, five: 13, seven: 21, at: 120)                   // 5h +1: bob
        try status(e, Self.alice, cost: 2.0, five: 15, seven: 22, at: 180, pid: alicePID)  // 5h +2: alice
        try status(e, Self.bob, cost: 1.0, five: 15, seven: 22, at: 240)                   // spent, no rise yet
        try status(e, Self.alice, cost: 3.0, five: 14, seven: 22, at: 270, pid: alicePID)  // spent; an older number
        try fetch(e, five: 18, seven: 22, at: 300)                                          // 5h +3: alice 2, bob 1
    }

    func rows(_ e: EndToEnd, _ arguments: [String]) throws -> [[String: Any]] {
        let run = try e.run(["history"] + arguments + ["--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        return try #require(object["rows"] as? [[String: Any]])
    }

    func events(_ path: String) throws -> [[String: Any]] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    @Test func risesGoToTheSessionsThatSpentInProportionAndTheRestElsewhere() throws {
        let (e, eventsFile) = try Self.setUp()
        try e.sandbox.extra["ELBOWROOM_PROC_ROOT"] = Self.quietProc(e)
        try twoSessions(e)
        try fetch(e, five: 26, seven: 22, at: 360)  // +8 with nobody here spending: held for its grace,
        #expect(try e.run(["notify", "--offline"]).stdout == "")
        try fetch(e, five: 26, seven: 22, at: 700)  // which is over at the next reading: elsewhere
        at(e, 720)

        let bySession = try rows(e, ["--by", "session"])
        let table = bySession.map { "\($0["key"]!) \($0["points"]!) \($0["share"]!) \($0["cost"]!)" }
        #expect(table == ["elsewhere 8 50 <null>", "\(Self.alice) 6 37.5 3", "\(Self.bob) 2 12.5 1"])
        #expect(bySession[1]["project"] as? String == "/work/app")
        #expect(bySession[1]["model"] as? String == "Opus 4.5")
        #expect(bySession[2]["project"] as? String == "/work/web")
        let byModel = try rows(e, ["--by", "model"]).map { "\($0["key"]!) \($0["points"]!)" }
        #expect(byModel == ["elsewhere 8", "Opus 4.5 6", "Sonnet 4.5 2"])
        let byProject = try rows(e, ["--by", "project", "--window", "7d"]).map { "\($0["key"]!) \($0["points"]!)" }
        #expect(byProject.first?.hasPrefix("/work/app ") == true, "\(byProject)")

        let text = try e.run(["history", "--by", "session"])
        #expect(text.stdout == """
            5h since 2027-01-14T08:12:00Z, by session
            session     points  share  cost     last_seen             project    model
            elsewhere        8    50%  -        2027-01-15T08:06:00Z
            aaaaaaaa         6    38%  $3.00    2027-01-15T08:05:00Z  /work/app  Opus 4.5
            bbbbbbbb         2    13%  $1.00    2027-01-15T08:05:00Z  /work/web  Sonnet 4.5

            """, "\(text.stdout)")

        // The elsewhere event, once, with its points and interval.
        let first = try e.run(["notify", "--offline"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "notified: Claude Session: 8 points used elsewhere (elsewhere)\n")
        let again = try e.run(["notify", "--offline"])
        #expect(again.stdout == "")
        let sent = try events(eventsFile)
        #expect(sent.count == 1)
        #expect(sent.first?["event"] as? String == "elsewhere")
        #expect(sent.first?["points"] as? Double == 8)
        #expect(sent.first?["interval"] as? Double == 60)
        #expect(sent.first?["from"] as? String == "2027-01-15T08:05:00Z")
        #expect(sent.first?["to"] as? String == "2027-01-15T08:06:00Z")

        // The template's top consumer, and doctor's word on the week.
        let top = try e.run(["--offline", "-t", "{5h.top} {5h.top_share}%"])
        #expect(top.stdout == "elsewhere 50%\n", "\(top.stdout)")
        let doctor = try e.run(["doctor", "--offline"])
        #expect(doctor.stdout.contains("usage from elsewhere in the last 7 days: 5h 8 points"), "\(doctor.stdout)")
    }

    @Test func aLocalClaudeWithoutAStatusLineIsNoFalseElsewhere() throws {
        // Two real processes named claude of this user: one a session that sends its status line
        // (its CLAUDE_PID comes with it), the other a `claude -p` that sends none. elbowroom sees
        // them in the sandbox's process table alone (`setUp`).
        let (e, eventsFile) = try Self.setUp()
        let bin = e.sandbox.root + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        // With cp, not in this process: a test that forks meanwhile would inherit the copy's
        // open write descriptor, and running the copy would fail with ETXTBSY.
        #expect(try BoundedRun.run("/bin/cp", ["/bin/sleep", bin + "/claude"], environment: [:], seconds: 30).status == 0)
        let interactive = try Self.startClaude(e, bin + "/claude")
        defer { kill(interactive.processIdentifier, SIGKILL); interactive.waitUntilExit() }
        try twoSessions(e, alicePID: interactive.processIdentifier)
        try fetch(e, five: 22, seven: 22, at: 360)  // +4, the interactive session is idle: elsewhere
        try fetch(e, five: 22, seven: 22, at: 660)  // (once its grace is over)
        let headless = try Self.startClaude(e, bin + "/claude")
        defer { kill(headless.processIdentifier, SIGKILL); headless.waitUntilExit() }
        try fetch(e, five: 30, seven: 23, at: 720)  // +8 while the headless run spends: local
        try fetch(e, five: 30, seven: 23, at: 1100)
        at(e, 1150)

        let bySession = try rows(e, ["--by", "session"]).map { "\($0["key"]!) \($0["points"]!)" }
        #expect(bySession == ["local 8", "\(Self.alice) 6", "elsewhere 4", "\(Self.bob) 2"], "\(bySession)")
        let run = try e.run(["notify", "--offline"])
        #expect(run.stdout == "", "elsewhere_points is 5: 4 points elsewhere, 8 local: nothing to say")
        #expect(try events(eventsFile).isEmpty)
    }

    @Test func withoutAnyStatusLineTheRisesAreUnknownNeverElsewhere() throws {
        let (e, eventsFile) = try Self.setUp()
        try e.sandbox.extra["ELBOWROOM_PROC_ROOT"] = Self.quietProc(e)
        try fetch(e, five: 10, seven: 20, at: 0)
        try fetch(e, five: 30, seven: 25, at: 600)
        try fetch(e, five: 30, seven: 25, at: 1000)
        at(e, 1100)
        let bySession = try rows(e, ["--by", "session"]).map { "\($0["key"]!) \($0["points"]!)" }
        #expect(bySession == ["unknown 20"])
        let run = try e.run(["notify", "--offline"])
        #expect(run.stdout == "")
        #expect(try events(eventsFile).isEmpty)
    }

    @Test func aStatusLineThatRepeatsItselfWritesNothing() throws {
        let (e, _) = try Self.setUp()
        try status(e, Self.alice, cost: 1.0, five: 12, seven: 21, at: 0)
        let cache = e.sandbox.paths.cacheFile
        let before = try FileManager.default.attributesOfItem(atPath: cache)[.modificationDate] as? Date
        let inode = try FileManager.default.attributesOfItem(atPath: cache)[.systemFileNumber] as? Int
        try status(e, Self.alice, cost: 1.0, five: 12, seven: 21, at: 30)
        #expect(try FileManager.default.attributesOfItem(atPath: cache)[.systemFileNumber] as? Int == inode,
                "the same session numbers and windows again: the cache is not replaced")
        _ = before
        try status(e, Self.alice, cost: 1.5, five: 12, seven: 21, at: 60)
        #expect(try FileManager.default.attributesOfItem(atPath: cache)[.systemFileNumber] as? Int != inode,
                "the session spent: its state moves")
    }

    /// A year and more of days through the built program: two sessions a day, the summaries
    /// rolled up as they go; `history --daily` shows 400 days, and the file stays small.
    @Test func fourHundredDaysOfSummaries() throws {
        let (e, _) = try Self.setUp()
        try e.sandbox.writeConfig("source = \"statusline\"\n")
        let days = 402
        var cost = [0.0, 0.0]
        for day in 0..<days {
            let base = day * 86400
            let reset = Self.start + base + 5 * 3600
            for (i, session) in [Self.alice, Self.bob].enumerated() {
                cost[i] += 1
                e.sandbox.extra["ELBOWROOM_NOW"] = String(Self.start + base + 3600 * (i + 1))
                let stdin = #"{"session_id":"\#(session)-\#(day % 9)","cwd":"/work/p\#(day % 5)","model":{"display_name":"Opus 4.5"},"#
                    + #""cost":{"total_cost_usd":\#(cost[i])},"rate_limits":{"five_hour":{"used_percentage":\#(10 + 20 * i),"resets_at":\#(reset)}}}"#
                let run = try e.run(["-a", "claude", "--offline"], stdin: stdin)
                #expect(run.status == 0)
            }
            if day % 6 == 5 {
                e.sandbox.extra["ELBOWROOM_NOW"] = String(Self.start + base + 86000)
                #expect(try e.run(["history", "--daily", "--since", "1d"]).status == 0)
            }
        }
        e.sandbox.extra["ELBOWROOM_NOW"] = String(Self.start + (days - 1) * 86400 + 3 * 3600)
        let csv = try e.run(["history", "--daily", "--since", "400d", "--csv"])
        #expect(csv.status == 0, "\(csv.stderr)")
        let lines = csv.stdout.split(separator: "\n")
        #expect(lines.count == 1 + 401, "a header and 401 days (400 days back and today)")
        #expect(lines.dropFirst().allSatisfy { $0.contains(",five_hour,5h,30,") }, "\(lines.prefix(3))")
        let daily = DailyArchive(historyFile: e.sandbox.paths.historyFile)
        let size = try #require(FileSystem.size(of: daily.file))
        #expect(size < 300_000, "\(size) bytes")
        let stored = daily.load().storedDays
        #expect(stored.count >= 400)
        let log = try #require(FileSystem.size(of: AttributionLog(historyFile: e.sandbox.paths.historyFile).file))
        #expect(log < 20_000, "the attribution log keeps 8 days: \(log) bytes")
    }
}
