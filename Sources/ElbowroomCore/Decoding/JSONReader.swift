// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A pull reader over UTF-8 JSON bytes (RFC 8259, strict), for the two documents every render
/// reads: the cache file and Claude Code's status-line input. `JSONDecoder` with `Codable` costs a
/// render more than everything else it does (its generic machinery is set up on first use, every
/// process); this reads the same documents field by field, with no dictionaries and no generics.
///
/// The caller walks the document: `object { key in … }` calls back once per key with the reader
/// positioned at the value, which the callback must consume (`string()`, `double()`, …, or
/// `skipValue()` for a key it does not know). Any deviation from JSON — or from the type the
/// caller asks for — throws `JSONReader.Failure`. Nesting deeper than `maxDepth` is a failure too.
public struct JSONReader {
    public struct Failure: Error, Equatable {
        public let offset: Int
    }

    /// The deepest nesting accepted (what `JSONDecoder` accepts too).
    public static let maxDepth = 512

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    /// Whether strings must be valid UTF-8: not inside a skipped value, which `JSONDecoder`
    /// never decodes either.
    private var validating = true
    /// Whether the last string read was printable ASCII with no escape (its bytes as they stand).
    private var lastStringWasPlain = false

    public init(_ data: Data) {
        // Through the buffer, not `Data`'s iterator (whose metadata costs a render to set up).
        bytes = data.withUnsafeBytes { raw in [UInt8](raw.bindMemory(to: UInt8.self)) }
    }

    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// A reader of `bytes` that starts at `offset` (another parser's position; see `JSONValue`).
    public init(bytes: [UInt8], offset: Int) {
        self.bytes = bytes
        index = offset
    }

    /// Where the next read starts.
    public var offset: Int { index }

