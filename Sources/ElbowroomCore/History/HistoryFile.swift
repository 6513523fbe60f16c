// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// The usage history file, `usage-<account>.history` beside the cache: a small, versioned line
/// format, so a render reads it without a JSON decoder and a person can `tail` it.
///
/// ```
/// elbowroom-history 1
/// 1800000000 five_hour 37.5 1800007980
/// 1800000000 seven_day 12 1800273600
/// 1800000060 seven_day_oauth_apps 0 -
/// ```
///
/// The first line names the format and its version. Then one sample per line, oldest first,
/// fields separated by one space: the observation time (Unix seconds), the window's API key, the
/// percent used (up to two decimals) and the window's reset time (Unix seconds, `-` when
/// unknown). Keys with characters other than `A-Z a-z 0-9 _ - . :` are not recorded. A file
/// with another first line reads as empty (and is replaced by the next write); a malformed line
/// is skipped. How many samples are kept is `HistoryRetention`'s business.
public enum HistoryFile {
    public static let header = "elbowroom-history 1"

    /// Keys that fit the format: short, and no byte that could split a field or a line.
    public static func isStorableKey(_ key: String) -> Bool {
        !key.isEmpty && key.utf8.count <= 64 && key.utf8.allSatisfy(isKeyByte)
    }

    static func isKeyByte(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39)
            || b == 0x5F || b == 0x2D || b == 0x2E || b == 0x3A
    }

    public static func encode(_ samples: [HistorySample]) -> Data {
        var out = ByteWriter(capacity: samples.count * 40 + 32)
        out.text(header)
        out.byte(0x0A)
        for s in samples where isStorableKey(s.key) {
            out.integer(s.at)
            out.byte(0x20)
            out.text(s.key)
            out.byte(0x20)
            out.percent(s.used)
            out.byte(0x20)
            if let reset = s.resetsAt { out.integer(reset) } else { out.byte(0x2D) }
            out.byte(0x0A)
        }
        return out.data
    }

    /// `37.5`, `14`, `0.25`: up to two decimals, no trailing zeros.
    public static func percent(_ value: Double) -> String {
        var out = ByteWriter(capacity: 8)
        out.percent(value)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// The samples in file order; empty for a missing, foreign or other-version file.
    public static func parse(_ data: Data) -> [HistorySample] {
        data.withUnsafeBytes { raw in
            parse(raw.bindMemory(to: UInt8.self))
        }
    }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> [HistorySample] {
        var cursor = ByteCursor(bytes)
        guard cursor.line(header) else { return [] }
        var samples: [HistorySample] = []
        samples.reserveCapacity(bytes.count / 36)
        var keys = KeyTable()
        while !cursor.atEnd {
            if let sample = sample(&cursor, keys: &keys) { samples.append(sample) }
            cursor.nextLine()
        }
        return samples
    }

    /// The sample `AT KEY USED RESETS` on the rest of this line, or `nil` when it is not exactly
    /// one; leaves the cursor on the line's newline (or where the line went wrong).
    static func sample(_ c: inout ByteCursor, keys: inout KeyTable) -> HistorySample? {
        guard let at = c.integer(), c.space(), let key = c.key(&keys), c.space(),
              let used = c.percent(), c.space(), let resetsAt = c.resetTime(), c.atLineEnd else { return nil }
        return HistorySample(at: at, key: key, used: used, resetsAt: resetsAt)
    }
}
