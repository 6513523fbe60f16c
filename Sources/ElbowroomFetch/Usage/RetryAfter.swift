#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ElbowroomCore

/// `Retry-After`: delta seconds or an HTTP date (IMF-fixdate, RFC 850, asctime). Zero, a date in
/// the past, garbage or no header all mean "we do not know": the default five minutes. Anything
/// above a day is taken as a day: a typo'd header must not lock the user out for years.
public enum RetryAfter {
    public static let maximum: TimeInterval = 86400

    public static func seconds(_ header: String?, now: Date) -> TimeInterval {
        min(unclamped(header, now: now), maximum)
    }

    static func unclamped(_ header: String?, now: Date) -> TimeInterval {
        guard let text = header?.trimmed, !text.isEmpty else { return FetchState.defaultRetryAfter }
        if let seconds = Double(text), seconds.isFinite {
            return seconds > 0 ? seconds : FetchState.defaultRetryAfter
        }
        if let date = httpDate(text) {
            let wait = date.timeIntervalSince(now)
            return wait > 0 ? wait.rounded(.up) : FetchState.defaultRetryAfter
        }
        return FetchState.defaultRetryAfter
    }

    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// `Sun, 06 Nov 1994 08:49:37 GMT`, `Sunday, 06-Nov-94 08:49:37 GMT`, `Sun Nov  6 08:49:37 1994`.
    /// No ICU date formatter: the fields go through Core's exact ISO-8601 parser.
    public static func httpDate(_ text: String) -> Date? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        var day: Int?, month: Int?, year: Int?, time: String?
        for word in words {
            if word.contains(":") { time = word; continue }
            if word.contains("-") {  // RFC 850: 06-Nov-94
                let parts = word.split(separator: "-").map(String.init)
                if parts.count == 3 {
                    day = Int(parts[0])
                    month = months.firstIndex(of: parts[1].lowercased()).map { $0 + 1 }
                    year = Int(parts[2]).map { $0 < 100 ? $0 + ($0 < 70 ? 2000 : 1900) : $0 }
                }
                continue
            }
            if let m = months.firstIndex(of: word.lowercased()) { month = m + 1; continue }
            if let n = Int(word) {
                if n > 31 { year = n } else { day = n }
            }
        }
        guard let day, let month, let year, let time else { return nil }
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return ISO8601.parse("\(year)-\(two(month))-\(two(day))T\(time)Z")
    }
}