    private var failure: Failure { Failure(offset: index) }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0a, 0x0d: index += 1
            default: return
            }
        }
    }

    /// The next significant byte, after whitespace; `nil` at the end.
    private mutating func peek() -> UInt8? {
        skipWhitespace()
        return index < bytes.count ? bytes[index] : nil
    }

    /// The document ends here (only whitespace follows).
    public mutating func end() throws(Failure) {
        guard peek() == nil else { throw failure }
    }

    /// Consumes `null` when that is the value here; otherwise leaves the value.
    public mutating func null() throws(Failure) -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw failure }
        let start = word.utf8Start
        for i in 0..<count where bytes[index + i] != start[i] { throw failure }
        index += count
    }

    public mutating func bool() throws(Failure) -> Bool {
        switch peek() {
        case UInt8(ascii: "t"): try literal("true"); return true
        case UInt8(ascii: "f"): try literal("false"); return false
        default: throw failure
        }
    }

    /// An object: `body` is called with each key, the reader at its value. A key that comes
    /// again is skipped (the first one counts, as with `JSONDecoder`).
    public mutating func object(_ body: (inout JSONReader, String) throws(Failure) -> Void) throws(Failure) {
        guard peek() == UInt8(ascii: "{") else { throw failure }
        try enter()
        index += 1
        if peek() == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return
        }
        // The keys seen: where each printable-ASCII one stands in the document (start and length,
        // compared as bytes, which for ASCII is what `String`'s `==` says), and any other (an
        // escape, a byte past ASCII) as a `String`. (An array of `String`s cost each object a few
        // allocations and a `String` comparison per pair of keys, most of a cache file's keys.)
        var seenASCII: [Int] = []
        var seenOther: [String] = []
        while true {
            guard peek() == UInt8(ascii: "\"") else { throw failure }
            let keyStart = index + 1
            let key = try string(validating: validating)
            let keyLength = index - 1 - keyStart
            let plain = lastStringWasPlain
            guard peek() == UInt8(ascii: ":") else { throw failure }
            index += 1
            if seenBefore(key, plain: plain, start: keyStart, length: keyLength, ascii: seenASCII, other: seenOther) {
                try skipValue()
            } else {
                if plain {
                    if seenASCII.isEmpty { seenASCII.reserveCapacity(32) }
                    seenASCII.append(keyStart)
                    seenASCII.append(keyLength)
                } else {
                    seenOther.append(key)
                }
                try body(&self, key)
            }
            switch peek() {
            case UInt8(ascii: ","):
                index += 1
                // One trailing comma is accepted, as `JSONDecoder` accepts it.
                if peek() == UInt8(ascii: "}") {
                    index += 1
                    depth -= 1
                    return
                }
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return
            default: throw failure
            }
        }
    }

    /// Whether `key` (at `start`, `length` bytes, in the document; `plain` when those are it)
    /// is one of the keys seen: `ascii` (start and length of each) or `other`.
    @inline(never)  // (once, not in each caller's specialization of `object`)
    private func seenBefore(_ key: String, plain: Bool, start: Int, length: Int, ascii: [Int], other: [String]) -> Bool {
        var k = 0
        while k < ascii.count {
            let (s, n) = (ascii[k], ascii[k + 1])
            k += 2
            if plain {
                guard n == length else { continue }
                var i = 0
                while i < n && bytes[s + i] == bytes[start + i] { i += 1 }
                if i == n { return true }
            } else if String(decoding: bytes[s..<s + n], as: UTF8.self) == key {
                // (An escape can spell an ASCII key, and a few other characters are the same
                // as an ASCII one to `String`, as to `JSONDecoder`'s dictionary of keys.)
                return true
            }
        }
        for seen in other where seen == key { return true }
        return false
    }

    /// An array: `element` is called once per element, the reader at it.
    public mutating func array(_ element: (inout JSONReader) throws(Failure) -> Void) throws(Failure) {
        guard peek() == UInt8(ascii: "[") else { throw failure }
        try enter()
        index += 1
        if peek() == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return
        }
        while true {
            try element(&self)
            switch peek() {
            case UInt8(ascii: ","):
                index += 1
                if peek() == UInt8(ascii: "]") {  // a trailing comma, as in `object`
                    index += 1
                    depth -= 1
                    return
                }
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return
            default: throw failure
            }
        }
    }

    private mutating func enter() throws(Failure) {
        guard depth < Self.maxDepth else { throw failure }
        depth += 1
    }

    /// Consumes any one value.
    public mutating func skipValue() throws(Failure) {
        let outer = validating
        validating = false
        defer { validating = outer }
        switch peek() {
        case UInt8(ascii: "{"): try object { reader, _ throws(Failure) in try reader.skipValue() }
        case UInt8(ascii: "["): try array { reader throws(Failure) in try reader.skipValue() }
        case UInt8(ascii: "\""): _ = try string(validating: false)
        case UInt8(ascii: "t"), UInt8(ascii: "f"): _ = try bool()
        case UInt8(ascii: "n"): try literal("null")
        default: try skipNumber()
        }
    }

    /// A skipped number is only scanned, not checked (`1E+05.5` passes), as `JSONDecoder` scans it.
    private mutating func skipNumber() throws(Failure) {
        guard atNumber() else { throw failure }
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"),
                 UInt8(ascii: "+"), UInt8(ascii: "-"):
                index += 1
            default:
                return
            }
        }
    }

    /// Whether the value here is a string / a number (without consuming it).
    public mutating func atString() -> Bool { peek() == UInt8(ascii: "\"") }
    public mutating func atNumber() -> Bool {
        guard let c = peek() else { return false }
        return c == UInt8(ascii: "-") || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9"))
    }

    // MARK: Lenient reads

    /// Reads the value here with `read`; when that fails (a wrong type, a string that is not
    /// UTF-8, a number out of range — anything but broken JSON), the value is skipped instead
    /// and `read`'s effects stand as they were when it failed: for `try?`-style lenient decoding
    /// (`Lenient<T>` in the Codable decoders). Returns whether `read` succeeded.
    public mutating func leniently(_ read: (inout JSONReader) throws(Failure) -> Void) throws(Failure) -> Bool {
        let start = index
        let startDepth = depth
        do {
            try read(&self)
            return true
        } catch {
            index = start
            depth = startDepth
            try skipValue()
            return false
        }
    }

    /// A string here, or `nil` for any other value (or a string that is not valid UTF-8 or
    /// holds a raw control), which is skipped.
    public mutating func lenientString() throws(Failure) -> String? {
        var value: String?
        _ = try leniently { r throws(Failure) in value = try r.string() }
        return value
    }

    /// A finite number here, or `nil` for any other value (skipped). The number is scanned as a
    /// skipped one is (`JSONDecoder` scans before it decodes), then must be a JSON number.
    public mutating func lenientNumber() throws(Failure) -> Double? {
        guard atNumber() else {
            try skipValue()
            return nil
        }
        let start = index
        try skipNumber()
        let end = index
        index = start
        let outer = validating
        validating = true
        defer { validating = outer }
        guard let parsed = try? numberText(), index == end, let value = Self.finiteDouble(parsed.0) else {
            index = end
            return nil
        }
        return value
    }

    // MARK: Strings

    /// A string; invalid UTF-8 in it is a failure.
    public mutating func string() throws(Failure) -> String {
        try string(validating: true)
    }

    private mutating func string(validating: Bool) throws(Failure) -> String {
        guard peek() == UInt8(ascii: "\"") else { throw failure }
        index += 1
        lastStringWasPlain = false
        if !validating {
            // In a skipped value only the end is found, as `JSONDecoder` scans it: a backslash
            // takes the next byte whatever it is, `\u` the next four unless one is a quote.
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    index += 1
                    return ""
                case UInt8(ascii: "\\"):
                    if index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "u") {
                        // Four bytes, not checked as hex, but none of them may be a quote.
                        guard index + 6 <= bytes.count else { throw failure }
                        for k in 2..<6 where bytes[index + k] == UInt8(ascii: "\"") { throw failure }
                        index += 6
                    } else {
                        index += 2
                    }
                default: index += 1
                }
            }
            throw failure
        }
        let start = index
        // Fastest path, over the buffer: printable ASCII up to the quote (every string a cache
        // file holds). At anything else (a backslash, a control, a byte past ASCII) the loops
        // below take over from there.
        index = bytes.withUnsafeBufferPointer { buffer in
            var i = start
            while i < buffer.count {
                let c = buffer[i]
                if c &- 0x20 >= 0x60 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") { break }
                i += 1
            }
            return i
        }
        lastStringWasPlain = index < bytes.count && bytes[index] == UInt8(ascii: "\"")
        // Fast path: no escapes. ASCII (nearly every string here) is valid UTF-8 as it stands.
        var ascii = true
        while index < bytes.count {
            let c = bytes[index]
            if c == UInt8(ascii: "\"") {
                let text = validating && !ascii ? try Self.validated(bytes[start..<index]) : String(decoding: bytes[start..<index], as: UTF8.self)
                index += 1
                return text
            }
            if c == UInt8(ascii: "\\") { break }
            guard c >= 0x20 || !validating else { throw failure }
            ascii = ascii && c < 0x80
            index += 1
        }
        var out = [UInt8](bytes[start..<index])
        while index < bytes.count {
            let c = bytes[index]
            switch c {
            case UInt8(ascii: "\""):
                index += 1
                return validating ? try Self.validated(out[...]) : String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw failure }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0c)
                case UInt8(ascii: "n"): out.append(0x0a)
                case UInt8(ascii: "r"): out.append(0x0d)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if scalar >= 0xD800 && scalar < 0xDC00, index + 1 < bytes.count,
                       bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                        let mark = index
                        index += 2
                        let low = try hex4()
                        if low >= 0xDC00 && low < 0xE000 {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            index = mark
                        }
                    }
                    if scalar >= 0xD800 && scalar < 0xE000 {
                        // A lone surrogate: a failure, except in a skipped value (never decoded).
                        guard !validating else { throw failure }
                        scalar = 0xFFFD
                    }
                    Self.appendUTF8(scalar, to: &out)
                default:
                    throw failure
                }
            default:
                guard c >= 0x20 || !validating else { throw failure }
                out.append(c)
                index += 1
            }
        }
        throw failure
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let digit: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw failure
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private static func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
        switch scalar {
        case ..<0x80:
            out.append(UInt8(scalar))
        case ..<0x800:
            out.append(UInt8(0xC0 | scalar >> 6))
            out.append(UInt8(0x80 | scalar & 0x3F))
        case ..<0x10000:
            out.append(UInt8(0xE0 | scalar >> 12))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        default:
            out.append(UInt8(0xF0 | scalar >> 18))
            out.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// The bytes as a string when they are valid UTF-8 (decoding replaces nothing then, so the
    /// result's bytes are the input's).
    private static func validated(_ slice: ArraySlice<UInt8>) throws(Failure) -> String {
        let text = String(decoding: slice, as: UTF8.self)
        var i = slice.startIndex
        for byte in text.utf8 {
            guard i < slice.endIndex, slice[i] == byte else { throw Failure(offset: slice.startIndex) }
            i += 1
        }
        guard i == slice.endIndex else { throw Failure(offset: slice.startIndex) }
        return text
    }

    // MARK: Numbers

    /// The bytes of a number, checked against the JSON grammar
    /// (`-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`); whether it is an integer.
    /// (`JSONDocument` reads its numbers' literals with it too.)
    mutating func numberText() throws(Failure) -> (ArraySlice<UInt8>, isInteger: Bool) {
        _ = peek()
        let start = index
        func digit(_ i: Int) -> Bool { i < bytes.count && bytes[i] >= UInt8(ascii: "0") && bytes[i] <= UInt8(ascii: "9") }
        var isInteger = true
        if index < bytes.count && bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard digit(index) else { throw failure }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while digit(index) { index += 1 }
        }
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard digit(index) else { throw failure }
            while digit(index) { index += 1 }
        }
        if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            isInteger = false
            index += 1
            if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) { index += 1 }
            guard digit(index) else { throw failure }
            while digit(index) { index += 1 }
        }
        return (bytes[start..<index], isInteger)
    }

    /// A finite number: one too large for a `Double` is a failure, not infinity, and one too
    /// small for it (`1e-400`) a failure too, not zero (as with `JSONDecoder`).
    public mutating func double() throws(Failure) -> Double {
        let (text, _) = try numberText()
        guard let value = Self.finiteDouble(text) else { throw failure }
        return value
    }

    private static func finiteDouble(_ text: ArraySlice<UInt8>) -> Double? {
        if let exact = exactDouble(text) { return exact }
        guard let value = parseDouble(text), value.isFinite else { return nil }
        if value == 0 {
            for c in text {
                if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") { break }
                if c >= UInt8(ascii: "1") && c <= UInt8(ascii: "9") { return nil }
            }
        }
        return value
    }

    /// An integer that fits an `Int`; `2.0` and `2e0` are 2, `2.5` is a failure.
    public mutating func int() throws(Failure) -> Int {
        let (text, isInteger) = try numberText()
        if isInteger {
            var value = 0
            let negative = text.first == UInt8(ascii: "-")
            for c in text where c != UInt8(ascii: "-") {
                let (times, o1) = value.multipliedReportingOverflow(by: 10)
                let (next, o2) = negative
                    ? times.subtractingReportingOverflow(Int(c - UInt8(ascii: "0")))
                    : times.addingReportingOverflow(Int(c - UInt8(ascii: "0")))
                guard !o1 && !o2 else { throw failure }
                value = next
            }
            return value
        }
        // (Here an underflow is 0, as `JSONDecoder` reads an integer.)
        guard let value = Self.parseDouble(text), value.isFinite, let exact = Int(exactly: value) else { throw failure }
        return exact
    }

    /// The value of a grammar-checked number of at most 19 significant digits, at most 19 of
    /// them after the point and no exponent (every number a cache file holds: `37`, `12.5`,
    /// `1795569655.3691828`), correctly rounded without `strtod` (which costs a 17-digit
    /// timestamp ~2.5 k instructions): the digits make an integer `m` < 2^64, and `m / 10^k` is
    /// found to 55 bits by one 128-by-64-bit division, then rounded to 53 (nearest, ties to
    /// even, the remainder as sticky bit). `nil` for anything else, which `strtod` reads; a test
    /// holds the two bit-equal.
    static func exactDouble(_ text: ArraySlice<UInt8>) -> Double? {
        var mantissa: UInt64 = 0
        var digits = 0
        var fraction = -1  // digits after the point; -1 before one
        var negative = false
        for c in text {
            switch c {
            case UInt8(ascii: "-"): negative = true
            case UInt8(ascii: "."): fraction = 0
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if mantissa != 0 || c != UInt8(ascii: "0") { digits += 1 }
                guard digits <= 19 else { return nil }
                mantissa = mantissa * 10 + UInt64(c - UInt8(ascii: "0"))
                if fraction >= 0 { fraction += 1 }
            default: return nil  // an exponent
            }
        }
        guard fraction <= 19 else { return nil }
        let value: Double
        if mantissa == 0 {
            value = 0
        } else if fraction <= 0 {
            value = Double(mantissa)  // rounds to nearest, ties to even
        } else {
            var divisor: UInt64 = 1
            for _ in 0..<fraction { divisor *= 10 }
            // Shift m left by s so that q = floor(m·2^s / 10^k) has 55 bits.
            let mBits = 64 - mantissa.leadingZeroBitCount
            let dBits = 64 - divisor.leadingZeroBitCount
            var shift = 55 - (mBits - dBits)
            var quotient: UInt64 = 0
            var remainder: UInt64 = 0
            while true {
                let high = shift >= 64 ? mantissa << (shift - 64) : shift <= 0 ? 0 : mantissa >> (64 - shift)
                let low = shift >= 64 ? 0 : shift <= -64 ? 0 : shift >= 0 ? mantissa << shift : mantissa >> -shift
                (quotient, remainder) = divisor.dividingFullWidth((high, low))
                if quotient >= 1 << 55 { shift -= 1 } else if quotient < 1 << 54 { shift += 1 } else { break }
            }
            // Anything below the 55 bits makes the value more than the quotient: the remainder,
            // and (a large m shifted right) the bits shifted out, for floor(floor(m/2^a)/d) is
            // floor(m/(2^a·d)).
            let sticky = remainder != 0 || (shift < 0 && (shift <= -64 || mantissa & ((1 << UInt64(-shift)) - 1) != 0))
            var significand = quotient >> 2
            let dropped = quotient & 3
            if dropped == 3 || (dropped == 2 && (sticky || significand & 1 == 1)) { significand += 1 }
            value = Double(sign: .plus, exponent: 2 - shift, significand: Double(significand))
        }
        return negative ? -value : value
    }

    /// `strtod` on the (already grammar-checked) bytes: correctly rounded, and the C locale is the
    /// only one a static binary that never calls `setlocale` has.
    private static func parseDouble(_ text: ArraySlice<UInt8>) -> Double? {
        var buffer = [CChar](repeating: 0, count: text.count + 1)
        var i = 0
        for c in text {
            buffer[i] = CChar(bitPattern: c)
            i += 1
        }
        return buffer.withUnsafeBufferPointer { pointer -> Double? in
            var end: UnsafeMutablePointer<CChar>?
            let value = strtod(pointer.baseAddress!, &end)
            guard let end, end - UnsafeMutablePointer(mutating: pointer.baseAddress!) == text.count else { return nil }
            return value
        }
    }
}
