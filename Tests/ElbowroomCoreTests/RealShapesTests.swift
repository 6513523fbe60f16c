import Foundation
import Testing
@testable import ElbowroomCore

/// The shapes real accounts and real Claude Code versions send, and the classes of mistake they
/// caught: an idle account shown as a blank, a status-line bug shown as an alarm, one window under
/// two names, limits overwriting each other, two rules for a window that has reset.
@Suite struct RealShapesTests {
    let now = Date(timeIntervalSince1970: 1_795_356_000)

    func decode(_ json: String) throws -> Reading {
        try UsageDecoder.decode(Data(json.utf8), observedAt: now)
    }

    func statusLine(_ json: String, at date: Date? = nil) throws -> StatusLineInput {
        try #require(StatusLineInput.decode(Data(json.utf8), observedAt: date ?? now))
    }

    func view(_ reading: Reading, at date: Date? = nil) -> UsageView {
        var cache = CacheFile(account: "t", reading: reading)
        cache.fetch.recordSuccess(at: reading.fetchedAt)
        return UsageView(cache: cache, now: date ?? now, config: Config())
    }

    // MARK: idle accounts

    @Test func anIdleAccountIsAFullWindowNotABlank() throws {
        let reading = try decode("""
        {"five_hour":{"utilization":0.0,"resets_at":null},"seven_day":{"utilization":0,"resets_at":null},
         "seven_day_oauth_apps":null,"seven_day_opus":null,"iguana_necktie":null}
        """)
        let v = view(reading)
        #expect(v.window(named: "5h")?.left == 100)
        #expect(v.window(named: "5h")?.resetsAt == nil)
        #expect(v.window(named: "7d")?.left == 100)
        #expect(v.status == .ok)
    }

    @Test func besideLimitsAFlatZeroWithoutResetCarriesNothing() throws {
        let reading = try decode("""
        {"five_hour":{"utilization":0,"resets_at":null},"seven_day":{"utilization":0,"resets_at":null},
         "limits":[{"kind":"weekly_all","percent":30,"resets_at":"2026-11-27T00:00:00Z"}]}
        """)
        #expect(reading.windows.map(\.key) == ["seven_day"])
        #expect(reading.window(key: "seven_day")?.used == 30)
    }

