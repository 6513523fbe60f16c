// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// A small, exact ISO-8601 / RFC 3339 parser: `2026-11-22T14:03:07.123456+00:00`, `…Z`, with or
/// without a fraction (any number of digits, kept to the microsecond), with or without an offset
/// (then UTC). No ICU, no formatter state: it runs on every prompt.
///
/// Only real times pass: months 01–12, days that exist in that month (29 February in leap years
/// only), hours 00–23, minutes 00–59, seconds 00–60 (a leap second), offsets `±HH:MM`, `±HHMM` or
/// `±HH` up to ±23:59. Anything else is `nil` (the time is unknown), never a guess.
public enum ISO8601 {
    public static func parse(_ text: String) -> Date? {
        var bytes = text.utf8[...]
        func digits(_ n: Int) -> Int? {
            var value = 0
            for _ in 0..<n {
                guard let b = bytes.first, b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(b - UInt8(ascii: "0"))
                bytes = bytes.dropFirst()
            }
            return value
        }
        func take(_ ascii: Unicode.Scalar) -> Bool {
            guard bytes.first == UInt8(ascii: ascii) else { return false }
            bytes = bytes.dropFirst()
            return true
        }
        guard let year = digits(4), take("-"), let month = digits(2), take("-"),
              let day = digits(2), (take("T") || take("t") || take(" ")), let hour = digits(2), take(":"),
              let minute = digits(2), take(":"), let second = digits(2),
              (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              hour <= 23, minute <= 59, second <= 60
        else { return nil }
        var fraction = 0.0
        if take(".") || take(",") {
            var scale = 0.1
            var any = false
            while let b = bytes.first, b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") {
                fraction += Double(b - UInt8(ascii: "0")) * scale
                scale /= 10
                any = true
                bytes = bytes.dropFirst()
            }
            guard any else { return nil }
        }
        var offset = 0
        if take("Z") || take("z") {
        } else if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            bytes = bytes.dropFirst()
            guard let oh = digits(2), oh <= 23 else { return nil }
            var om = 0
            if take(":") || !bytes.isEmpty {
                guard let m = digits(2), m <= 59 else { return nil }
                om = m
            }
            offset = (oh * 3600 + om * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
        }
        guard bytes.isEmpty else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Double(days * 86400 + hour * 3600 + minute * 60 + second - offset) + fraction
        // Round to the microsecond so doubles print back exactly as the API sent them.
        return Date(timeIntervalSince1970: (seconds * 1_000_000).rounded() / 1_000_000)
    }

    /// Days in a month of the proleptic Gregorian calendar.
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Formats a date as `2026-11-22T14:03:07Z` (UTC, whole seconds) for logs and `--json`.
    /// Saturates: a date from a file or the network can be anything, and a log line must not trap,
    /// so times before year 1 or after 9999 print as those bounds (NaN as the epoch).
    public static func format(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        let total = Int((seconds.isNaN ? 0 : min(max(seconds, firstFormattable), lastFormattable)).rounded(.down))
        var days = total / 86400
        var secs = total % 86400
        if secs < 0 { secs += 86400; days -= 1 }
        let (y, m, d) = civilFromDays(days)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let year = y < 1000 ? String(String(y + 10000).dropFirst()) : "\(y)"
        return "\(year)-\(two(m))-\(two(d))T\(two(secs / 3600)):\(two(secs / 60 % 60)):\(two(secs % 60))Z"
    }

    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z.
    static let firstFormattable: Double = -62_135_596_800
    static let lastFormattable: Double = 253_402_300_799

    // Howard Hinnant's days-from-civil algorithms (proleptic Gregorian, days since 1970-01-01).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    static func civilFromDays(_ z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
