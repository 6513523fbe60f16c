import Foundation
import Testing
import ElbowroomCore
@testable import ElbowroomTemplate

/// Every shipped template says something true on every account type, from the bodies those
/// accounts really send (`Tests/ElbowroomCoreTests/Fixtures/RealWorld`): never a blank line, never
/// a line that starts or ends with a separator.
@Suite struct AccountTypeRenderTests {
    static let now = Date(timeIntervalSince1970: 1_758_000_000)  // 2025-09-16T05:20:00Z

    static let fixtures: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(2)
        return parts.joined(separator: "/") + "/ElbowroomCoreTests/Fixtures/RealWorld/"
    }()

    enum Account: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case team, enterprise, enterpriseEUR, payg, uncapped, migrated, gateway, noLimits, statusLineWithoutLimits, yen
        var testDescription: String { rawValue }

        func body(_ file: String) -> Data {
            FileManager.default.contents(atPath: AccountTypeRenderTests.fixtures + file) ?? Data()
        }

        var config: Config {
            var config = Config()
            if self == .gateway || self == .statusLineWithoutLimits { config.usageSource = .statusLine }
            return config
        }

        var statusLine: StatusLineInput? {
            switch self {
            case .gateway: StatusLineInput.decode(body("statusline/07-gateway-spend-limit.json"), observedAt: now)
            case .statusLineWithoutLimits: StatusLineInput.decode(body("statusline/08-subscriber-rate-limits-absent-first-turn.json"), observedAt: now)
            default: nil
            }
        }

        var reading: Reading? {
            let observed = now.addingTimeInterval(-60)
            func usage(_ file: String, plan: String?) -> Reading? {
                try? UsageDecoder.decode(body("usage/" + file), observedAt: observed, plan: plan)
            }
            switch self {
            case .team: return usage("20-team-org-pool.json", plan: "team")
            case .enterprise: return usage("19-claudehud-enterprise-spend-only.json", plan: "enterprise")
            case .enterpriseEUR: return usage("21-enterprise-eur-cap-no-windows.json", plan: "enterprise")
            case .payg: return usage("22-payg-tiny-utilization.json", plan: nil)
            case .uncapped: return usage("11-usage-monitor-69-extra-uncapped.json", plan: nil)
            case .migrated: return usage("23-migrated-limits-only-fable-opus.json", plan: "max")
            case .gateway: return statusLine?.reading(at: observed)
            case .noLimits:
                return try? UsageDecoder.decode(Data(#"{"five_hour":null,"seven_day":null,"extra_usage":{"is_enabled":false}}"#.utf8),
                                                observedAt: observed, plan: "team")
            case .statusLineWithoutLimits: return nil
            case .yen:
                return try? UsageDecoder.decode(Data(#"{"extra_usage":{"is_enabled":true,"monthly_limit":50000,"used_credits":1234,"currency":"JPY"}}"#.utf8),
                                                observedAt: observed)
            }
        }

        var view: UsageView {
            // The migrated body's resets are in September 2026: seen from a week before them.
            let at = self == .migrated ? Date(timeIntervalSince1970: 1_789_390_000) : now
            guard let reading else { return UsageView(cache: nil, now: at, config: config) }
            var cache = CacheFile(account: "t", reading: self == .migrated ? Self.shifted(reading, to: at) : reading)
            cache.fetch.recordSuccess(at: cache.reading?.fetchedAt ?? at)
            return UsageView(cache: cache, now: at, config: config)
        }

        static func shifted(_ reading: Reading, to date: Date) -> Reading {
            var r = reading
            r.fetchedAt = date.addingTimeInterval(-60)
            for i in r.windows.indices { r.windows[i].observedAt = r.fetchedAt }
            return r
        }

        var compact: String {
            switch self {
            case .team: "org $0.00 / $200.00"
            case .enterprise: "$99.48 / $600.00"
            case .enterpriseEUR: "€12.40 / €50.00"
            case .payg: "$41.50 / $5,000.00"
            case .uncapped: "$106.31 spent"
            case .migrated: "5h 69% · 7d 42% · Opus 100% · Fable 88%"
            case .gateway: "$56.20 / $50.00 monthly"
            case .noLimits: "team plan: no limits or spend to show"
            case .statusLineWithoutLimits: "Claude Code sent no limits"
            case .yen: "¥1,234 / ¥50,000"
            }
        }
    }

    static func render(_ name: String, _ account: Account) throws -> [Span] {
        let source = try #require(TemplateLibrary.shipped.first { $0.name == name }).source
        return try Template.parse(source, name: name).render(account.view, statusLine: account.statusLine, localTime: Fixture.localTime)
    }

    @Test(arguments: Account.allCases)
    func compactSaysWhatTheAccountHas(_ account: Account) throws {
        #expect(try Self.render("compact", account).plainText == account.compact)
    }

    @Test(arguments: ["compact", "full", "minimal", "claude", "tooltip"], Account.allCases)
    func noTemplateIsBlankOrHangsOnASeparator(_ name: String, _ account: Account) throws {
        let text = try Self.render(name, account).plainText
        #expect(!text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        for line in text.split(separator: "\n") {
            #expect(!line.hasPrefix(" · ") && !line.hasPrefix("· ") && !line.hasSuffix(" · "), "\(name): \(line)")
        }
    }

    @Test func fullNoLongerBeginsWithAStraySeparator() throws {
        #expect(try Self.render("full", .payg).plainText == "$41.50 / $5,000.00 (1%)")
        #expect(try Self.render("full", .gateway).plainText == "$56.20 / $50.00 (112%) monthly ↻471d18h")
    }

    @Test func aSpendThatIsTheLimitColoursTheLine() throws {
        let spans = try Self.render("compact", .gateway)
        #expect(spans.first?.style.semantic == .critical)
        #expect(Account.gateway.view.level == .critical)
    }

    @Test func theTooltipSaysWhoseSpendItIsAndWhereEachNumberCameFrom() throws {
        #expect(try Self.render("tooltip", .team).plainText
            == "Claude usage (team) · updated 1m ago\nSpend    organisation's pool: $0.00 of $200.00 (0%)")
        let migrated = try Self.render("tooltip", .migrated).plainText
        #expect(migrated.contains("Session   69% left"))
        #expect(migrated.contains(" · api 1m ago"))
    }

    @Test func claudeCodesTitlesAreAVariable() throws {
        let t = try Template.parse("{5h.title}|{7d.title}|{seven_day_fable.title}|{5h.source}")
        #expect(t.render(Account.migrated.view).plainText == "Current session|Current week (all models)|Current week (Fable)|api")
    }

    @Test func spendVariables() throws {
        let t = try Template.parse("{spend.used}|{spend.limit}|{spend.left}|{spend.percent|fixed(1)}|{spend.level}|({spend.org}org)|{spend.source}|{account}")
        #expect(t.render(Account.team.view).plainText == "$0.00|$200.00|$200.00|0.0|ok|org|api|organisation pool")
        #expect(t.render(Account.gateway.view).plainText == "$56.20|$50.00|$0.00|112.4|critical||status_line|gateway")
        let bar = try Template.parse("{spend.percent|bar(4)}{spend.percent|icon(a, b, c)}{level|icon(o, w, c)}")
        #expect(bar.render(Account.gateway.view).plainText == "████cc")
    }

    @Test func moneyHasTheCurrencysOwnMinorUnitAndGroupsThousands() {
        #expect(NumberText.money(minor: 500000, currency: "USD", exponent: 2, decimals: 2) == "$5,000.00")
        #expect(NumberText.money(minor: 1234, currency: "JPY", exponent: 0, decimals: 0) == "¥1,234")
        #expect(NumberText.money(minor: 1234567, currency: "VND", exponent: 0, decimals: 0) == "1,234,567 VND")
        #expect(NumberText.money(minor: 1234, currency: "KWD", exponent: 3, decimals: 3) == "1.234 KWD")
        #expect(NumberText.money(minor: 310, currency: "EUR", exponent: 2, decimals: 2) == "€3.10")
        #expect(NumberText.money(minor: 12, currency: "<b>", exponent: 2, decimals: 2) == "0.12")
        #expect(NumberText.money(minor: -123456, currency: "GBP", exponent: 2, decimals: 2) == "-£1,234.56")
    }
}
