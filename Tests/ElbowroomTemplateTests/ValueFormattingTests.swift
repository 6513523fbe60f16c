import Testing
import ElbowroomCore
@testable import ElbowroomTemplate
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The formatters a render writes as bytes (durations, clock times, pads, bars) make the same
/// text as the plain Swift they replaced, kept here as the references.
struct ValueFormattingTests {
    private static func numbers(_ count: Int, seed: UInt64) -> [UInt64] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 11
        }
    }

    @Test func shortDurationsEqualTheirReference() {
        func reference(_ seconds: TimeInterval) -> String {
            let total = seconds.isFinite ? Int(min(max(seconds, 0), 1e15).rounded(.down)) : 0
            let (d, h, m, s) = (total / 86400, total % 86400 / 3600, total % 3600 / 60, total % 60)
            if d > 0 { return h > 0 ? "\(d)d\(h)h" : "\(d)d" }
            if h > 0 { return m > 0 ? "\(h)h\(m)m" : "\(h)h" }
            if m > 0 { return "\(m)m" }
            return "\(s)s"
        }
        var values: [TimeInterval] = [0, 0.5, 9, 10, 59.9, 60, 599, 3599, 3600, 3660, 36000, 86399, 86400, 90000, 864000,
                                      1e15, 1e300, -1, .nan, .infinity, -.infinity]
        values += Self.numbers(3000, seed: 7).map { TimeInterval($0 % (1 << UInt64($0 % 40))) }
        for value in values {
            #expect(DurationText.short(value) == reference(value), "\(value)")
        }
    }

    @Test func clockTimesEqualStrftime() {
        let dates = [0, 1, 59, 60, 3599, 86399, 1_795_853_000, 951_782_400] + Self.numbers(500, seed: 11).map { Int($0 % 4_000_000_000) }
        for offset in [nil, 0, 3600, -5 * 3600, 19800, 50400, -43200] as [Int?] {
            let localTime = offset.map { LocalTime.fixed(offsetSeconds: $0) } ?? .system
            for seconds in dates {
                let date = Date(timeIntervalSince1970: TimeInterval(seconds) + 0.75)
                #expect(localTime.clock(date, weekday: false) == localTime.format(date, "%H:%M"))
                #expect(localTime.clock(date, weekday: true) == localTime.format(date, "%a %H:%M"))
            }
        }
    }

    @Test func padsEqualTheirReference() {
        func reference(_ text: String, _ width: Int) -> String {
            let padding = String(repeating: " ", count: max(0, abs(width) - text.count))
            return width < 0 ? text + padding : padding + text
        }
        let texts = ["", "7", "37", "100", "Session", "a longer label than sixteen bytes", "é", "e\u{301}", "\r\n", "a\r\nb",
                     "\r", "█▏", "👩‍👩‍👧", "x\u{200D}", "\t", "naïve café"]
        for text in texts {
            for width in [-40, -9, -3, -1, 0, 1, 2, 3, 5, 9, 40] {
                #expect(Filter.pad(text, width: width) == reference(text, width), "\(text.debugDescription) \(width)")
            }
        }
    }

    @Test func barsEqualTheirReference() {
        func reference(_ percent: Double, _ width: Int, _ fill: String) -> String {
            let eighths = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
            let clamped = percent.isFinite ? min(max(percent, 0), 100) : 0
            let total = Int((clamped / 100 * Double(width * 8)).rounded())
            let empty = width - total / 8 - (total % 8 > 0 ? 1 : 0)
            return String(repeating: "█", count: total / 8) + eighths[total % 8] + String(repeating: fill, count: max(0, empty))
        }
        let percents: [Double] = [0, 0.1, 1, 6.25, 12.5, 33.3, 50, 63, 87.4, 99.9, 100, 150, -3, .nan, .infinity]
        for fill in [" ", "░", "-", "e\u{301}", "👩‍👩‍👧"] {
            for width in [1, 2, 3, 7, 8, 10, 33, 100] {
                for percent in percents {
                    #expect(Filter.bar(percent, width: width, fill: fill) == reference(percent, width, fill))
                }
            }
        }
    }
}

/// What a filter makes from numbers and glyphs is shown as it is, but a bar filled with a
/// control from the template is cleaned as any text is.
struct FilteredTextCleaningTests {
    @Test(arguments: [
        ("{5h.left|bar(4)}", "█▌  "), ("{5h.left|bar(4, \"\t\")}", "█▌  "), ("{5h.left|bar(4, \"\u{7}\")}", "█▌"),
        ("{5h.left|bar(4, \"\u{200E}\")}", "█▌"), ("{5h.left|bar(4, ░)|pad(6)}", "  █▌░░"), ("{5h.left|fixed(1)|pad(-6)}|", "37.0  |"),
    ])
    func filteredText(template: String, expected: String) throws {
        let text = try Template.parse(template).text(.fresh)
        #expect(text == expected)
    }
}
