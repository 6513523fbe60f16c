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
        var text = header + "\n"
        text.reserveCapacity(samples.count * 40 + 32)
        for s in samples where isStorableKey(s.key) {
            text += String(s.at)
            text += " "
            text += s.key
            text += " "
            text += percent(s.used)
            text += " "
            text += s.resetsAt.map { String($0) } ?? "-"
            text += "\n"
        }
        return Data(text.utf8)
    }

    /// `37.5`, `14`, `0.25`: up to two decimals, no trailing zeros.
    public static func percent(_ value: Double) -> String {
        let hundredths = Int64((min(max(value.isFinite ? value : 0, 0), 100) * 100).rounded())
        let whole = hundredths / 100
        let fraction = hundredths % 100
        if fraction == 0 { return String(whole) }
        if fraction % 10 == 0 { return "\(whole).\(fraction / 10)" }
        return "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// The samples in file order; empty for a missing, foreign or other-version file.
    public static func parse(_ data: Data) -> [HistorySample] {
        data.withUnsafeBytes { raw in
            parse(raw.bindMemory(to: UInt8.self))
        }
    }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> [HistorySample] {
        let headerBytes = Array(header.utf8)
        let n = bytes.count
        guard n > headerBytes.count, bytes[headerBytes.count] == 0x0A else { return [] }
        for i in 0..<headerBytes.count where bytes[i] != headerBytes[i] { return [] }
        var samples: [HistorySample] = []
        samples.reserveCapacity(n / 36)
        var cursor = LineCursor(bytes: bytes, at: headerBytes.count + 1)
        while !cursor.atEnd {
            if let sample = cursor.sample() { samples.append(sample) }
            cursor.nextLine()
        }
        return samples
    }

    /// Reads lines `AT KEY USED RESETS` in one pass over the bytes (this runs on every render
    /// whose template shows a rate or sparkline, over a few thousand lines).
    struct LineCursor {
        let b: UnsafeBufferPointer<UInt8>
        var i: Int
        var keys = KeyTable()

        init(bytes: UnsafeBufferPointer<UInt8>, at start: Int) {
            b = bytes
            i = start
        }

        var atEnd: Bool { i >= b.count }

        /// Past the end of the current line.
        mutating func nextLine() {
            while i < b.count, b[i] != 0x0A { i &+= 1 }
            i &+= 1
        }

        /// The sample on the rest of this line, or `nil` when it is not exactly one; leaves the
        /// cursor on the line's newline (or where the line went wrong).
        mutating func sample() -> HistorySample? {
            guard let at = integer(), space() else { return nil }
            let keyStart = i
            while i < b.count, b[i] != 0x20, b[i] != 0x0A { i &+= 1 }
            guard i > keyStart, i - keyStart <= 64,
                  let key = keys.key(UnsafeBufferPointer(rebasing: b[keyStart..<i])) else { return nil }
            guard space(), let whole = integer() else { return nil }
            var used = Double(whole)
            if i < b.count, b[i] == 0x2E {
                i &+= 1
                var scale = 0.1
                let first = i
                while i < b.count, i - first < 6 {
                    let digit = b[i] &- 0x30
                    guard digit <= 9 else { break }
                    used += Double(digit) * scale
                    scale /= 10
                    i &+= 1
                }
                guard i > first else { return nil }
            }
            guard used <= 100, space() else { return nil }
            var resetsAt: Int64?
            if i < b.count, b[i] == 0x2D {
                i &+= 1
            } else {
                guard let reset = integer() else { return nil }
                resetsAt = reset
            }
            guard i == b.count || b[i] == 0x0A else { return nil }
            return HistorySample(at: at, key: key, used: (used * 100).rounded() / 100, resetsAt: resetsAt)
        }

        /// 1 to 12 decimal digits.
        private mutating func integer() -> Int64? {
            var value: Int64 = 0
            let first = i
            while i < b.count {
                let digit = b[i] &- 0x30
                guard digit <= 9 else { break }
                value = value &* 10 &+ Int64(digit)
                i &+= 1
            }
            let count = i - first
            return count > 0 && count <= 12 ? value : nil
        }

        private mutating func space() -> Bool {
            guard i < b.count, b[i] == 0x20 else { return false }
            i &+= 1
            return true
        }
    }

    /// The few distinct keys of a file, each checked and made a `String` once: a file holds
    /// thousands of lines but a handful of windows.
    struct KeyTable {
        private var known: [(bytes: [UInt8], key: String)] = []

        /// The key spelled by `bytes`, or `nil` when it has a byte keys may not have.
        mutating func key(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
            for entry in known where entry.bytes.count == bytes.count {
                if entry.bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }) {
                    return entry.key
                }
            }
            guard bytes.allSatisfy(HistoryFile.isKeyByte) else { return nil }
            let key = String(decoding: bytes, as: UTF8.self)
            if known.count < 32 { known.append((Array(bytes), key)) }
            return key
        }
    }
}
