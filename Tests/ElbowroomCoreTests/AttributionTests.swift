import Foundation
@testable import ElbowroomCore
import Testing

@Suite struct AttributionTests {
    static let reset = Date(timeIntervalSince1970: 1_800_007_200)

    static func five(_ used: Double, reset: Date = reset) -> [UsageWindow] {
        [UsageWindow(key: "five_hour", used: used, resetsAt: reset, observedAt: Date(timeIntervalSince1970: 1_800_000_000))]
    }

    static func report(_ id: String, _ dollars: Double) -> AttributionState.SessionReport {
        AttributionState.SessionReport(id: id, cost: AttributionState.micros(dollars), tokens: 0, project: "/p/" + id)
    }

    @Test func aRiseGoesToTheSessionsThatSpentInProportion() {
        var s = AttributionState()
        _ = s.observe(nil, windows: Self.five(10), at: 0, fromStatusLine: false)
        _ = s.observe(Self.report("a", 1), windows: [], at: 10, fromStatusLine: true)
        _ = s.observe(Self.report("b", 3), windows: [], at: 20, fromStatusLine: true)
        let rises = s.observe(nil, windows: Self.five(18), at: 30, fromStatusLine: false)
        #expect(rises.count == 1)
        #expect(rises[0].from == 0 && rises[0].points == 8)
        #expect(rises[0].shares.map(\.who) == ["a", "b"])
        #expect(rises[0].shares.map(\.points) == [2, 6])
        // Used up: the next rise with nobody spending waits its grace, then is elsewhere.
        #expect(s.observe(nil, windows: Self.five(21), at: 40, fromStatusLine: false, silentLocalClaude: { false }).isEmpty)
        let next = s.observe(nil, windows: Self.five(21), at: 40 + AttributionState.grace, fromStatusLine: false,
                             silentLocalClaude: { false })
        #expect(next[0].shares.map(\.who) == ["elsewhere"])
        #expect(next[0].at == 40 && next[0].from == 30)
        #expect(s.runs.map(\.points) == [3])
        #expect(s.top(key: "five_hour", resetsAt: 1_800_007_200)?.who == "b")
        #expect(s.label("b") == "b")
    }

    /// The fetcher reads the server's number while a session's answer still streams; the
    /// session's status line (and its cost) comes when the answer is done: the rise is its.
    @Test func aRiseTheFetcherSeesFirstWaitsForTheSessionsStatusLine() {
        var s = AttributionState()
        _ = s.observe(Self.report("a", 1), windows: Self.five(10), at: 0, fromStatusLine: true)
        #expect(s.observe(Self.report("a", 2), windows: Self.five(12), at: 30, fromStatusLine: true).map(\.points) == [2])
        #expect(s.observe(nil, windows: Self.five(16), at: 60, fromStatusLine: false, silentLocalClaude: { false }).isEmpty)
        let rises = s.observe(Self.report("a", 3), windows: Self.five(16), at: 90, fromStatusLine: true)
        #expect(rises.map(\.points) == [4])
        #expect(rises.first?.shares.map(\.who) == ["a"])
        #expect(s.runs.isEmpty)
        // And one the status line's own numbers carry further: both go to the session.
        #expect(s.observe(nil, windows: Self.five(20), at: 120, fromStatusLine: false, silentLocalClaude: { false }).isEmpty)
        let more = s.observe(Self.report("a", 4), windows: Self.five(22), at: 150, fromStatusLine: true)
        #expect(more.map(\.points) == [6] && more.first?.from == 60 && more.first?.shares.map(\.who) == ["a"])
    }

