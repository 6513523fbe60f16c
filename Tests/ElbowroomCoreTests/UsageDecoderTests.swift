import Foundation
import Testing
@testable import ElbowroomCore

@Suite struct UsageDecoderTests {
    let now = Date(timeIntervalSince1970: 1_795_356_000)

    func decode(_ json: String) throws -> Reading {
        try UsageDecoder.decode(Data(json.utf8), observedAt: now, plan: "max")
    }

    @Test func flatWindowsWithMicrosecondsAndOffsets() throws {
        let reading = try decode("""
        {"five_hour":{"utilization":37.5,"resets_at":"2026-11-22T16:00:00.123456+00:00"},
         "seven_day":{"utilization":12,"resets_at":"2026-11-25T09:00:00+01:00"},
         "seven_day_sonnet":null,"seven_day_opus":{"utilization":0,"resets_at":null},
         "iguana_necktie":null,"seven_day_oauth_apps":null,
         "extra_usage":{"is_enabled":true,"monthly_limit":5000,"used_credits":1234,"utilization":24.68},
         "unknown_future_key":{"nested":[1,2,3]}}
        """)
        #expect(reading.windows.map(\.key) == ["five_hour", "seven_day", "seven_day_opus"])
        #expect(reading.window(key: "seven_day_opus")?.used == 0, "0 with no reset is an unused window, not a placeholder")
        #expect(reading.window(key: "seven_day_opus")?.resetsAt == nil)
        #expect(reading.window(key: "five_hour")?.used == 37.5)
        #expect(reading.window(key: "five_hour")?.resetsAt == ISO8601.parse("2026-11-22T16:00:00.123456Z"))
        #expect(reading.window(key: "seven_day")?.resetsAt == ISO8601.parse("2026-11-25T08:00:00Z"))
        #expect(reading.extra == ExtraUsage(isEnabled: true, monthlyLimitMinor: 5000, usedMinor: 1234, utilization: 24.68))
        #expect(reading.plan == "max")
        #expect(reading.source == .api)
        #expect(reading.fetchedAt == now)
    }

    @Test func limitsArrayOnMigratedAccountsWithNullFlatWindows() throws {
        let reading = try decode("""
        {"five_hour":null,"seven_day":null,
         "limits":[
          {"kind":"session","group":"all","percent":41,"severity":"normal","resets_at":"2026-11-22T18:00:00Z","is_active":true},
          {"kind":"weekly_all","percent":63,"severity":"warning","resets_at":"2026-11-27T00:00:00Z"},
          {"kind":"weekly_scoped","percent":88,"resets_at":"2026-11-27T00:00:00Z","scope":{"model":{"display_name":"Opus"}}},
          {"kind":"weekly_scoped","percent":5,"resets_at":"2026-11-27T00:00:00Z","scope":{"model":{"display_name":"Haiku 5"}}},
          {"kind":"weekly_scoped","percent":0,"scope":{"model":{"display_name":"Sonnet"}}}
         ],
         "spend":{"whatever":1}}
        """)
        #expect(reading.windows.map(\.key) == ["five_hour", "seven_day", "seven_day_sonnet", "seven_day_opus", "seven_day_haiku_5"])
        #expect(reading.window(key: "five_hour")?.used == 41)
        #expect(reading.window(key: "five_hour")?.binding == true)
        #expect(reading.window(key: "seven_day")?.binding == nil)
        #expect(reading.window(key: "seven_day")?.severity == "warning")
        #expect(reading.window(key: "seven_day_opus")?.label == "Opus")
        #expect(reading.window(key: "seven_day_sonnet")?.used == 0, "a limit at 0 is a number: 100 % left")
    }

    @Test func limitsWinFieldByFieldWithFlatFallback() throws {
        let reading = try decode("""
        {"five_hour":{"utilization":40.2,"resets_at":"2026-11-22T18:00:00Z"},
         "limits":[{"kind":"session","percent":41},{"kind":"weekly_all","percent":0}],
         "seven_day":{"utilization":12.5,"resets_at":"2026-11-27T00:00:00Z"}}
        """)
        #expect(reading.window(key: "five_hour")?.used == 41)
        #expect(reading.window(key: "five_hour")?.resetsAt == ISO8601.parse("2026-11-22T18:00:00Z"))
        #expect(reading.window(key: "seven_day")?.used == 12.5, "a placeholder limit keeps the flat window")
    }