    @Test func anIdleStatusLineWindowIsAFullWindow() throws {
        let input = try statusLine(#"{"rate_limits":{"five_hour":{"used_percentage":0},"seven_day":{"used_percentage":3,"resets_at":1795800000}}}"#)
        #expect(input.windows.map(\.key) == ["five_hour", "seven_day"])
        #expect(input.windows[0].used == 0 && input.windows[0].resetsAt == nil)
    }

    // MARK: not data

    @Test func theResetEpochInUsedPercentageIsUnknownNotCritical() throws {
        let input = try statusLine("""
        {"rate_limits":{"five_hour":{"used_percentage":1795374000,"resets_at":1795374000},
                        "seven_day":{"used_percentage":14.000000000000002,"resets_at":1795800000}}}
        """)
        #expect(input.windows.map(\.key) == ["seven_day"])
        #expect(input.windows[0].used == 14.000000000000002)
        #expect(input.notes == ["five_hour: used_percentage 1795374000 is not a percentage; shown as unknown"])
        let reading = try #require(input.reading(at: now))
        #expect(view(reading).window(named: "5h") == nil, "unknown, not 0 % left")
        #expect(view(reading).level == .ok)
    }

    @Test func theBogusValueDoesNotEraseWhatTheCacheKnew() throws {
        var cache = CacheFile(account: "t", reading: Reading(
            windows: [UsageWindow(key: "five_hour", used: 20, resetsAt: now.addingTimeInterval(3600), observedAt: now.addingTimeInterval(-60))],
            fetchedAt: now.addingTimeInterval(-60), source: .api))
        let input = try statusLine(#"{"rate_limits":{"five_hour":{"used_percentage":1795374000,"resets_at":1795374000}}}"#)
        #expect(input.reading(at: now) == nil)
        #expect(cache.reading?.window(key: "five_hour")?.used == 20)
        let changed = cache.ingest(Reading(windows: input.windows, fetchedAt: now, source: .statusLine))
        #expect(!changed)
    }

    @Test func nonWindowRateLimitsStayOutOfTheWindows() throws {
        let input = try statusLine("""
        {"rate_limits":{"five_hour":{"used_percentage":20,"resets_at":1795370400},
                        "spend_limit":{"used_percentage":180,"resets_at":1795370400},
                        "seven_day":{"used_percentage":40,"resets_at":1795800000}}}
        """)
        #expect(input.windows.map(\.key) == ["five_hour", "seven_day"])
        #expect(input.notes.isEmpty)
        let v = view(try #require(input.reading(at: now)))
        // The gateway's spend limit is not a window, but it is the user's limit: past 100 % it is critical.
        #expect(v.spend?.percent == 180)
        #expect(v.level == .critical)
        #expect(v.worst?.key == "seven_day")
    }

    // MARK: one window, one name

    @Test func aWindowHasOneLabelWhicheverShapeNamedIt() throws {
        let flat = try decode(#"{"seven_day_fable":{"utilization":91,"resets_at":"2026-11-27T00:00:00Z"}}"#)
        let limits = try decode("""
        {"limits":[{"kind":"weekly_scoped","percent":91,"resets_at":"2026-11-27T00:00:00Z","scope":{"model":{"display_name":"Fable"}}}]}
        """)
        let a = try #require(view(flat).window(named: "seven_day_fable"))
        let b = try #require(view(limits).window(named: "seven_day_fable"))
        #expect(a.label == "Fable")
        #expect(b.label == "Fable")
        #expect(WindowCatalog.label(forKey: "seven_day_oauth_apps") == "OAuth apps")
    }

    @Test func surfaceAndModelScopedLimitsKeepSeparateWindows() throws {
        let reading = try decode("""
        {"limits":[
          {"kind":"weekly_scoped","group":"weekly_scoped","percent":40,"resets_at":"2026-11-27T00:00:00Z","scope":{"model":{"display_name":"Fable"}}},
          {"kind":"weekly_scoped","group":"weekly_scoped","percent":70,"resets_at":"2026-11-27T00:00:00Z","scope":{"surface":"code"}},
          {"kind":"weekly_scoped","group":"weekly_scoped","percent":10,"resets_at":"2026-11-27T00:00:00Z","scope":{"surface":{"display_name":"Claude Code"}}}
        ]}
        """)
        #expect(reading.windows.map(\.key) == ["seven_day_claude_code", "seven_day_code", "seven_day_fable"])
        #expect(reading.window(key: "seven_day_fable")?.used == 40)
        #expect(reading.window(key: "seven_day_code")?.used == 70)
        #expect(reading.window(key: "seven_day_code")?.label == "Code")
        #expect(reading.window(key: "seven_day_claude_code")?.label == "Claude Code")
    }

    @Test func unknownKindsSharingAGroupDoNotOverwriteEachOther() throws {
        let reading = try decode("""
        {"limits":[
          {"kind":"daily","group":"shared","percent":10,"resets_at":"2026-11-23T00:00:00Z"},
          {"kind":"monthly","group":"shared","percent":60,"resets_at":"2026-12-01T00:00:00Z"},
          {"kind":"monthly","group":"shared","percent":80,"resets_at":"2026-12-01T00:00:00Z"}
        ]}
        """)
        #expect(reading.windows.map(\.key) == ["daily_shared", "monthly_shared", "monthly_shared_2"])
        #expect(reading.windows.map(\.used) == [10, 60, 80])
    }

    // MARK: binding

    @Test func worstPrefersTheBindingLimitUnlessAnotherIsWorse() throws {
        let reading = try decode("""
        {"limits":[
          {"kind":"session","percent":50,"resets_at":"2026-11-22T18:00:00Z"},
          {"kind":"weekly_all","percent":40,"resets_at":"2026-11-27T00:00:00Z","is_active":true}
        ]}
        """)
        #expect(view(reading).worst?.key == "seven_day", "binding, and no other window at a worse level")
        let worse = try decode("""
        {"limits":[
          {"kind":"session","percent":95,"resets_at":"2026-11-22T18:00:00Z"},
          {"kind":"weekly_all","percent":40,"resets_at":"2026-11-27T00:00:00Z","is_active":true}
        ]}
        """)
        #expect(view(worse).worst?.key == "five_hour", "a critical window is never hidden behind the binding one")
        #expect(view(worse).window(named: "7d")?.binding == true)
        #expect(view(worse).window(named: "7d")?.needsAttention == true)
        #expect(view(worse).window(named: "5h")?.binding == false)
    }

    // MARK: windows that have reset

    @Test func aWindowPastItsResetReadsAsResetFromEitherSource() throws {
        let past = now.addingTimeInterval(-60)
        let api = try decode(#"{"five_hour":{"utilization":80,"resets_at":"\#(ISO8601.format(past))"}}"#)
        let line = try statusLine(#"{"rate_limits":{"five_hour":{"used_percentage":80,"resets_at":\#(Int(past.timeIntervalSince1970))}}}"#)
        var cache = CacheFile(account: "t")
        let taken = cache.ingest(try #require(line.reading(at: now)))
        #expect(taken, "an empty cache takes it")
        for v in [view(api), UsageView(cache: cache, now: now, config: Config())] {
            let w = try #require(v.window(named: "5h"))
            #expect(w.hasReset && w.left == 100 && w.resetsAt == nil)
        }
    }

    @Test func aResetReplayNeverReplacesTheCurrentWindow() throws {
        var cache = CacheFile(account: "t", reading: Reading(
            windows: [UsageWindow(key: "five_hour", used: 5, resetsAt: now.addingTimeInterval(4 * 3600), observedAt: now.addingTimeInterval(-600))],
            fetchedAt: now.addingTimeInterval(-600), source: .api))
        let old = Reading(windows: [UsageWindow(key: "five_hour", used: 90, resetsAt: now.addingTimeInterval(-3600), observedAt: now)],
                          fetchedAt: now, source: .statusLine)
        let changed = cache.ingest(old)
        #expect(!changed)
        #expect(cache.reading?.window(key: "five_hour")?.used == 5)
    }

    // MARK: only news is written

    @Test func theSameNumbersAgainAreNotAChange() throws {
        let json = #"{"rate_limits":{"five_hour":{"used_percentage":20,"resets_at":1795370400},"seven_day":{"used_percentage":40,"resets_at":1795800000}}}"#
        var cache = CacheFile(account: "t")
        let first = cache.ingest(try #require(try statusLine(json).reading(at: now)))
        #expect(first)
        let later = now.addingTimeInterval(30)
        let replay = cache.ingest(try #require(try statusLine(json, at: later).reading(at: later)))
        #expect(!replay, "a replay is not news")
        let more = #"{"rate_limits":{"five_hour":{"used_percentage":21,"resets_at":1795370400}}}"#
        let moved = cache.ingest(try #require(try statusLine(more, at: later).reading(at: later)))
        #expect(moved)
        #expect(cache.reading?.window(key: "five_hour")?.used == 21)
        #expect(cache.reading?.window(key: "seven_day")?.used == 40)
    }

    // MARK: extra usage

    @Test func anUnknownCurrencyStaysUnknown() throws {
        let reading = try decode(#"{"extra_usage":{"is_enabled":true,"monthly_limit":null,"used_credits":1250,"utilization":null,"currency":null}}"#)
        #expect(reading.extra == ExtraUsage(isEnabled: true, monthlyLimitMinor: nil, usedMinor: 1250, utilization: nil, currency: nil))
    }

    // MARK: shapes

    @Test(arguments: [
        ("flat only", #"{"five_hour":{"utilization":12,"resets_at":"2026-11-22T18:00:00.123456+00:00"},"seven_day":{"utilization":30,"resets_at":"2026-11-27T00:00:00+00:00"}}"#, ["five_hour", "seven_day"]),
        ("limits only", #"{"five_hour":null,"seven_day":null,"limits":[{"kind":"session","percent":12,"resets_at":"2026-11-22T18:00:00Z"}]}"#, ["five_hour"]),
        ("both", #"{"five_hour":{"utilization":12,"resets_at":"2026-11-22T18:00:00Z"},"limits":[{"kind":"weekly_all","percent":3,"resets_at":"2026-11-27T00:00:00Z"}]}"#, ["five_hour", "seven_day"]),
        ("new codename keys", #"{"seven_day_cowork":{"utilization":4,"resets_at":"2026-11-27T00:00:00Z"},"seven_day_omelette":null,"iguana_necktie":null,"seven_day_breakdown":{"utilization":9}}"#, ["seven_day_cowork"]),
        ("every window null", #"{"five_hour":null,"seven_day":null,"seven_day_opus":null,"seven_day_sonnet":null,"seven_day_oauth_apps":null,"extra_usage":null}"#, []),
        ("extra uncapped", #"{"five_hour":{"utilization":1,"resets_at":"2026-11-22T18:00:00Z"},"extra_usage":{"is_enabled":true,"monthly_limit":null,"used_credits":0,"utilization":null}}"#, ["five_hour"]),
        ("dollars per window", #"{"five_hour":{"utilization":7,"resets_at":"2026-11-22T18:00:00Z","limit_dollars":100,"used_dollars":7,"remaining_dollars":93,"locked_reason":null}}"#, ["five_hour"]),
    ])
    func decodesEveryShape(name: String, body: String, keys: [String]) throws {
        #expect(try decode(body).windows.map(\.key) == keys, "\(name)")
    }
}