    @Test func aLowerNumberIsNoRiseAndAResetStartsAfresh() {
        var s = AttributionState()
        _ = s.observe(Self.report("a", 1), windows: Self.five(40), at: 0, fromStatusLine: true)
        #expect(s.observe(Self.report("a", 2), windows: Self.five(38), at: 10, fromStatusLine: true).isEmpty,
                "an older session's older number")
        let later = Date(timeIntervalSince1970: 1_800_025_200)
        let rises = s.observe(Self.report("a", 3), windows: Self.five(4, reset: later), at: 20, fromStatusLine: true)
        #expect(rises.map(\.points) == [4], "a new window instance rises from 0")
        #expect(s.tallies.map(\.points) == [4], "the old instance's tallies are gone")
    }

    @Test func noStatusLineEverIsUnknownAndASilentClaudeIsLocal() {
        var s = AttributionState()
        _ = s.observe(nil, windows: Self.five(10), at: 0, fromStatusLine: false)
        #expect(s.observe(nil, windows: Self.five(15), at: 10, fromStatusLine: false, silentLocalClaude: { false })[0].shares[0].who == "unknown")
        _ = s.observe(Self.report("a", 1), windows: [], at: 20, fromStatusLine: true)
        _ = s.observe(nil, windows: Self.five(16), at: 30, fromStatusLine: false)
        #expect(s.observe(nil, windows: Self.five(20), at: 40, fromStatusLine: false, silentLocalClaude: { true })[0].shares[0].who == "local")
        #expect(s.runs.isEmpty)
    }

    @Test func theStateReadsBackAsWrittenAndARepeatedStatusLineIsKnown() {
        var s = AttributionState()
        let a = AttributionState.SessionReport(id: "abc-1", pid: 42, cost: 1_250_000, tokens: 900, model: "Opus 4", project: "/home/u/my app")
        _ = s.observe(a, windows: Self.five(10), at: 0, fromStatusLine: true)
        _ = s.observe(a, windows: Self.five(12), at: 5, fromStatusLine: true)
        _ = s.observe(nil, windows: Self.five(20), at: 9, fromStatusLine: false)
        #expect(AttributionState(lines: s.lines) == s && AttributionState(text: s.text) == s)
        #expect(AttributionState.knows(a, in: s.text))
        var moved = a
        moved.tokens += 1
        #expect(!AttributionState.knows(moved, in: s.text))
        var other = a
        other.id = "abc"
        #expect(!AttributionState.knows(other, in: s.text), "a session whose id is the start of another's")
        #expect(AttributionState.knows(a, in: "s abc-1 1250000 900 42 0 1 Opus 4\t/p"), "on the first line too")
        #expect(AttributionState(lines: s.lines).label("abc-1") == "my app")
    }

    @Test func aLogLineReadsBack() {
        let rise = AttributionState.Rise(at: 100, key: "five_hour", resetsAt: nil, from: 40, points: 2.5, shares: [
            .init(who: "s-1", points: 2, cost: 30), .init(who: "elsewhere", points: 0.5, cost: 0)])
        let contents = AttributionLog.parse(AttributionLog.header + "\ni s-1 Opus 4\t/p\n" + AttributionLog.line(rise))
        #expect(contents.rises == [rise])
        #expect(contents.info("s-1") == AttributionLog.Info(model: "Opus 4", project: "/p"))
    }

    /// The largest day lines the summaries write (every kind at its cap, long names), for 450
    /// days of four windows: within `maxBytes`, and `maintain` drops the oldest before passing it.
    @Test func aYearOfFullSummariesStaysWithinItsBound() {
        var file = DailySummary.File()
        for day in Int64(20000)..<20450 {
            for key in ["five_hour", "seven_day", "seven_day_opus", "seven_day_sonnet"] {
                var entries: [DailySummary.Entry] = []
                for kind: Character in ["s", "m", "p"] {
                    for i in 0..<4 { entries.append(.init(kind: kind, name: i == 3 ? "other" : "name-\(kind)-\(i)-abcdefgh", points: 12.34, cost: 1_234_567)) }
                }
                entries.append(.init(kind: "x", name: "elsewhere", points: 3.21, cost: 0))
                file.days.append(DailySummary(day: day, key: key, peak: 87.5, points: 40.25, resets: [day * 86400 + 3600], entries: entries))
            }
            for i in 0..<3 { file.sessions.append((day, "abcdef0\(i)", AttributionLog.Info(model: "Opus 4.5", project: "~/code/project-\(i)"))) }
        }
        let data = file.encoded()
        let back = DailySummary.File.parse(String(decoding: data, as: UTF8.self))
        #expect(back.days == file.days)
        #expect(back.storedDays.count == 450)
        // Four windows, every list at its cap: over the bound, which maintain enforces by days.
        #expect(data.count > DailySummary.maxBytes / 2)
        let twoWindows = DailySummary.File.parse(String(decoding: data, as: UTF8.self))
        var small = twoWindows
        small.days.removeAll { $0.key == "seven_day_opus" || $0.key == "seven_day_sonnet" }
        #expect(small.encoded().count < DailySummary.maxBytes, "\(small.encoded().count) bytes for 450 days of two full windows")
    }

    @Test func namesWithSpacesAndSeparatorsRoundTrip() {
        let d = DailySummary(day: 1, key: "five_hour", peak: 1, points: 1, resets: [], entries: [
            .init(kind: "p", name: "~/my dir=a:b%c ü", points: 1, cost: 2)])
        #expect(DailySummary(line: Substring(d.line)) == d)
    }
}
