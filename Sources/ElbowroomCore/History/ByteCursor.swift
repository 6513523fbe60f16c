// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// Reads the history's line formats (`HistoryFile`, `HistoryDigest`) in one pass over their
/// bytes: no `String` per line, no splitting, no `Double(String)` — these run on renders.
struct ByteCursor {
    let b: UnsafeBufferPointer<UInt8>
    var i: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int = 0) {
        b = bytes
        i = start
    }

    var atEnd: Bool { i >= b.count }
    var atLineEnd: Bool { i >= b.count || b[i] == 0x0A }

    /// Past the end of the current line.
    mutating func nextLine() {
        while i < b.count, b[i] != 0x0A { i &+= 1 }
        i &+= 1
    }

    /// Moves past `text` when the bytes here are exactly it followed by a newline.
    mutating func line(_ text: String) -> Bool {
        var text = text
        let matches = text.withUTF8 { t in
            b.count > i + t.count && b[i + t.count] == 0x0A
                && (t.isEmpty || memcmp(b.baseAddress! + i, t.baseAddress!, t.count) == 0)
        }
        guard matches else { return false }
        i += text.utf8.count + 1
        return true
    }

    /// 1 to 12 decimal digits.
    @inline(__always)
    mutating func integer() -> Int64? {
        // In locals, not `self`'s fields: the loop runs for every digit of a history (thousands a
        // render with a tooltip), and through `self` it reloaded both on each one.
        let bytes = b
        let first = i
        var at = first
        var value: Int64 = 0
        while at < bytes.count {
            let digit = bytes[at] &- 0x30
            guard digit <= 9 else { break }
            value = value &* 10 &+ Int64(digit)
            at &+= 1
        }
        i = at
        let count = at - first
        return count > 0 && count <= 12 ? value : nil
    }

    /// A percentage as `HistoryFile.percent` writes it (`37`, `37.5`, `0.25`; at most 100),
    /// rounded to two decimals.
    @inline(__always)
    mutating func percent() -> Double? {
        guard let whole = integer() else { return nil }
        guard i < b.count, b[i] == 0x2E else {
            // A whole number is its own rounding.
            return whole <= 100 ? Double(whole) : nil
        }
        i &+= 1
        return fraction(after: whole)
    }

    /// The percent `whole` and the 1 to 6 decimals here (after its dot), rounded to two decimals.
    @inline(__always)
    mutating func fraction(after whole: Int64) -> Double? {
        let first = i
        var fraction: Int64 = 0
        while i < b.count, i - first < 6 {
            let digit = b[i] &- 0x30
            guard digit <= 9 else { break }
            fraction = fraction &* 10 &+ Int64(digit)
            i &+= 1
        }
        let digits = i - first
        guard digits > 0, whole <= 100 else { return nil }
        if digits <= 2 {
            // All this program writes: the hundredths as an integer, divided once. It is the
            // double the reading below rounds such a number to (a test holds them equal for
            // every one), without its sum of scaled digits and `rounded()`.
            let hundredths = whole &* 100 &+ (digits == 1 ? fraction &* 10 : fraction)
            return hundredths <= 10_000 ? Double(hundredths) / 100 : nil
        }
        var used = Double(whole)
        var scale = 0.1
        for k in first..<i {
            used += Double(b[k] &- 0x30) * scale
            scale /= 10
        }
        guard used <= 100 else { return nil }
        return (used * 100).rounded() / 100
    }

    /// A reset time, or `-` for none: `.some(nil)` for `-`, `nil` when neither is here.
    mutating func resetTime() -> Int64?? {
        if i < b.count, b[i] == 0x2D {
            i &+= 1
            return .some(nil)
        }
        return integer().map { .some($0) }
    }

    /// A window key up to the next space or newline, made a `String` of its own (a digest names
    /// each window once).
    mutating func key() -> String? {
        let start = i
        // Up to the space after it; a newline, the end or any other byte a key may not have
        // (`HistoryFile.isKeyByte`) makes the line unusable.
        while i < b.count, b[i] != 0x20 {
            guard HistoryFile.isKeyByte(b[i]) else { return nil }
            i &+= 1
        }
        guard i > start, i - start <= 64 else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self)
    }

    /// A window key up to the next space or newline, through `keys`.
    mutating func key(_ keys: inout KeyTable) -> String? {
        let start = i
        while i < b.count, b[i] != 0x20, b[i] != 0x0A { i &+= 1 }
        guard i > start, i - start <= 64 else { return nil }
        return keys.key(UnsafeBufferPointer(rebasing: b[start..<i]))
    }

    mutating func byte(_ c: UInt8) -> Bool {
        guard i < b.count, b[i] == c else { return false }
        i &+= 1
        return true
    }

    mutating func space() -> Bool { byte(0x20) }
}

/// The few distinct keys of a file, each checked and made a `String` once: a file holds
/// thousands of lines but a handful of windows.
struct KeyTable {
    // Strings, not (bytes, string) pairs: an array of a type no other code uses costs a render
    // its generic metadata (~14 k instructions each time it is first grown).
    private var known: [String] = []

    /// The key spelled by `bytes`, or `nil` when it has a byte keys may not have.
    mutating func key(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        for var entry in known where entry.utf8.count == bytes.count {
            if entry.withUTF8({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }) { return entry }
        }
        guard bytes.allSatisfy(HistoryFile.isKeyByte) else { return nil }
        let key = String(decoding: bytes, as: UTF8.self)
        if known.count < 32 { known.append(key) }
        return key
    }
}

/// Writes the history's line formats as bytes: `String(Int64)` and `+=` on a `String` cost some
/// 4,000 instructions a line, and a status-line render whose numbers moved rewrites about a
/// thousand lines under the cache's lock.
struct ByteWriter {
    var bytes: [UInt8] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    mutating func text(_ s: String) {
        bytes.append(contentsOf: s.utf8)
    }

    mutating func byte(_ b: UInt8) {
        bytes.append(b)
    }

    /// Decimal, with a `-` for negatives.
    mutating func integer(_ value: Int64) {
        if value < 0 { bytes.append(0x2D) }
        var magnitude = value.magnitude
        // Least significant digit first, then turned around in place.
        var low = bytes.count
        repeat {
            bytes.append(UInt8(truncatingIfNeeded: magnitude % 10) &+ 0x30)
            magnitude /= 10
        } while magnitude > 0
        var high = bytes.count - 1
        while low < high {
            bytes.swapAt(low, high)
            low += 1
            high -= 1
        }
    }

    /// Percent used as `HistoryFile.percent` spells it: up to two decimals, no trailing zeros.
    mutating func percent(_ value: Double) {
        let hundredths = Int64((min(max(value.isFinite ? value : 0, 0), 100) * 100).rounded())
        integer(hundredths / 100)
        let fraction = hundredths % 100
        guard fraction != 0 else { return }
        bytes.append(0x2E)
        bytes.append(UInt8(fraction / 10) + 0x30)
        if fraction % 10 != 0 { bytes.append(UInt8(fraction % 10) + 0x30) }
    }

    var data: Data { Data(bytes) }
}
