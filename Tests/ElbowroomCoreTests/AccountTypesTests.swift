import Foundation
import Testing
@testable import ElbowroomCore

/// Team, Enterprise, pay-as-you-go and gateway accounts, from the bodies they really send
/// (`Fixtures/RealWorld`, `SOURCES.md`): each has something true to show, in its own money, and
/// says where each number came from.
@Suite struct AccountTypesTests {
    static let now = Date(timeIntervalSince1970: 1_758_000_000)  // 2025-09-16

    static func fixture(_ name: String) throws -> Data {
        try #require(FileManager.default.contents(atPath: RealWorldBodiesTests.dir + "/" + name))
    }

    static func view(_ reading: Reading, config: Config = Config(), at date: Date = now) -> UsageView {
        var cache = CacheFile(account: "t", reading: reading)
        cache.fetch.recordSuccess(at: reading.fetchedAt)
        return UsageView(cache: cache, now: date, config: config)
    }

    static func decoded(_ name: String, plan: String? = nil) throws -> UsageView {
        view(try UsageDecoder.decode(fixture("usage/" + name), observedAt: now.addingTimeInterval(-60), plan: plan))
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var file: String
        var plan: String?
        var account: String
        var level: Level
        var headline: Double?
        var used: Double?
        var limit: Double?
        var currency: String
        var organisation = false
        var testDescription: String { file }
    }

    static let cases: [Case] = [
        Case(file: "19-claudehud-enterprise-spend-only.json", plan: "enterprise", account: "spend only", level: .ok,
             headline: 16.580000000000002, used: 9948, limit: 60000, currency: "USD"),
        Case(file: "20-team-org-pool.json", plan: "team", account: "organisation pool", level: .ok,
             headline: 0, used: 0, limit: 20000, currency: "USD", organisation: true),
        Case(file: "21-enterprise-eur-cap-no-windows.json", plan: "enterprise", account: "spend only", level: .ok,
             headline: 24.8, used: 1240, limit: 5000, currency: "EUR"),
        Case(file: "22-payg-tiny-utilization.json", plan: nil, account: "spend only", level: .ok,
             headline: 0.83, used: 4150, limit: 500000, currency: "USD"),
        Case(file: "11-usage-monitor-69-extra-uncapped.json", plan: "team", account: "organisation pool", level: .ok,
             headline: nil, used: 10631, limit: nil, currency: "USD", organisation: true),
    ]

    @Test(arguments: cases)
    func anAccountWithoutWindowsShowsItsSpend(_ c: Case) throws {
        let v = try Self.decoded(c.file, plan: c.plan)
        #expect(v.windows.isEmpty)
        let spend = try #require(v.spend)
        #expect(v.accountType == c.account)
        #expect(v.level == c.level)
        #expect(v.headlinePercent == c.headline)
        #expect(spend.usedMinor == c.used)
        #expect(spend.limitMinor == c.limit)
        #expect(spend.currency == c.currency)
        #expect(spend.exponent == 2)
        #expect(spend.organisation == c.organisation)
        #expect(spend.isLimit)
        #expect(v.notice == nil)
    }

    @Test func aMigratedAccountShowsItsWindowsFromLimits() throws {
        let v = try Self.decoded("23-migrated-limits-only-fable-opus.json", plan: "max")
        #expect(v.rows.map(\.key) == ["five_hour", "seven_day", "seven_day_opus", "seven_day_fable"])
        #expect(v.window(named: "seven_day_fable")?.title == "Current week (Fable)")
        #expect(v.window(named: "7d")?.binding == true)
        #expect(v.accountType == "subscriber")
    }

    @Test func anAccountWithNoWindowsAndNoSpendSaysSo() throws {
        let reading = try UsageDecoder.decode(Data("""
        {"five_hour":null,"seven_day":null,"seven_day_opus":null,"extra_usage":{"is_enabled":false,"monthly_limit":null,"used_credits":null,"utilization":null}}
        """.utf8), observedAt: Self.now, plan: "team")
        let v = Self.view(reading)
        #expect(v.spend == nil)
        #expect(v.accountType == "no limits")
        #expect(v.notice == "team plan: no limits or spend to show")
        #expect(Self.view(Reading(windows: [], fetchedAt: Self.now, source: .api)).notice == "this account: no limits or spend to show")
    }

    @Test func uncappedSpendHasNoPercentEvenWhenTheSpendObjectSendsOne() throws {
        // Capture 03: EUR enabled, monthly_limit null, spend.percent 0 — Claude Code reads "Unlimited".
        let reading = try UsageDecoder.decode(Self.fixture("usage/03-usage-monitor-sep2026-full.json"), observedAt: Self.now)
        var stripped = reading
        stripped.windows = []
        let spend = try #require(Self.view(stripped).spend)
        #expect(spend.percent == nil)
        #expect(spend.currency == "EUR")
        #expect(spend.level == .ok)
    }

