import Foundation
import Testing
import ElbowroomCore

/// When a notification is due, and that each crossing is due once per window instance.
@Suite struct NotifyPlannerTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let reset = now.addingTimeInterval(7200)

    /// Plans against a cache holding `windows`, carrying the ledger along like the cache does.
    final class Run {
        var ledger = NotifyLedger()
        var settings = NotifySettings()
        var config = Config()

        func plan(_ windows: [UsageWindow], now: Date = NotifyPlannerTests.now) -> [String] {
            let reading = Reading(windows: windows, fetchedAt: now, source: .api)
            let cache = CacheFile(account: "t", reading: reading)
            let view = UsageView(cache: cache, now: now, config: config)
            // The ledger travels through the cache as lines.
            let stored = NotifyLedger(lines: ledger.lines)
            let result = NotifyPlanner.plan(reading: reading, view: view, ledger: stored, settings: settings)
            ledger = result.ledger
            return result.events.map { "\($0.window.name) \($0.kind.rawValue)" }
        }
    }

    static func five(_ used: Double, resetsAt: Date? = reset, at: Date = now) -> UsageWindow {
        // Observed with the window half gone, so the average-rate eta says it lasts (below 50 %).
        UsageWindow(key: "five_hour", used: used, resetsAt: resetsAt, observedAt: at)
    }

    @Test func eachThresholdNotifiesOnceInAWindow() {
        let run = Run()
        #expect(run.plan([Self.five(30)]) == [])
        #expect(run.plan([Self.five(76)]).contains("5h warn"))
        #expect(!run.plan([Self.five(80)]).contains("5h warn"))
        #expect(run.plan([Self.five(91)]).contains("5h critical"))
        #expect(run.plan([Self.five(100)]) == ["5h exhausted"])
        #expect(run.plan([Self.five(100)]) == [])
    }

    @Test func aJumpPastSeveralThresholdsNotifiesOnceForTheHighest() {
        let run = Run()
        #expect(run.plan([Self.five(100)]) == ["5h exhausted"])
        #expect(run.ledger.entries.first?.claimed == [.warn, .critical, .exhausted])
    }

    @Test func runsOutNotifiesTheFirstTimeTheEtaFallsBeforeTheReset() {
        let run = Run()
        // Three hours into a five-hour window at 60 %: 20 %/h, 40 % left lasts 2 h = the reset.
        #expect(run.plan([Self.five(30)]) == [])
        // At 72 %: 24 %/h, 28 % left lasts 70 minutes, before the reset in 2 h.
        let events = run.plan([Self.five(72)])
        #expect(events == ["5h runs_out"])
        #expect(run.plan([Self.five(73)]) == [])
    }

    @Test func aResetNotifiesWhenItsTimePassesOrALaterWindowArrives() {
        let run = Run()
        run.settings.set(.reset, true)
        _ = run.plan([Self.five(40)])
        // The reset time passes with no new data: the window shows as reset.
        #expect(run.plan([Self.five(40)], now: Self.reset.addingTimeInterval(5)) == ["5h reset"])
        #expect(run.plan([Self.five(40)], now: Self.reset.addingTimeInterval(65)) == [])
        // New data for the next window: no second reset, and its crossings notify afresh.
        let next = Self.reset.addingTimeInterval(5 * 3600)
        #expect(run.plan([Self.five(80, resetsAt: next, at: Self.reset.addingTimeInterval(600))],
                         now: Self.reset.addingTimeInterval(600)).contains("5h warn"))

        // A later window arriving before the old reset time was seen to pass.
        let other = Run()
        other.settings.set(.reset, true)
        _ = other.plan([Self.five(95)])
        #expect(other.plan([Self.five(3, resetsAt: next, at: Self.reset.addingTimeInterval(60))],
                           now: Self.reset.addingTimeInterval(60)) == ["5h reset"])
    }

    @Test func aWindowFirstSeenAfterItsResetDoesNotNotify() {
        let run = Run()
        run.settings.set(.reset, true)
        #expect(run.plan([Self.five(80)], now: Self.reset.addingTimeInterval(10)) == [])
        #expect(run.plan([Self.five(80)], now: Self.reset.addingTimeInterval(20)) == [])
    }

    @Test func aDisabledEventIsClaimedSilentlySoEnablingItLaterReplaysNothing() {
        let run = Run()
        run.settings.set(.warn, false)
        run.settings.set(.runsOut, false)
        #expect(run.plan([Self.five(80)]) == [])
        run.settings.set(.warn, true)
        #expect(run.plan([Self.five(81)]) == [])
        #expect(run.plan([Self.five(95)]) == ["5h critical"])
    }

    @Test func theResetTimeMayWobbleByAMinuteAndStillBeTheSameWindow() {
        let run = Run()
        _ = run.plan([Self.five(80)])
        #expect(run.plan([Self.five(81, resetsAt: Self.reset.addingTimeInterval(40))]) == [])
    }

    @Test func theLedgerReadsBackWhatItWroteAndDropsWhatItCannotRead() {
        let ledger = NotifyLedger(lines: ["five_hour 1800007200 warn,critical", "seven_day - ", "bad", "x 1 nonsense"])
        #expect(ledger.entries.count == 2)
        #expect(ledger.lines == ["five_hour 1800007200 warn,critical", "seven_day - "])
    }

    @Test func thresholdsComeFromTheConfig() throws {
        let run = Run()
        run.config = try Config.parse("[thresholds]\nwarn = 50\ncritical = 20\n", file: "c")
        #expect(run.plan([Self.five(55)]) == ["5h warn"])
    }

    @Test func unusedNotifiesOnceInTheLastHourWithHalfOrMoreLeft() {
        let run = Run()
        // Two hours before the reset with 60 % left: not yet.
        #expect(run.plan([Self.five(40)]) == [])
        // 52 minutes before it: use it or lose it, once.
        let late = Self.reset.addingTimeInterval(-52 * 60)
        #expect(run.plan([Self.five(40, at: late)], now: late) == ["5h unused"])
        #expect(run.plan([Self.five(41, at: late)], now: late.addingTimeInterval(60)) == [])
        // The next window instance may say it again.
        let next = Self.reset.addingTimeInterval(5 * 3600)
        let nextLate = next.addingTimeInterval(-600)
        #expect(run.plan([Self.five(10, resetsAt: next, at: nextLate)], now: nextLate) == ["5h unused"])
        // Less than half left: nothing.
        let busy = Run()
        #expect(busy.plan([Self.five(55, at: late)], now: late).contains("5h unused") == false)
    }

    @Test func unusedTakesItsWindowAndShareFromTheConfig() throws {
        let run = Run()
        let config = try Config.parse("[notify]\nunused_before = \"3h\"\nunused_left = 70\n", file: "c")
        run.settings = config.notify
        #expect(run.settings.unusedBefore == 3 * 3600 && run.settings.unusedLeft == 70)
        #expect(run.plan([Self.five(35)]) == [])
        #expect(run.plan([Self.five(30)]) == ["5h unused"])
        #expect(try Config.parse("[notify]\nunused_before = 5400\n", file: "c").notify.unusedBefore == 5400)
        #expect(throws: ConfigError.self) { try Config.parse("[notify]\nunused_before = \"soon\"\n", file: "c") }
        #expect(throws: ConfigError.self) { try Config.parse("[notify]\nunused_left = 150\n", file: "c") }
        let off = Run()
        off.settings = try Config.parse("[notify]\nunused = false\n", file: "c").notify
        let late = Self.reset.addingTimeInterval(-600)
        #expect(off.plan([Self.five(10, at: late)], now: late) == [])
        #expect(off.ledger.entries.first?.has(.unused) == true, "claimed silently")
    }
}
