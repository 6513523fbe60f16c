import Foundation
import Testing
@testable import ElbowroomCore

@Suite struct ISO8601Tests {
    @Test(arguments: [
        ("2026-11-22T14:03:07.123456+00:00", 1795356187.123456),
        ("2026-11-22T14:03:07Z", 1795356187.0),
        ("2026-11-22T14:03:07.5Z", 1795356187.5),
        ("2026-11-22T16:03:07+02:00", 1795356187.0),
        ("2026-11-22T09:03:07.000001-05:00", 1795356187.000001),
        ("2026-11-22T14:03:07", 1795356187.0),
        ("2024-02-29T00:00:00Z", 1709164800.0),
        ("2000-02-29T00:00:00Z", 951782400.0),
        ("2026-11-22T14:03:07.123456+0000", 1795356187.123456),
        ("2026-11-22T14:03:07+00", 1795356187.0),
        ("2026-11-23T14:02:07+23:59", 1795356187.0),
        ("2026-11-21T14:04:07-23:59", 1795356187.0),
        ("2016-12-31T23:59:60Z", 1483228800.0),  // a leap second reads as the next second
        ("2026-11-22t14:03:07z", 1795356187.0),
        ("2026-11-22 14:03:07,5Z", 1795356187.5),
    ])
    func parses(text: String, epoch: Double) throws {
        let date = try #require(ISO8601.parse(text))
        #expect(abs(date.timeIntervalSince1970 - epoch) < 0.0000005)
    }

    @Test(arguments: ["", "2026-11-22", "2026-13-01T00:00:00Z", "2026-11-22T14:03:07.Z", "yesterday",
                      "2026-11-22T14:03:07Zjunk", "2026-11-22T25:00:00Z"])
    func rejects(text: String) {
        #expect(ISO8601.parse(text) == nil)
    }

    /// Impossible dates and offsets were accepted and silently rolled over (30 February became
    /// 2 March); they are unknown times now.
    @Test(arguments: [
        "2026-02-30T00:00:00Z", "2026-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2026-04-31T00:00:00Z",
        "2026-06-31T00:00:00Z", "2026-09-31T00:00:00Z", "2026-11-31T00:00:00Z", "2026-01-32T00:00:00Z",
        "2026-00-10T00:00:00Z", "2026-01-00T00:00:00Z", "2026-11-22T24:00:00Z", "2026-11-22T14:60:00Z",
        "2026-11-22T14:03:61Z", "2026-11-22T14:03:07+99:99", "2026-11-22T14:03:07+24:00",
        "2026-11-22T14:03:07-23:60", "2026-11-22T14:03:07+05:", "2026-11-22T14:03:07+5",
        "2026-11-22T14:03:07+05:3", "2026-11-22T14:03:07+05:30:00", "２０２６-11-22T14:03:07Z",
        "2026-11-22T14:03:07.+00:00", "2026-11-22T14:03:07\u{0}",
    ])
    func rejectsImpossibleDatesAndOffsets(text: String) {
        #expect(ISO8601.parse(text) == nil)
    }

    @Test func everyDayOfEveryMonthRoundTrips() {
        for year in [1999, 2000, 2024, 2026, 2100] {
            for month in 1...12 {
                for day in 1...31 {
                    let text = "\(year)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)T12:00:00Z"
                    let exists = day <= ISO8601.daysIn(month: month, year: year)
                    #expect((ISO8601.parse(text) != nil) == exists, "\(text)")
                    if let date = ISO8601.parse(text) { #expect(ISO8601.format(date) == text) }
                }
            }
        }
    }

    @Test func formatsUTCWholeSeconds() {
        #expect(ISO8601.format(Date(timeIntervalSince1970: 1795356187.9)) == "2026-11-22T14:03:07Z")
        #expect(ISO8601.format(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
    }
}