    // MARK: money

    @Test func aCurrencyCodeThatIsNotThreeLettersNeverReachesTheView() throws {
        for code in ["<b>", "US", "USDX", "€€€", "12a", "u$d"] {
            let reading = try UsageDecoder.decode(Data("""
            {"extra_usage":{"is_enabled":true,"monthly_limit":1000,"used_credits":10,"currency":"\(code)"}}
            """.utf8), observedAt: Self.now)
            #expect(reading.extra?.currency == nil, "\(code)")
            #expect(reading.notes?.contains { $0.hasPrefix("extra_usage: currency") } == true, "\(code)")
        }
        let lower = try UsageDecoder.decode(Data(#"{"extra_usage":{"is_enabled":true,"used_credits":10,"currency":"eur"}}"#.utf8), observedAt: Self.now)
        #expect(lower.extra?.currency == "EUR")
    }

    @Test func wholeUnitCurrenciesAndDecimalPlacesSetTheMinorUnit() throws {
        #expect(ExtraUsage(currency: "JPY").minorDigits == 0)
        #expect(ExtraUsage(currency: "KRW").minorDigits == 0)
        #expect(ExtraUsage(currency: "VND").minorDigits == 0)
        #expect(ExtraUsage(currency: "EUR").minorDigits == 2)
        #expect(ExtraUsage(currency: "JPY", exponent: 2).minorDigits == 2)
        let reading = try UsageDecoder.decode(Data("""
        {"extra_usage":{"is_enabled":true,"monthly_limit":50000,"used_credits":1234,"currency":"KWD","decimal_places":3}}
        """.utf8), observedAt: Self.now)
        #expect(reading.extra?.minorDigits == 3)
    }

    @Test func theSpendObjectsAmountsEachKeepTheirOwnExponent() throws {
        let reading = try UsageDecoder.decode(Data("""
        {"spend":{"used":{"amount_minor":1802,"currency":"USD","exponent":2},"limit":{"amount_minor":300,"currency":"USD","exponent":0},"percent":6,"enabled":true}}
        """.utf8), observedAt: Self.now)
        #expect(reading.extra?.usedMinor == 1802)
        #expect(reading.extra?.monthlyLimitMinor == 30000)
        #expect(reading.extra?.exponent == 2)
        #expect(reading.extra?.isEnabled == true)
    }

    // MARK: limits[]

    /// Issue 24 item 4: a 1 MB body of `limits[]` entries under one name took 87 s of CPU (each
    /// entry searched for a free `_n` from 2 up).
    @Test func manyLimitsUnderOneNameDecodeInLinearTimeAndAreCapped() throws {
        var entries: [String] = []
        var size = 0
        var i = 0
        while size < 1_000_000 {
            let entry = #"{"kind":"weekly_scoped","percent":\#(i),"scope":{"model":"Fable"}}"#
            entries.append(entry)
            size += entry.utf8.count + 1
            i += 1
        }
        let body = Data(("{\"limits\":[" + entries.joined(separator: ",") + "]}").utf8)
        let clock = ContinuousClock()
        var reading: Reading?
        let elapsed = try clock.measure { reading = try UsageDecoder.decode(body, observedAt: Self.now) }
        // Before: ~20 s here (a debug build); now well under one.
        #expect(elapsed < .seconds(4), "\(elapsed)")
        let r = try #require(reading)
        #expect(r.windows.count <= UsageDecoder.maxLimitEntries)
        #expect(r.notes?.contains { $0.hasPrefix("limits: \(i) entries") } == true)
        #expect(r.limitedForCache().reading.windows.count <= ReadingLimits.maxWindows)
    }

    @Test func oneLimitRepeatedIsOneWindowEvenWhenItsResetDiffersByMicroseconds() throws {
        let reading = try UsageDecoder.decode(Data("""
        {"seven_day_fable":{"utilization":40,"resets_at":"2025-09-20T22:00:00.910755+00:00"},
         "limits":[
          {"kind":"weekly_scoped","percent":40,"resets_at":"2025-09-20T22:00:00.910755+00:00","scope":{"model":{"display_name":"Fable"}}},
          {"kind":"weekly_scoped","percent":40,"resets_at":"2025-09-20T21:59:59.911047+00:00","scope":{"model":{"display_name":"Fable"}}}
        ]}
        """.utf8), observedAt: Self.now)
        #expect(reading.windows.map(\.key) == ["seven_day_fable"])
    }

    // MARK: drift

    @Test func keysNobodyHasHeardOfAreKeptThroughTheCache() throws {
        let reading = try UsageDecoder.decode(Data("""
        {"five_hour":{"utilization":1,"resets_at":"2025-09-16T10:00:00Z"},"seven_day_cowork":null,"velvet_anchor":null,"zz_new":{"x":1}}
        """.utf8), observedAt: Self.now)
        #expect(reading.unknownKeys == ["velvet_anchor", "zz_new"])
        let cache = CacheFile(account: "t", reading: reading.limitedForCache().reading)
        let data = cache.encoded()
        #expect(CacheFile.decode(data)?.reading?.unknownKeys == ["velvet_anchor", "zz_new"])
        #expect(CacheFile.decode(data) == CacheFile.decodeWithCodable(data))
        #expect(Self.view(reading).unknownKeys == ["velvet_anchor", "zz_new"])
    }

    // MARK: sources and ages

    @Test func everyWindowKnowsWhereItsNumberCameFrom() throws {
        let observed = Self.now.addingTimeInterval(-600)
        let api = Reading(windows: [
            UsageWindow(key: "five_hour", used: 10, resetsAt: Self.now.addingTimeInterval(3600), observedAt: observed),
            UsageWindow(key: "seven_day", used: 20, resetsAt: Self.now.addingTimeInterval(86400), observedAt: observed),
        ], fetchedAt: observed, source: .api)
        var cache = CacheFile(account: "t", reading: api)
        let line = Reading(windows: [UsageWindow(key: "five_hour", used: 15, resetsAt: Self.now.addingTimeInterval(3600),
                                                 observedAt: Self.now.addingTimeInterval(-5))],
                           fetchedAt: Self.now.addingTimeInterval(-5), source: .statusLine)
        #expect((cache.ingest(line) as Bool))
        cache.fetch.recordSuccess(at: observed)
        let v = UsageView(cache: cache, now: Self.now, config: Config())
        #expect(v.window(named: "5h")?.source == .statusLine)
        #expect(v.window(named: "5h")?.age(now: Self.now) == 5)
        #expect(v.window(named: "7d")?.source == .api)
        #expect(v.window(named: "7d")?.age(now: Self.now) == 600)
        let data = cache.encoded()
        #expect(CacheFile.decode(data) == cache)
        #expect(CacheFile.decode(data) == CacheFile.decodeWithCodable(data))
    }

    /// Two Claude Code sessions report their own last response: the one that went quiet must not
    /// pull a number back down or keep it past its window.
    @Test func aQuietSessionsNumberNeitherLeapfrogsNorOutlivesItsWindow() throws {
        let reset = Self.now.addingTimeInterval(1800)
        func line(_ used: Double, reset: Date, at t: TimeInterval) -> Reading {
            Reading(windows: [UsageWindow(key: "five_hour", used: used, resetsAt: reset, observedAt: Self.now.addingTimeInterval(t))],
                    fetchedAt: Self.now.addingTimeInterval(t), source: .statusLine)
        }
        var cache = CacheFile(account: "t")
        #expect((cache.ingest(line(40, reset: reset, at: -300)) as Bool))   // session A
        #expect(!(cache.ingest(line(35, reset: reset, at: -200)) as Bool))  // session B, quiet: its last response is older
        #expect((cache.ingest(line(42, reset: reset, at: -100)) as Bool))   // A again
        #expect(cache.reading?.window(key: "five_hour")?.used == 42)
        cache.fetch.recordSuccess(at: Self.now.addingTimeInterval(-100))
        // The window rolls; B still replays its old number with the old reset.
        let later = reset.addingTimeInterval(60)
        #expect(!(cache.ingest(line(35, reset: reset, at: later.timeIntervalSince(Self.now))) as Bool))
        let shownAsReset = UsageView(cache: cache, now: later, config: Config())
        #expect(shownAsReset.window(named: "5h")?.used == 0)
        #expect(shownAsReset.window(named: "5h")?.hasReset == true)
        var unknown = Config()
        unknown.resetPolicy = .unknown
        #expect(UsageView(cache: cache, now: later, config: unknown).window(named: "5h") == nil)
    }

    @Test func claudeCodesOwnSnapshotIsReadForTheSignedInAccountOnly() throws {
        let body = String(decoding: try Self.fixture("usage/19-claudehud-enterprise-spend-only.json"), as: UTF8.self)
        let fetched = Self.now.addingTimeInterval(-120)
        func document(owner: String, at: Date = fetched) -> Data {
            Data("""
            {"theme":"dark","oauthAccount":{"accountUuid":"a-1","emailAddress":"x@example.com"},
             "cachedUsageUtilization":{"fetchedAtMs":\(Int64(at.timeIntervalSince1970 * 1000)),"accountUuid":"\(owner)","utilization":\(body)}}
            """.utf8)
        }
        let reading = try #require(ClaudeSnapshot.reading(fromGlobalConfig: document(owner: "a-1"), now: Self.now, plan: "enterprise"))
        #expect(reading.source == .claudeSnapshot)
        #expect(reading.fetchedAt == fetched)
        #expect(reading.extra?.usedMinor == 9948)
        let v = Self.view(reading)
        #expect(v.source == .claudeSnapshot)
        #expect(v.spend?.source == .claudeSnapshot)
        #expect(ClaudeSnapshot.reading(fromGlobalConfig: document(owner: "someone-else"), now: Self.now) == nil)
        #expect(ClaudeSnapshot.reading(fromGlobalConfig: document(owner: "a-1", at: Self.now.addingTimeInterval(-7200)), now: Self.now) == nil)
        #expect(ClaudeSnapshot.reading(fromGlobalConfig: Data(#"{"theme":"dark"}"#.utf8), now: Self.now) == nil)
    }

    // MARK: the status line

    @Test func aGatewaysSpendLimitIsItsLimitPastOneHundredPercent() throws {
        let input = try #require(StatusLineInput.decode(Self.fixture("statusline/07-gateway-spend-limit.json"), observedAt: Self.now))
        #expect(input.windows.isEmpty)
        #expect(input.sentRateLimits)
        let reading = try #require(input.reading(at: Self.now))
        var cache = CacheFile(account: "t")
        #expect((cache.ingest(reading) as Bool))
        #expect(!(cache.ingest(reading) as Bool))
        cache.fetch.recordSuccess(at: Self.now)
        var config = Config()
        config.usageSource = .statusLine
        let v = UsageView(cache: cache, now: Self.now, config: config)
        let spend = try #require(v.spend)
        #expect(spend.percent == 112.4)
        #expect(spend.usedMinor == 5620)
        #expect(spend.limitMinor == 5000)
        #expect(spend.period == "monthly")
        #expect(spend.source == .statusLine)
        #expect(v.level == .critical)
        #expect(v.headlinePercent == 112.4)
        #expect(v.accountType == "gateway")
        let data = cache.encoded()
        #expect(CacheFile.decode(data) == cache)
        #expect(CacheFile.decode(data) == CacheFile.decodeWithCodable(data))
    }

    @Test func aSubscribersStatusLineWithoutRateLimitsSaysSoAndBringsNothing() throws {
        for file in ["statusline/06-claude-code-23975-no-rate-limits-key.json", "statusline/08-subscriber-rate-limits-absent-first-turn.json"] {
            let input = try #require(StatusLineInput.decode(Self.fixture(file), observedAt: Self.now))
            #expect(!input.sentRateLimits, "\(file)")
            #expect(input.reading(at: Self.now) == nil, "\(file)")
        }
        var config = Config()
        config.usageSource = .statusLine
        let waiting = UsageView(cache: nil, now: Self.now, config: config)
        #expect(waiting.waitsForStatusLine)
    }

    // MARK: config and titles

    @Test func resetPolicyIsAConfigKey() throws {
        #expect(try Config.parse("reset_policy = \"unknown\"", file: "c").resetPolicy == .unknown)
        #expect(try Config.parse("", file: "c").resetPolicy == .reset)
        #expect(throws: ConfigError.self) { try Config.parse("reset_policy = \"zero\"", file: "c") }
    }

    @Test func claudeCodesTitlesForItsRows() {
        #expect(WindowCatalog.title(forKey: "five_hour") == "Current session")
        #expect(WindowCatalog.title(forKey: "seven_day") == "Current week (all models)")
        #expect(WindowCatalog.title(forKey: "seven_day_sonnet") == "Current week (Sonnet only)")
        #expect(WindowCatalog.title(forKey: "seven_day_fable", apiLabel: "Fable") == "Current week (Fable)")
        #expect(WindowCatalog.title(forKey: "cinder_cove") == "Claude Code and Cowork credit")
        #expect(WindowCatalog.title(forKey: "wattle_ember", apiLabel: "Design credit") == "Design credit")
        #expect(WindowCatalog.title(forKey: "wattle_ember") == "Credit")
    }

    @Test func theCreditWindowsClaudeCodeShowsAreWindowsEvenWithDollars() throws {
        let reading = try UsageDecoder.decode(Data("""
        {"five_hour":{"utilization":5,"resets_at":"2025-09-16T10:00:00Z"},
         "cinder_cove":{"utilization":30,"resets_at":"2025-10-01T00:00:00Z","limit_dollars":50,"used_dollars":15},
         "wattle_ember":{"utilization":10,"resets_at":null,"label":"Design credit","limit_dollars":20},
         "iguana_necktie":{"utilization":12,"resets_at":"2025-10-01T00:00:00Z","limit_dollars":100}}
        """.utf8), observedAt: Self.now)
        #expect(reading.windows.map(\.key) == ["five_hour", "cinder_cove", "wattle_ember"])
        let v = Self.view(reading)
        #expect(v.rows.map(\.title) == ["Current session", "Claude Code and Cowork credit", "Design credit"])
    }
}
