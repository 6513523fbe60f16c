import Foundation
import ElbowroomCore
import ElbowroomTestSupport
import Testing

/// `elbowroom guard --until`: waits for headroom through the built program, against real resets
/// a couple of seconds ahead and the loopback stand-in for Anthropic.
@Suite struct EndToEndGuardUntilTests {
    /// A cache with the session window `used` % used, resetting `resetIn` seconds from now, the
    /// data `age` seconds old.
    static func seed(_ e: EndToEnd, used: Double, resetIn: TimeInterval, age: TimeInterval = 0) throws {
        let now = Date()
        try SeededCache.save([("five_hour", used, now.addingTimeInterval(resetIn)), ("seven_day", 20, now.addingTimeInterval(3 * 86400))],
                             observed: now.addingTimeInterval(-age), paths: e.sandbox.paths)
    }

    @Test func waitsForARealResetAndWakesWhenItComes() throws {
        let e = try EndToEnd(usage: .hang)
        try Self.seed(e, used: 95, resetIn: 2.5)
        let run = try #require(try runBounded(e.elbowroom, ["guard", "--until", "--window", "5h", "--min-left", "10", "--timeout", "30"],
                                              environment: e.sandbox.environment, seconds: 20))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.seconds >= 1.5 && run.seconds < 6, "woke after \(run.seconds) s for a reset 2.5 s ahead")
        // On a pipe: the final line alone, no countdown, no carriage return.
        #expect(run.stderr == "elbowroom: guard: 5h has 100% left, at least 10%\n")
        #expect(e.usageRequests == 0, "fresh data: nothing to fetch")
    }

    @Test func freshDataFromTheStandInEndsTheWaitAndNoFetchComesSoonerThanARenderWould() throws {
        let e = try EndToEnd(usage: .json(200, EndToEnd.usageBody(fiveHour: 30, sevenDay: 20)))
        // The data is due for a refresh 2 seconds from now (max_age 3, 1 s old).
        try e.sandbox.writeConfig("timeout = 3\nmax_age = 3\n")
        try Self.seed(e, used: 95, resetIn: 3600, age: 1)
        let run = try #require(try runBounded(e.elbowroom, ["guard", "--until", "--min-left", "50", "--timeout", "30"],
                                              environment: e.sandbox.environment, seconds: 20))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.seconds >= 1.5 && run.seconds < 8, "\(run.seconds) s")
        #expect(run.stderr == "elbowroom: guard: 5h has 70% left, at least 50%, the least of 2 windows\n")
        #expect(e.usageRequests == 1)
    }

    @Test func givesUpAtItsTimeoutWithOneAndAsksOnlyWhenARenderWould() throws {
        // Every answer still shows too little left.
        let e = try EndToEnd(usage: .json(200, EndToEnd.usageBody(fiveHour: 97, sevenDay: 20)))
        try e.sandbox.writeConfig("timeout = 3\nmax_age = 2\n")
        try Self.seed(e, used: 97, resetIn: 3600, age: 0)
        let run = try #require(try runBounded(e.elbowroom, ["guard", "--until", "--window", "5h", "--min-left", "10", "--timeout", "5s"],
                                              environment: e.sandbox.environment, seconds: 20))
        #expect(run.status == 1)
        #expect(run.seconds >= 4.5 && run.seconds < 9, "\(run.seconds) s")
        #expect(run.stderr.hasPrefix("elbowroom: guard: gave up after 5s: 5h has 3% left, below 10%, resets "), "\(run.stderr)")
        // max_age 2 in 5 s is at most 3 fetches; the respawn guard of 15 s after a start makes it fewer.
        #expect(e.usageRequests >= 1 && e.usageRequests <= 3, "\(e.usageRequests) requests")
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalEndsItAtOnce(_ sig: Int32) throws {
        let e = try EndToEnd(usage: .hang)
        try Self.seed(e, used: 95, resetIn: 3600)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: e.elbowroom)
        process.arguments = ["guard", "--until", "--min-left", "10"]
        process.environment = e.sandbox.environment
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Asleep in its wait (a reset an hour away, nothing due) before the signal: it sleeps,
        // it does not spin (its own reads of the cache must not wake it).
        usleep(1_500_000)
        #expect(process.isRunning)
        let stat = try String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8)
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        let ticks = fields.count > 13 ? (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0) : 0
        #expect(ticks < 30, "\(ticks) clock ticks of CPU in 1.5 s of waiting")
        let sent = Date()
        kill(process.processIdentifier, sig)
        #expect(Eventually.within(2) { !process.isRunning }, "still waiting after the signal")
        #expect(Date().timeIntervalSince(sent) < 1)
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + sig)
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(text == "elbowroom: guard: stopped by \(sig == SIGINT ? "SIGINT" : "SIGTERM") before enough was left\n")
    }

    @Test func noDataAtAllStillExits69() throws {
        // No cache, and the stand-in refuses: the fetch it starts brings nothing.
        let e = try EndToEnd(usage: .json(500, "{}"))
        let run = try #require(try runBounded(e.elbowroom, ["guard", "--until", "--timeout", "1m"],
                                              environment: e.sandbox.environment, seconds: 20))
        #expect(run.status == 69, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("elbowroom: guard: no usage data yet"), "\(run.stderr)")
        let offline = try #require(try runBounded(e.elbowroom, ["guard", "--until", "--offline"],
                                                  environment: EndToEnd(usage: .hang).sandbox.environment, seconds: 5))
        #expect(offline.status == 69)
    }

    @Test func aTimeoutAloneWaitsToo() throws {
        let e = try EndToEnd(usage: .hang)
        try Self.seed(e, used: 95, resetIn: 3600)
        let run = try e.run(["guard", "--window", "5h", "--timeout", "1s"])
        #expect(run.status == 1)
        #expect(run.seconds >= 0.9)
        #expect(run.stderr.hasPrefix("elbowroom: guard: gave up after 1s: 5h has 5% left"), "\(run.stderr)")
        #expect(try e.run(["guard", "--until", "--timeout", "soon"]).stderr
            == "elbowroom: --timeout takes a duration such as 6h, 90m or 1h30m, not 'soon'\n")
    }

    /// On a terminal (a real tmux pane), one stderr line says what it waits for and counts down,
    /// in place; the final line replaces it.
    @Test(.enabled(if: TmuxScreen.available, "needs tmux"))
    func onATerminalTheLineSaysWhenTheNextFetchComesWhenThatIsSooner() throws {
        let e = try EndToEnd(usage: .hang)
        // max_age 600, the data 30 s old: the next fetch is due in 9m30s, the reset in an hour and 30 s.
        try e.sandbox.writeConfig("timeout = 3\nmax_age = 600\n")
        try Self.seed(e, used: 95, resetIn: 3630, age: 30)
        let screen = TmuxScreen()
        try screen.start("env -i \(e.envPrefix) \(EndToEnd.quote(e.elbowroom)) guard --until --window 5h --min-left 10; sleep 30")
        #expect(screen.waitFor("elbowroom: guard: waiting for 10% left (5h has 5%); resets in 1h; next fetch in 9m", seconds: 5),
                "\((try? screen.screen()) ?? "")")
    }

    @Test(.enabled(if: TmuxScreen.available, "needs tmux"))
    func onATerminalOneLineCountsDownInPlace() throws {
        let e = try EndToEnd(usage: .hang)
        try Self.seed(e, used: 95, resetIn: 4.5)
        let screen = TmuxScreen()
        let done = e.sandbox.root + "/done"
        try screen.start("env -i \(e.envPrefix) \(EndToEnd.quote(e.elbowroom)) guard --until --window 5h --min-left 10 --timeout 1h; echo \"exit $?\" > \(EndToEnd.quote(done)); sleep 30")
        #expect(screen.waitFor("elbowroom: guard: waiting for 10% left (5h has 5%); resets in ", seconds: 5), "\((try? screen.screen()) ?? "")")
        let first = try screen.screen()
        #expect(first.contains("; gives up in 1h"), "\(first)")
        // It counts down.
        #expect(Eventually.within(3) { ((try? screen.screen()) ?? "") != first })
        #expect(first.split(separator: "\n").filter { $0.contains("elbowroom") }.count == 1, "\(first)")
        #expect(Eventually.within(10) { FileManager.default.fileExists(atPath: done) })
        let last = try screen.screen()
        #expect((try? String(contentsOfFile: done, encoding: .utf8)) == "exit 0\n")
        let lines = last.split(separator: "\n").filter { $0.contains("elbowroom") }
        #expect(lines == ["elbowroom: guard: 5h has 100% left, at least 10%"], "\(last)")
    }
}