    @Test func everythingNullIsAnEmptyReading() throws {
        let reading = try decode(#"{"five_hour":null,"seven_day":null,"extra_usage":null,"limits":null}"#)
        #expect(reading.windows.isEmpty)
        #expect(reading.extra == nil)
    }

    @Test func wrongTypesAreIgnoredNotFatal() throws {
        let reading = try decode(#"{"five_hour":{"utilization":"12.5","resets_at":12345},"seven_day":"x","limits":"nope"}"#)
        #expect(reading.window(key: "five_hour")?.used == 12.5)
        #expect(reading.window(key: "five_hour")?.resetsAt == Date(timeIntervalSince1970: 12345))
        #expect(reading.windows.count == 1)
    }

    @Test(arguments: ["", "not json", "[1,2]", "<html>502</html>", "null", "{}",
                      #"{"error":{"type":"api_error","message":"x"}}"#, #"{"type":"error"}"#])
    func nonObjectsThrow(body: String) {
        #expect(throws: UsageDecoder.UndecodableBody.self) { try decode(body) }
    }

    @Test func roundingNoiseIsClampedToPercent() throws {
        let reading = try decode(#"{"five_hour":{"utilization":100.4,"resets_at":"2026-11-22T18:00:00Z"},"seven_day":{"utilization":-0.3},"seven_day_opus":{"utilization":105,"resets_at":"2026-11-22T18:00:00Z"}}"#)
        #expect(reading.window(key: "five_hour")?.used == 100)
        #expect(reading.window(key: "seven_day_opus")?.used == 100, "an overrun past the limit is a used-up window")
        #expect(reading.window(key: "seven_day")?.used == 0)
        #expect(reading.notes == nil)
    }

    @Test func aPercentageFarOutsideTheRangeIsUnknownWithANote() throws {
        let reading = try decode("""
        {"five_hour":{"utilization":1763683200,"resets_at":null},"seven_day":{"utilization":250},
         "limits":[{"kind":"weekly_scoped","percent":-40,"scope":{"model":{"display_name":"Fable"}}}]}
        """)
        #expect(reading.windows.isEmpty)
        #expect(reading.notes == [
            "five_hour: utilization 1763683200 is not a percentage; shown as unknown",
            "seven_day: utilization 250 is not a percentage; shown as unknown",
            "seven_day_fable: percent -40 is not a percentage; shown as unknown",
        ])
    }
}

@Suite struct StatusLineInputTests {
    @Test func ratesLimitsInEpochSeconds() throws {
        let json = """
        {"model":{"display_name":"Opus"},"workspace":{"current_dir":"/src"},"cost":{"total_cost_usd":1.5},
         "context_window":{"used_percentage":22},
         "rate_limits":{"five_hour":{"used_percentage":37,"resets_at":1795370400},
                        "seven_day":{"used_percentage":12.5,"resets_at":1795800000},
                        "odd":{"used_percentage":"x"}}}
        """
        let now = Date(timeIntervalSince1970: 1_795_356_000)
        let input = try #require(StatusLineInput.decode(Data(json.utf8), observedAt: now))
        #expect(input.modelName == "Opus")
        #expect(input.contextUsedPercent == 22)
        #expect(input.costUSD == 1.5)
        #expect(input.windows.map(\.key) == ["five_hour", "seven_day"])
        #expect(input.windows[0].resetsAt == Date(timeIntervalSince1970: 1795370400))
        #expect(input.reading(at: now)?.source == .statusLine)
    }

    @Test func absurdResetTimesAreUnknownNotTrusted() throws {
        let json = #"{"rate_limits":{"five_hour":{"used_percentage":37,"resets_at":1e300}}}"#
        let input = try #require(StatusLineInput.decode(Data(json.utf8), observedAt: Date(timeIntervalSince1970: 1_795_356_000)))
        #expect(input.windows.first?.resetsAt == nil)
        #expect(input.windows.first?.used == 37)
    }

    @Test func noRateLimitsMeansNoReading() throws {
        let input = try #require(StatusLineInput.decode(Data(#"{"model":{"display_name":"Sonnet"}}"#.utf8), observedAt: Date()))
        #expect(input.reading(at: Date()) == nil)
        #expect(StatusLineInput.decode(Data("garbage".utf8), observedAt: Date()) == nil)
    }
}
