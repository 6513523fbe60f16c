// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// How dates become local time text: `localtime_r` + `strftime`, because the ICU-backed
/// formatters are not available to a FoundationEssentials-only binary. Tests use a fixed offset.
public struct LocalTime: Sendable {
    /// Seconds east of UTC, or `nil` for the system's time zone.
    let offsetSeconds: Int?

    /// The system time zone (`TZ`, `/etc/localtime`).
    public static let system = LocalTime(offsetSeconds: nil)

    /// A fixed offset from UTC, e.g. `3600` for UTC+1 all year.
    public static func fixed(offsetSeconds: Int) -> LocalTime {
        LocalTime(offsetSeconds: offsetSeconds)
    }

    /// `date` through `strftime(format)` in this time zone, in the C locale's words (`Mon`, `Jan`).
    public func format(_ date: Date, _ format: String) -> String {
        guard !format.isEmpty else { return "" }
        var parts = fields(date)
        // On the stack: an array for the text, and another for its bytes, cost a reset time ~3 k
        // instructions.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 512) { buffer in
            let count = buffer.withMemoryRebound(to: CChar.self) { out in
                format.withCString { strftime(out.baseAddress!, out.count, $0, &parts) }
            }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[0..<count]), as: UTF8.self)
        }
    }

    /// `format(date, "%H:%M")`, or `format(date, "%a %H:%M")` with `weekday`: the same text
    /// written from the time's fields, without `strftime` (a reset time's default formatting,
    /// ~400 instructions less each).
    public func clock(_ date: Date, weekday: Bool) -> String {
        let parts = fields(date)
        let hour = Int(parts.tm_hour), minute = Int(parts.tm_min), day = Int(parts.tm_wday)
        guard (0...23).contains(hour), (0...59).contains(minute), (0...6).contains(day) else {
            return format(date, weekday ? "%a %H:%M" : "%H:%M")
        }
        return String(unsafeUninitializedCapacity: 9) { bytes in
            var n = 0
            if weekday {
                let names: StaticString = "SunMonTueWedThuFriSat"
                for k in 0..<3 { bytes[k] = names.utf8Start[3 * day + k] }
                bytes[3] = 0x20
                n = 4
            }
            bytes[n] = 0x30 + UInt8(hour / 10)
            bytes[n + 1] = 0x30 + UInt8(hour % 10)
            bytes[n + 2] = UInt8(ascii: ":")
            bytes[n + 3] = 0x30 + UInt8(minute / 10)
            bytes[n + 4] = 0x30 + UInt8(minute % 10)
            return n + 5
        }
    }

    /// `date`'s broken-down time in this time zone.
    private func fields(_ date: Date) -> tm {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        if let offsetSeconds {
            seconds += time_t(offsetSeconds)
            gmtime_r(&seconds, &parts)
        } else {
            localtime_r(&seconds, &parts)
        }
        return parts
    }
}
