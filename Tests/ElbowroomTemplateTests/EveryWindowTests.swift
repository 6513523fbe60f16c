#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import ElbowroomCore
@testable import ElbowroomTemplate

/// The default views never look fine while a limit is about to stop the user: `compact` adds the
/// window that needs attention, `full` and `tooltip` list every window the account has — including
/// ones no template names — and `worst` prefers the limit the API says binds.
@Suite struct EveryWindowTests {
    static let now = Fixture.now

    /// The account from the issue: 5h 88 % left, 7d 60 % left, a new model's weekly limit at 9 %
    /// left, binding, severity warning — as `limits[]` sends it.
    static let fableBody = """
    {"five_hour":null,"seven_day":null,
     "limits":[
      {"kind":"session","percent":12,"severity":"normal","resets_at":"\(ISO8601.format(now.addingTimeInterval(3600)))"},
      {"kind":"weekly_all","percent":40,"severity":"normal","resets_at":"\(ISO8601.format(now.addingTimeInterval(3 * 86400)))"},
      {"kind":"weekly_scoped","percent":91,"severity":"warning","is_active":true,
       "resets_at":"\(ISO8601.format(now.addingTimeInterval(3 * 86400)))","scope":{"model":{"display_name":"Fable"}}}
     ]}
    """

    static func view(_ body: String) throws -> UsageView {
        let reading = try UsageDecoder.decode(Data(body.utf8), observedAt: now.addingTimeInterval(-30))
        var cache = CacheFile(account: "t", reading: reading)
        cache.fetch.recordSuccess(at: reading.fetchedAt)
        return UsageView(cache: cache, now: now, config: Config())
    }

    static func render(_ name: String, _ view: UsageView) throws -> [Span] {
        let source = try #require(TemplateLibrary.shipped.first { $0.name == name }).source
        return try Template.parse(source, name: name).render(view, localTime: Fixture.localTime)
    }

    @Test func compactShowsTheBindingLimitInItsColour() throws {
        let spans = try Self.render("compact", Self.view(Self.fableBody))
        #expect(spans.plainText == "5h 88% · 7d 60% · Fable 9%")
        #expect(spans.last == Span("Fable 9%", style: Style(semantic: .critical)))
        #expect(try Self.view(Self.fableBody).level == .critical)
    }

    @Test func claudeShowsItToo() throws {
        #expect(try Self.render("claude", Self.view(Self.fableBody)).plainText == "5h 88% · 7d 60% · Fable 9%")
    }

