import Foundation
import ElbowroomAdapters
import ElbowroomCore
import ElbowroomTemplate
import Testing

/// Every adapter renders a true, non-empty line for every account type: the default template and
/// tooltip over views decoded from the bodies those accounts send
/// (`Tests/ElbowroomCoreTests/Fixtures/RealWorld`), compared with golden files
/// (`Golden/<adapter>/account_<type>.txt`; `ELBOWROOM_RECORD_GOLDEN=1` rewrites them).
@Suite struct AccountGoldenTests {
    static let now = Date(timeIntervalSince1970: 1_758_000_000)  // 2025-09-16T05:20:00Z

    static let fixtures: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(2)
        return parts.joined(separator: "/") + "/ElbowroomCoreTests/Fixtures/RealWorld/"
    }()

    enum Account: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case team, enterprise, enterpriseEUR = "enterprise_eur", payg, gateway, migrated
        case noLimits = "no_limits", statusLineWithoutLimits = "statusline_without_limits"
        var testDescription: String { rawValue }

        static func body(_ file: String) -> Data { FileManager.default.contents(atPath: fixtures + file) ?? Data() }

        var statusLine: StatusLineInput? {
            switch self {
            case .gateway: StatusLineInput.decode(Self.body("statusline/07-gateway-spend-limit.json"), observedAt: now)
            case .statusLineWithoutLimits:
                StatusLineInput.decode(Self.body("statusline/08-subscriber-rate-limits-absent-first-turn.json"), observedAt: now)
            default: nil
            }
        }

        /// The cache each account leaves, and the clock it is read at.
        var state: (cache: CacheFile?, now: Date, config: Config) {
            var config = Config()
            var at = now
            let reading: Reading?
            func usage(_ file: String, _ plan: String?) -> Reading? {
                try? UsageDecoder.decode(Self.body("usage/" + file), observedAt: at.addingTimeInterval(-60), plan: plan)
            }
            switch self {
            case .team: reading = usage("20-team-org-pool.json", "team")
            case .enterprise: reading = usage("19-claudehud-enterprise-spend-only.json", "enterprise")
            case .enterpriseEUR: reading = usage("21-enterprise-eur-cap-no-windows.json", "enterprise")
            case .payg: reading = usage("22-payg-tiny-utilization.json", nil)
            case .migrated:
                at = Date(timeIntervalSince1970: 1_789_390_000)  // a day before the body's weekly reset
                reading = usage("23-migrated-limits-only-fable-opus.json", "max")
            case .gateway:
                config.usageSource = .statusLine
                reading = statusLine?.reading(at: at.addingTimeInterval(-60))
            case .noLimits:
                reading = try? UsageDecoder.decode(Data(#"{"five_hour":null,"seven_day":null,"extra_usage":{"is_enabled":false}}"#.utf8),
                                                   observedAt: at.addingTimeInterval(-60), plan: "team")
            case .statusLineWithoutLimits:
                config.usageSource = .statusLine
                reading = nil
            }
            guard let reading else { return (nil, at, config) }
            var cache = CacheFile(account: "test", reading: reading)
            cache.fetch.recordSuccess(at: reading.fetchedAt)
            return (cache, at, config)
        }

        func frame(adapter: any OutputAdapter) throws -> RenderedFrame {
            let (cache, at, config) = state
            let view = UsageView(cache: cache, now: at, config: config)
            func template(_ name: String) throws -> Template {
                let source = try #require(TemplateLibrary.shipped.first { $0.name == name }).source
                return try Template.parse(source, name: name)
            }
            let main = try template(adapter.readsClaudeStatusLine ? "claude" : "compact")
            let tooltip = try adapter.defaultTooltipTemplate.map(template)
            let localTime = LocalTime.fixed(offsetSeconds: 3600)
            return RenderedFrame(spans: main.render(view, statusLine: statusLine, localTime: localTime),
                                 tooltip: tooltip?.render(view, statusLine: statusLine, localTime: localTime) ?? [],
                                 view: view, palette: Palette(config: config, adapter: adapter.name, defaults: adapter.defaultColors))
        }
    }

    @Test(arguments: GoldenTests.adapters, Account.allCases)
    func everyAdapterSaysSomethingTrueForEveryAccount(adapter name: String, account: Account) throws {
        let adapter = try #require(AdapterRegistry.builtIn(named: name))
        let frame = try account.frame(adapter: adapter)
        #expect(!frame.spans.plainText.isEmpty, "\(account): the template rendered nothing")
        let output = adapter.render(frame)
        #expect(!output.text.contains(#""text":"""#), "\(name) \(account): an empty text field")
        #expect(!output.text.contains(#""full_text":"""#), "\(name) \(account): an empty full_text")
        try Golden.check(output.text, adapter: name, name: "account_" + account.rawValue)
    }

    @Test func aSpendLimitPastItsCapMakesTheBarCritical() throws {
        let frame = try Account.gateway.frame(adapter: WaybarAdapter())
        let line = WaybarAdapter().render(frame).text
        #expect(line.contains(#""class":"critical""#))
        #expect(line.contains(#""percentage":112"#))
    }
}
