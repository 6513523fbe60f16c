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

@Suite struct SHA256Tests {
    @Test func knownVectors() {
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(String(repeating: "a", count: 1000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
        // Either side of each padding boundary: 55 bytes pad into one block, 56 need two.
        let known = [
            55: "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318",
            56: "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a",
            63: "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34",
            64: "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb",
            119: "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb",
            120: "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c",
        ]
        for (count, digest) in known {
            #expect(SHA256.hex(String(repeating: "a", count: count)) == digest, "\(count) bytes")
        }
    }
}