    /// Claude Code's `/usage` shows a model-scoped week from `limits[]` whether or not it needs
    /// attention; users compare with it.
    @Test func compactShowsTheScopedWeekClaudeCodeShowsEvenWhenFine() throws {
        let body = Self.fableBody.split(separator: #""percent":91,"severity":"warning","is_active":true"#)
            .joined(separator: #""percent":20,"severity":"normal""#)
        #expect(try Self.render("compact", Self.view(body)).plainText == "5h 88% · 7d 60% · Fable 80%")
    }

    /// Windows `/usage` does not show (the flat `seven_day_opus`, `seven_day_oauth_apps`, codename
    /// keys) stay off the line while fine, come on when they need attention, and stay reachable by name.
    @Test func windowsClaudeCodeDoesNotShowAppearOnlyWhenTheyNeedAttention() throws {
        func body(_ opus: Int) -> String {
            """
            {"five_hour":{"utilization":10,"resets_at":"\(ISO8601.format(Self.now.addingTimeInterval(3600)))"},
             "seven_day_opus":{"utilization":\(opus),"resets_at":"\(ISO8601.format(Self.now.addingTimeInterval(86400)))"},
             "seven_day_oauth_apps":{"utilization":5,"resets_at":"\(ISO8601.format(Self.now.addingTimeInterval(86400)))"}}
            """
        }
        #expect(try Self.render("compact", Self.view(body(50))).plainText == "5h 90%")
        #expect(try Self.render("full", Self.view(body(50))).plainText == "5h 90% ↻1h")
        #expect(try Template.parse("{opus.left} {seven_day_oauth_apps.left}").render(Self.view(body(50))).plainText == "50 95")
        #expect(try Self.render("compact", Self.view(body(95))).plainText == "5h 90% · Opus 5%")
    }

    /// The separator a dropped part leaves at a line's edge goes; one a user's template starts
    /// or ends with, as its own text, stays.
    @Test func aSeparatorTheTemplateWritesAtItsEdgesStays() throws {
        let view = try Self.view(Self.fableBody)
        #expect(try Template.parse(" · {5h.left}% · ", name: "t").render(view, localTime: Fixture.localTime).plainText == " · 88% · ")
        #expect(try Template.parse("({opus.left}%)( · {5h.left}%)( · {opus.left}%)", name: "t")
            .render(view, localTime: Fixture.localTime).plainText == "88%")
    }

    @Test func compactWithOnlyTheWeeklyWindowStillSeparatesTheExtraOne() throws {
        let body = """
        {"seven_day":{"utilization":40,"resets_at":"\(ISO8601.format(Self.now.addingTimeInterval(86400)))"},
         "seven_day_fable":{"utilization":95,"resets_at":"\(ISO8601.format(Self.now.addingTimeInterval(86400)))"}}
        """
        #expect(try Self.render("compact", Self.view(body)).plainText == "7d 60% · Fable 5%")
    }

    @Test func fullAndTooltipListEveryWindowTheAccountHas() throws {
        let view = try Self.view(Self.fableBody)
        let full = try Self.render("full", view).plainText
        #expect(full == "5h 88% ↻1h · 7d 60% ↻3d · Fable 9% ↻3d out in 9h29m")
        let tooltip = try Self.render("tooltip", view).plainText
        #expect(tooltip.hasSuffix("\nFable      9% left  █████████▏ · resets Wed 16:06 · pace 159% · runs out in 9h29m · binds now · api 30s ago"))
        #expect(tooltip.split(separator: "\n").count == 4)
    }

    @Test func eachRepeatsOncePerUnnamedWindowInDisplayOrder() throws {
        let body = """
        {"five_hour":{"utilization":10,"resets_at":null},"seven_day_zeta":{"utilization":91},"seven_day_alpha":{"utilization":92},
         "seven_day_sonnet":{"utilization":3}}
        """
        let t = try Template.parse("{5h.left}( {each.name}={each.left})")
        let text = t.render(try Self.view(body)).plainText
        #expect(text == "90 sonnet=97 seven_day_alpha=8 seven_day_zeta=9")
        let named = try Template.parse("{sonnet.left}( {each.label})")
        #expect(named.render(try Self.view(body)).plainText == "97 Session Alpha Zeta")
    }

    @Test func otherIsTheWorstWindowTheTemplateDoesNotName() throws {
        let view = try Self.view(Self.fableBody)
        #expect(try Template.parse("{other.label}").render(view).plainText == "Fable")
        #expect(try Template.parse("{seven_day_fable.left} {other.label}").render(view).plainText == "9 Weekly")
        #expect(try Template.parse("({other.alert}!{other.label})").render(view).plainText == "!Fable")
        #expect(try Template.parse("({5h.alert}!)({5h.binding}b)({seven_day_fable.binding}B)").render(view).plainText == "B")
    }

    @Test func worstIsTheBindingLimit() throws {
        #expect(try Self.render("minimal", Self.view(Self.fableBody)).plainText == "seven_day_fable 9%")
    }

    @Test func moneyWithoutACurrencyHasNoSymbol() throws {
        var cache = CacheFile(account: "t", reading: Reading(
            windows: [], extra: ExtraUsage(isEnabled: true, monthlyLimitMinor: nil, usedMinor: 1250, currency: nil),
            fetchedAt: Self.now, source: .api))
        cache.fetch.recordSuccess(at: Self.now)
        let view = UsageView(cache: cache, now: Self.now, config: Config())
        #expect(try Template.parse("{extra.used}( of {extra.limit})").render(view).plainText == "12.50")
    }
}
