import Foundation
import Testing
@testable import ElbowroomCore

/// The one bound on outside times (issue 30, item 1): milliseconds by magnitude, the absurd
/// dropped, whole seconds that never trap, and a cache that loses one insane window, not itself.
@Suite struct EpochTimeTests {
    @Test func millisecondsAreReadByMagnitudeAndTheAbsurdIsNoTime() {
        #expect(EpochTime.date(unix: 1_795_780_000)?.timeIntervalSince1970 == 1_795_780_000)
        #expect(EpochTime.date(unix: 1_795_780_000_000)?.timeIntervalSince1970 == 1_795_780_000)
        for absurd in [1e300, -1e300, .infinity, .nan, 0, -5, 3.3e9, 1e16, 9.9e99] {
            #expect(EpochTime.date(unix: absurd) == nil, "\(absurd)")
        }
        #expect(EpochTime.duration(604800) == 604800)
        for absurd in [1e300, -1, .infinity, .nan, 401 * 86400.0] { #expect(EpochTime.duration(absurd) == nil) }
    }

    @Test func wholeSecondsSaturateInsteadOfTrapping() {
        #expect(EpochTime.seconds(Date(timeIntervalSince1970: 1e300)) == Int64.max)
        #expect(EpochTime.seconds(Date(timeIntervalSince1970: -1e300)) == Int64.min)
        #expect(EpochTime.seconds(Date(timeIntervalSince1970: 12.9)) == 12)
        // The history and the notification planner convert through it.
        let window = UsageWindow(key: "five_hour", used: 5, resetsAt: Date(timeIntervalSince1970: 1e300),
                                 observedAt: Date(timeIntervalSince1970: 1e300))
        _ = HistorySample(window)
    }

    /// A cache written by something else, with one window whose reset is `1e300`: that window
    /// goes, the other window and the fetch state (cooldown, last attempt) stay, so the next
    /// render does not start a fetch.
    @Test func oneInsaneWindowDropsThatWindowNotTheCache() throws {
        let text = #"{"version":1,"account":"a","fetch":{"consecutiveFailures":1,"lastAttempt":1795356000,"cooldownUntil":1795359600,"lastOutcome":"server"},"reading":{"windows":[{"key":"five_hour","used":20,"observedAt":1795356000,"resetsAt":1e300},{"key":"seven_day","used":30,"observedAt":1795356000,"resetsAt":1795400000},{"key":"x","used":1,"observedAt":-1e300}],"source":"api","fetchedAt":1795356000}}"#
        let file = try #require(CacheFile.decode(Data(text.utf8)))
        #expect(file.reading?.windows.map(\.key) == ["seven_day"])
        #expect(file.fetch.cooldownUntil == Date(timeIntervalSince1970: 1795359600))
        #expect(file.fetch.lastAttempt == Date(timeIntervalSince1970: 1795356000))
        #expect(CacheFile.decodeWithCodable(Data(text.utf8)) == file)
        // And a reading with such a window is stored without it.
        let reading = Reading(windows: [
            UsageWindow(key: "five_hour", used: 20, resetsAt: Date(timeIntervalSince1970: 1e300), observedAt: Date()),
            UsageWindow(key: "seven_day", used: 30, resetsAt: nil, observedAt: Date()),
        ], fetchedAt: Date(), source: .api)
        let (limited, dropped) = reading.limitedForCache()
        #expect(limited.windows.map(\.key) == ["seven_day"])
        #expect(dropped == 1)
    }
}
