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
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        if let offsetSeconds {
            seconds += time_t(offsetSeconds)
            gmtime_r(&seconds, &parts)
        } else {
            localtime_r(&seconds, &parts)
        }
        // On the stack: an array for the text, and another for its bytes, cost a reset time ~3 k
        // instructions.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 512) { buffer in
            let count = buffer.withMemoryRebound(to: CChar.self) { out in
                format.withCString { strftime(out.baseAddress!, out.count, $0, &parts) }
            }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[0..<count]), as: UTF8.self)
        }
    }
}
