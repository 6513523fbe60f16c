// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// Durations as people read them: `short` is `2h13m`, `3d4h`, `45s` (rounded down); `long` is
/// `2 hours 13 minutes`. Command output (`cache show`, `doctor`) uses the same forms.
public enum DurationText {
    private static func parts(_ seconds: TimeInterval) -> (d: Int, h: Int, m: Int, s: Int) {
        // Saturating: a duration beyond ~30 million years (an absurd date) never traps.
        let total = seconds.isFinite ? Int(min(max(seconds, 0), 1e15).rounded(.down)) : 0
        return (total / 86400, total % 86400 / 3600, total % 3600 / 60, total % 60)
    }

    public static func short(_ seconds: TimeInterval) -> String {
        let (d, h, m, s) = parts(seconds)
        // Written as bytes into the string's own buffer: interpolated, a duration cost ~470
        // instructions (a tooltip formats one per window). At most 15 bytes (`11574074074d23h`):
        // a capacity of 15 or less makes a small string, with no heap buffer and, for ASCII,
        // no validation.
        return String(unsafeUninitializedCapacity: 15) { bytes in
            var n = 0
            if d > 0 {
                put(d, "d", into: bytes, at: &n)
                if h > 0 { put(h, "h", into: bytes, at: &n) }
            } else if h > 0 {
                put(h, "h", into: bytes, at: &n)
                if m > 0 { put(m, "m", into: bytes, at: &n) }
            } else if m > 0 {
                put(m, "m", into: bytes, at: &n)
            } else {
                put(s, "s", into: bytes, at: &n)
            }
            return n
        }
    }

    /// `value`'s digits (0 or more, at most 16 of them) and then `unit`, from `bytes[n]` on.
    private static func put(_ value: Int, _ unit: Unicode.Scalar, into bytes: UnsafeMutableBufferPointer<UInt8>, at n: inout Int) {
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        rest = value
        var k = n + digits
        repeat {
            k -= 1
            bytes[k] = 0x30 + UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        } while k > n
        bytes[n + digits] = UInt8(truncatingIfNeeded: unit.value)
        n += digits + 1
    }

    public static func long(_ seconds: TimeInterval) -> String {
        func unit(_ n: Int, _ name: String) -> String { "\(n) \(name)\(n == 1 ? "" : "s")" }
        let (d, h, m, s) = parts(seconds)
        if d > 0 { return h > 0 ? unit(d, "day") + " " + unit(h, "hour") : unit(d, "day") }
        if h > 0 { return m > 0 ? unit(h, "hour") + " " + unit(m, "minute") : unit(h, "hour") }
        if m > 0 { return unit(m, "minute") }
        return unit(s, "second")
    }
}
