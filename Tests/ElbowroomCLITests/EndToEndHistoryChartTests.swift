import Foundation
import ElbowroomCore
import ElbowroomTestSupport
import Testing

/// `elbowroom history --chart`, through the built program with a pinned clock.
@Suite struct EndToEndHistoryChartTests {
    static let now: Int64 = 1_800_000_000

    /// A day of samples every 10 minutes: the session window fills from 0 to ~97 % over each of
    /// its five-hour instances (resets 5, 10, 15 and 20 hours into the day), the weekly one
    /// climbs slowly from 20 %.
    static func seed(_ e: EndToEnd, now: Int64 = Self.now, days: Int64 = 1) throws {
        let store = HistoryStore(paths: e.sandbox.paths)
        let start = now - days * 86400
        var t = start
        while t <= now {
            let intoInstance = (t - start) % (5 * 3600)
            let reset = t - intoInstance + 5 * 3600
            let date = Date(timeIntervalSince1970: TimeInterval(t))
            let windows = [
                UsageWindow(key: "five_hour", used: Double(intoInstance) / (5 * 3600) * 100,
                            resetsAt: Date(timeIntervalSince1970: TimeInterval(reset)), observedAt: date),
                UsageWindow(key: "seven_day", used: 20 + Double(t - start) / 86400 * 10 / Double(days),
                            resetsAt: Date(timeIntervalSince1970: TimeInterval(now + 3 * 86400)), observedAt: date),
            ]
            try store.record(Reading(windows: windows, fetchedAt: date, source: .api))
            t += 600
        }
    }

    static func chart(_ e: EndToEnd, _ arguments: [String], columns: Int, extra: [String: String] = [:]) throws -> EndToEnd.Run {
        e.sandbox.extra["ELBOWROOM_NOW"] = String(now)
        e.sandbox.extra["COLUMNS"] = String(columns)
        for (k, v) in extra { e.sandbox.extra[k] = v }
        return try e.run(["history", "--chart"] + arguments)
    }

    @Test func onePanelPerWindowAsWideAsColumnsWithTheResetsMarked() throws {
        let e = try EndToEnd(usage: .hang)
        try Self.seed(e)
        let run = try Self.chart(e, ["--since", "24h"], columns: 60)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.allSatisfy { $0.count <= 60 }, "a line wider than COLUMNS")
        #expect(lines.filter { $0.hasSuffix("UTC") }
            == ["5h used %, 2027-01-14 08:00 to 2027-01-15 08:00 UTC", "7d used %, 2027-01-14 08:00 to 2027-01-15 08:00 UTC"])
        let axes = lines.filter { $0.hasPrefix("  0└") }
        #expect(axes.count == 2)
        #expect(axes.allSatisfy { $0.count == 60 }, "the plot fills the width")
        // Four resets of the session window in the day; the weekly one resets later.
        #expect(axes[0].filter { $0 == "↻" }.count == 4)
        #expect(axes[1].filter { $0 == "↻" }.count == 0)
        // The session window's top row is reached (97 % is in the 87.5–100 row), the weekly's is not.
        let tops = lines.filter { $0.hasPrefix("100┤") }
        #expect(tops.count == 2)
        #expect(tops[0].contains { "▁▂▃▄▅▆▇█".contains($0) })
        #expect(!tops[1].contains { "▁▂▃▄▅▆▇█".contains($0) })
        // Readable without colour: on a pipe there is none.
        #expect(!run.stdout.contains("\u{1B}"))
        #expect(run.stdout.contains("   ┤█"))
    }

    @Test func theWindowTheRangeAndTheColourAreTheUsers() throws {
        let e = try EndToEnd(usage: .hang)
        try Self.seed(e)
        let one = try Self.chart(e, ["--window", "5h", "--since", "48h"], columns: 100)
        let lines = one.stdout.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasSuffix("UTC") } == ["5h used %, 2027-01-13 08:00 to 2027-01-15 08:00 UTC"])
        // The first day has no samples: its half of every row is blank.
        let axis = try #require(lines.firstIndex { $0.hasPrefix("  0└") })
        let bottom = lines[axis - 1]
        let cells = Array(bottom.dropFirst(4))
        #expect(cells.count == 96)
        #expect(cells.prefix(47).allSatisfy { $0 == " " }, "\(bottom)")
        #expect(cells.suffix(40).allSatisfy { $0 != " " }, "\(bottom)")
        // Colour when forced, by the headroom left (green ok, then yellow and red as it fills).
        let coloured = try Self.chart(e, ["--window", "5h"], columns: 80, extra: ["CLICOLOR_FORCE": "1"])
        #expect(coloured.stdout.contains("\u{1B}[32m") && coloured.stdout.contains("\u{1B}[33m"))
        let plain = try Self.chart(e, ["--window", "5h"], columns: 80, extra: ["CLICOLOR_FORCE": "1", "NO_COLOR": "1"])
        #expect(!plain.stdout.contains("\u{1B}"))
        e.sandbox.extra["CLICOLOR_FORCE"] = nil
        e.sandbox.extra["NO_COLOR"] = nil
        #expect(try e.run(["history", "--chart", "--color", "always"]).stdout.contains("\u{1B}[32m"))
        e.sandbox.extra["CLICOLOR_FORCE"] = "1"
        #expect(!(try e.run(["history", "--chart", "--color", "never"]).stdout.contains("\u{1B}")))
        // Wider terminal, wider chart.
        let wide = try Self.chart(e, ["--window", "7d"], columns: 150)
        #expect(wide.stdout.split(separator: "\n").contains { $0.hasPrefix("  0└") && $0.count == 150 })
        #expect(try e.run(["history", "--chart", "--json"]).status == 2)
    }

    /// Past the 8 days of samples, the daily summaries: each day's peak, its resets marked.
    @Test func aLongRangeChartsEachDaysPeak() throws {
        let e = try EndToEnd(usage: .hang)
        try Self.seed(e, days: 7)
        let run = try Self.chart(e, ["--window", "5h", "--since", "30d"], columns: 64)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "5h peak used % per day, 2026-12-16 08:00 to 2027-01-15 08:00 UTC", "\(run.stdout)")
        let axis = try #require(lines.first { $0.hasPrefix("  0└") })
        #expect(axis.count == 64)
        #expect(axis.contains("↻"), "\(axis)")
        // The first three weeks have no data; the last week peaks near the top every day.
        let top = try #require(lines.first { $0.hasPrefix("100┤") })
        #expect(Array(top.dropFirst(4)).prefix(40).allSatisfy { $0 == " " }, "\(top)")
        #expect(top.suffix(10).contains { $0 != " " }, "\(top)")
        #expect(try e.run(["history", "--chart", "--by", "model"]).status == 2)
    }

    @Test func nothingInRangeSaysSo() throws {
        let e = try EndToEnd(usage: .hang)
        let run = try Self.chart(e, [], columns: 80)
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("no usage samples in the last 1d"))
    }
}
