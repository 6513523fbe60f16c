import Foundation
import Testing
import ElbowroomCore
import ElbowroomTestSupport
@testable import ElbowroomCLI

@Suite struct HistoryCommandTests {
    /// `templates check` renders against the same demo as `--demo`, its history included, so a
    /// template that shows the rate or a sparkline is not checked against empty values.
    @Test func templatesCheckShowsTheDemoRateAndSparklineAsDemoDoes() {
        let template = "{5h.rate|fixed(1)}%/h {5h.spark|spark(6)}"
        let s = CLISandbox()
        #expect(s.run("--demo", "-a", "plain", "-t", template) == 0)
        let demo = s.stdout.text
        s.stdout.clear()
        #expect(s.run("templates", "check", template) == 0)
        #expect(s.stdout.text == "ok: template renders against the demo reading as:\n" + demo)
        #expect(demo.contains("%/h ") && demo.count > "%/h \n".count + 6)
    }

    /// Feeds Claude Code status-line input at the sandbox clock, then moves the clock a minute.
    static func ingest(_ s: CLISandbox, fiveHour: Double, sevenDay: Double) {
        let now = Int(s.clock.now.timeIntervalSince1970)
        s.stdin = Data(#"{"rate_limits":{"five_hour":{"used_percentage":\#(fiveHour),"resets_at":\#(now - now % 3600 + 10800)},"seven_day":{"used_percentage":\#(sevenDay),"resets_at":\#(now - now % 3600 + 300_000)}}}"#.utf8)
        #expect(s.run("-a", "claude", "--offline") == 0)
        s.stdout.clear()
        s.clock.advance(by: 60)
    }

    @Test func statusLineIngestAppendsASamplePerWindowThatMoved() {
        let s = CLISandbox()
        Self.ingest(s, fiveHour: 10, sevenDay: 5)
        Self.ingest(s, fiveHour: 12, sevenDay: 5)
        Self.ingest(s, fiveHour: 12, sevenDay: 5)  // no news: no write at all
        let samples = HistoryStore(paths: s.paths).load().samples
        #expect(samples.map { "\($0.key) \(HistoryFile.percent($0.used))" } == ["five_hour 10", "seven_day 5", "five_hour 12"])
    }

    @Test func printsTheSamplesAsTextCSVOrJSON() {
        let s = CLISandbox()
        for used in [10.0, 11, 12.5] { Self.ingest(s, fiveHour: used, sevenDay: used / 2) }
        #expect(s.run("history") == 0)
        #expect(s.stdout.text == """
            time                  window  used   left   resets_at
            2026-11-22T14:00:00Z  5h      10     90     2026-11-22T17:00:00Z
            2026-11-22T14:00:00Z  7d      5      95     2026-11-26T01:20:00Z
            2026-11-22T14:01:00Z  5h      11     89     2026-11-22T17:00:00Z
            2026-11-22T14:01:00Z  7d      5.5    94.5   2026-11-26T01:20:00Z
            2026-11-22T14:02:00Z  5h      12.5   87.5   2026-11-22T17:00:00Z
            2026-11-22T14:02:00Z  7d      6.25   93.75  2026-11-26T01:20:00Z

            """)
        s.stdout.clear()
        #expect(s.run("history", "--window", "5h", "--csv", "--since", "2m") == 0)
        #expect(s.stdout.text == """
            time,epoch,key,name,used,resets_at
            2026-11-22T14:01:00Z,1795356060,five_hour,5h,11,2026-11-22T17:00:00Z
            2026-11-22T14:02:00Z,1795356120,five_hour,5h,12.5,2026-11-22T17:00:00Z

            """)
        s.stdout.clear()
        #expect(s.run("history", "--window", "seven_day", "--json", "--since", "1m") == 0)
        #expect(s.stdout.text == #"{"version":1,"samples":[{"time":"2026-11-22T14:02:00Z","epoch":1795356120,"key":"seven_day","name":"7d","used":6.25,"resets_at":"2026-11-26T01:20:00Z"}]}"# + "\n")
    }

    @Test func anUnknownWindowIsAClearError() {
        let s = CLISandbox()
        Self.ingest(s, fiveHour: 10, sevenDay: 5)
        #expect(s.run("history", "--window", "5j") == 2)
        #expect(s.stderr.text == "elbowroom: no window '5j' in the history (did you mean '5h'?); it has 5h, 7d\n")
        // A known window that has no samples yet is simply empty.
        #expect(s.run("history", "--window", "opus") == 0)
        #expect(s.stdout.text.hasPrefix("no usage samples in the last 1d"))
    }

    @Test func theRenderReadsTheHistoryOnlyWhenItShowsSomethingFromIt() throws {
        let s = CLISandbox()
        func reads(_ arguments: String...) throws -> Bool {
            try RenderSetup.make(ArgumentParser.parse(arguments), context: s.context).readsHistory
        }
        #expect(try !reads())
        #expect(try !reads("-a", "claude"))
        #expect(try !reads("-a", "tmux", "-t", "minimal"))
        #expect(try reads("-a", "tmux", "-t", "full"))
        #expect(try reads("-a", "waybar"), "waybar's tooltip shows rate and sparkline")
        #expect(try reads("-a", "json"))
        #expect(try reads("-a", "prometheus"))
        #expect(try reads("-t", "{5h.left} ({5h.eta})"))
    }

    @Test func arguments() throws {
        #expect(try ArgumentParser.parse(["history"]).command == .history(.init()))
        let full = try ArgumentParser.parse(["history", "--window=7d", "--since", "1h30m", "--csv"])
        #expect(full.command == .history(.init(window: "7d", since: 5400, format: .csv)))
        #expect(try ArgumentParser.parse(["history", "--json"]).command == .history(.init(format: .json)))
        #expect(try ArgumentParser.parse(["history", "--by", "model", "--since", "90d"]).command
            == .history(.init(since: 90 * 86400, by: .model)))
        #expect(try ArgumentParser.parse(["history", "--daily", "--csv"]).command == .history(.init(format: .csv, daily: true)))
        #expect(try ArgumentParser.parse(["watch", "--notify"]).notify)
        #expect(try ArgumentParser.parse(["notify"]).command == .notify)
        for (arguments, message) in [
            (["history", "--json", "--csv"], "--json and --csv do not go together"),
            (["history", "--since", "soon"], "--since takes a duration such as 24h, 90m, 7d or 1h30m (at most 450d), not 'soon'"),
            (["history", "--since", "451d"], "--since takes a duration such as 24h, 90m, 7d or 1h30m (at most 450d), not '451d'"),
            (["history", "--by", "user"], "--by takes session, model or project, not 'user'"),
            (["--by", "model"], "--by goes with 'elbowroom history'"),
            (["--daily"], "--daily goes with 'elbowroom history'"),
            (["--since", "1h"], "--since goes with 'elbowroom history'"),
            (["--notify"], "--notify goes with 'elbowroom watch' (or run 'elbowroom notify')"),
            (["--json"], "--json goes with 'elbowroom fetch' or 'elbowroom history'"),
            (["history", "--force"], "--force goes with 'elbowroom fetch'"),
            (["history", "x"], "unexpected argument 'x' for 'history'"),
        ] {
            #expect(throws: UsageError(message)) { try ArgumentParser.parse(arguments) }
        }
        #expect(DurationArgument.parse("2d") == 172_800)
        #expect(DurationArgument.parse("45") == 45)
        #expect(DurationArgument.parse("h") == nil)
        #expect(DurationArgument.parse("-3h") == nil)
    }
}

/// The docs' "copy, paste, done" template lines, pasted before there is an hour of history: no
/// piece of a number that is not there yet (a dangling `%/h` where the rate would be).
@Suite struct DocsTemplateLineTests {
    static func templates() throws -> [String] {
        var out: [String] = []
        for page in ["docs/history-and-notifications.md", "docs/templates.md", "README.md"] {
            for line in try ShippedFiles.read(page).split(separator: "\n") {
                guard let start = line.range(of: "elbowroom -t '") else { continue }
                let rest = line[start.upperBound...]
                guard let end = rest.firstIndex(of: "'") else { continue }
                out.append(String(rest[..<end]))
            }
        }
        return out
    }

    @Test func noTemplateLineLeavesAUnitWithoutItsNumber() throws {
        let lines = try Self.templates()
        #expect(lines.contains { $0.contains("rate") }, "the docs have a rate line to check")
        for template in lines {
            let s = CLISandbox()
            s.saveCache(used: ["five_hour": 63, "seven_day": 41], age: 30, resetIn: 3 * 3600)
            #expect(s.run("-a", "plain", "--offline", "-t", template) == 0, "\(template): \(s.stderr.text)")
            let out = s.stdout.text
            // Every %/h follows its number.
            let pieces = out.components(separatedBy: "%/h")
            #expect(pieces.dropLast().allSatisfy { $0.last?.isNumber == true }, "\(template) → \(out)")
        }
    }
}
