#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import ElbowroomCore
@testable import ElbowroomTemplate

/// `W.rate`, `W.spark`, the `spark(n)` filter, and which templates read the history at all.
struct HistoryVariableTests {
    /// The `fresh` fixture's last hour: the session window from 33 % to 63 % (30 %/h, sampled
    /// each minute), the weekly one flat at 41 %, Opus from 80 % to 92 % every ten minutes.
    static var history: UsageHistory {
        let observed = Int64(Fixture.now.timeIntervalSince1970) - 42
        let view = Fixture.fresh.view
        func reset(_ key: String) -> Int64 {
            Int64(view.windows.first { $0.key == key }!.resetsAt!.timeIntervalSince1970)
        }
        var samples: [HistorySample] = []
        for minute in stride(from: 60, through: 0, by: -1) {
            let at = observed - Int64(minute) * 60
            samples.append(HistorySample(at: at, key: "five_hour", used: 63 - Double(minute) / 2, resetsAt: reset("five_hour")))
            if minute % 10 == 0 {
                samples.append(HistorySample(at: at, key: "seven_day", used: 41, resetsAt: reset("seven_day")))
                samples.append(HistorySample(at: at, key: "seven_day_opus", used: 92 - Double(minute) / 5, resetsAt: reset("seven_day_opus")))
            }
        }
        return UsageHistory(samples: samples)
    }

    static var view: UsageView {
        UsageView(cache: Fixture.fresh.cache, now: Fixture.now, config: Config(), history: history)
    }

    static func text(_ source: String) throws -> String {
        try Template.parse(source).render(view, localTime: Fixture.localTime).plainText
    }

    /// `text`, or the error's message (so a failed expectation shows what rendered).
    static func t(_ source: String) -> String {
        do { return try text(source) } catch { return "\(error)" }
    }

    @Test func rateIsPercentPerHourNowAndSparkTheWindowSoFar() throws {
        #expect(Self.t("{5h.rate|fixed(1)}%/h {7d.rate}%/h {opus.rate|fixed(1)}%/h") == "30.0%/h 0%/h 11.8%/h")
        #expect(Self.t("{5h.spark} {5h.spark|spark(4)} {7d.spark|spark(3)}") == "▃▄▄▄▅▅▅▅ ▃▄▅▅ ▄▄▄")
        #expect(Self.t("{5h.spark|pad(-10)}|") == "▃▄▄▄▅▅▅▅  |")
    }

    @Test func etaAndPaceFollowTheRate() throws {
        // 37 % left at 30 %/h from 42 s ago: 1h13m; pace 63 + 30 × 2.23 h. At the window's
        // average (63 % in 2h47m) it would be 1h36m.
        #expect(Self.t("{5h.eta} {5h.pace}") == "1h13m 130")
        #expect(try Template.parse("{5h.eta}").render(Fixture.fresh.view, localTime: Fixture.localTime).plainText == "1h36m")
        // A flat hour: no run-out, pace is what is used now.
        #expect(Self.t("({7d.eta})pace {7d.pace}") == "pace 41")
    }

    @Test func standInWindowsHaveThemToo() throws {
        #expect(Self.t("{worst.name} {worst.rate|fixed(1)} {worst.spark|spark(3)}") == "opus 11.8 ▇▇▇")
        #expect(Self.t("{5h.left} {other.name} {other.rate|fixed(1)}") == "37 opus 11.8")
        #expect(Self.t("{5h.left}{7d.left}( {each.name} {each.rate|fixed(1)})") == "3759 opus 11.8")
        #expect(Self.t("{5h.left}{7d.left}{opus.left}( {each.name}:{each.spark|default(-)})") == "37598 sonnet:-")
    }

    @Test func withoutHistoryTheyHaveNoValueAndTheirGroupsDisappear() throws {
        let plain = Fixture.fresh.view
        let template = try Template.parse("5h {5h.left}%( {5h.spark} {5h.rate}%/h)")
        #expect(template.render(plain, localTime: Fixture.localTime).plainText == "5h 37%")
    }

    @Test func onlyTemplatesThatShowHistoryReadIt() throws {
        for (name, reads) in [("compact", false), ("minimal", false), ("claude", false), ("full", true), ("tooltip", true)] {
            let source = try #require(TemplateLibrary.shipped.first { $0.name == name }).source
            #expect(try Template.parse(source).readsHistory == reads, "\(name)")
        }
        #expect(try !Template.parse("{5h.left} {7d.resets_in} {level}").readsHistory)
        #expect(try Template.parse("[( {each.eta})](level)").readsHistory)
        #expect(try Template.parse("{worst.pace|round}").readsHistory)
    }

    @Test func fullAndTooltipShowRateAndSparkline() throws {
        let full = try #require(TemplateLibrary.shipped.first { $0.name == "full" }).source
        let fullText = try Template.parse(full).render(Self.view, localTime: Fixture.localTime).plainText
        #expect(fullText == "5h 37% ↻2h13m ▃▄▄▅▅▅ 30.0%/h out in 1h13m · 7d 59% ↻3d4h 0.0%/h · Sonnet 82% ↻3d4h · Opus 8% ↻3d4h out in 40m · credits $12.34 / $50.00")
        let tooltip = try #require(TemplateLibrary.shipped.first { $0.name == "tooltip" }).source
        let tooltipText = try Template.parse(tooltip).render(Self.view, localTime: Fixture.localTime).plainText
        #expect(tooltipText == """
            Claude usage (max) · updated 42s ago
            Session   37% left  ██████▎░░░ ▃▄▄▄▄▄▅▅▅▅ · resets 18:19 · 30.0%/h · pace 130% · runs out in 1h13m · api 42s ago
            Weekly    59% left  ████▏░░░░░ ▄▄▄▄▄▄▄▄▄▄ · resets Wed 20:06 · 0.0%/h · pace 41% · api 42s ago
            Sonnet    82% left  █▊░░░░░░░░ · resets Wed 20:06 · pace 33% · api 42s ago
            Opus       8% left  █████████▎ ▇▇▇▇▇▇▇▇▇▇ · resets Wed 20:06 · 11.8%/h · pace 987% · runs out in 40m · api 42s ago
            Credits  $12.34 of $50.00 (25%)
            """)
    }
}
