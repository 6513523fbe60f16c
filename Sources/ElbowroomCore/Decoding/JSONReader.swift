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
    /// The key `nextMember()` read last: where its bytes stand in the document when they are it
    /// (printable ASCII, no escape), else the key as a `String` (`keyText`).
    private var keyStart = 0
    private var keyCount = 0
    private var keyText: String?
    /// Whether `nextMember()` is at an object's first member (no comma before it).
    private var atFirstMember = false

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

    @inline(__always)  // (the byte after a token is nearly always the next token: one test)
    private mutating func skipWhitespace() {
        if index < bytes.count && bytes[index] > 0x20 { return }
        skipSpaces()
    }

    private mutating func skipSpaces() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0a, 0x0d: index += 1
            default: return
            }
        }
    }

    /// The next significant byte, after whitespace; `nil` at the end.
    @inline(__always)  // (a few instructions, asked several times a member)
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

    // MARK: Objects, member by member

    /// Starts an object read member by member, for a caller that knows its keys: consumes `{`;
    /// then `nextMember()` until it says the object ended. No closure and no `String` per key:
    /// the caller asks the key with `keyIs(_:)` (every render reads the cache file this way).
    /// A key that comes again is the caller's to skip (`firstTime(_:seen:)`).
    public mutating func beginObject() throws(Failure) {
        guard peek() == UInt8(ascii: "{") else { throw failure }
        try enter()
        index += 1
        atFirstMember = true
    }

    /// Reads the next member's key and colon and returns `true`, the reader at the member's
    /// value (which the caller must consume); or reads the object's end and returns `false`.
    /// Accepts what `object(_:)` accepts (one trailing comma too).
    public mutating func nextMember() throws(Failure) -> Bool {
        var c = peek()
        if atFirstMember {
            atFirstMember = false
        } else if c == UInt8(ascii: ",") {
            index += 1
            c = peek()
        } else if c != UInt8(ascii: "}") {
            throw failure
        }
        if c == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return false
        }
        guard c == UInt8(ascii: "\"") else { throw failure }
        let start = index + 1
        let stop = plainEnd(from: start)
        if stop < bytes.count && bytes[stop] == UInt8(ascii: "\"") {
            keyStart = start
            keyCount = stop - start
            if keyText != nil { keyText = nil }
            index = stop + 1
        } else {
            keyText = try string(validating: validating)
        }
        guard peek() == UInt8(ascii: ":") else { throw failure }
        index += 1
        return true
    }

    /// Whether the key `nextMember()` read is `name` (as `String`'s `==` says: an escape or a
    /// character `String` holds equal to an ASCII one spells the same key, as with `JSONDecoder`).
    public func keyIs(_ name: StaticString) -> Bool {
        let count = name.utf8CodeUnitCount
        let chars = name.utf8Start
        guard let keyText else {
            guard count == keyCount else { return false }
            var i = 0
            while i < count && bytes[keyStart + i] == chars[i] { i += 1 }
            return i == count
        }
        return keyText == String(decoding: UnsafeBufferPointer(start: chars, count: count), as: UTF8.self)
    }

    /// `field` (the caller's number for a key, 0…63, or -1 for a key it does not know) the first
    /// time it comes in an object, else -1: a key that comes again is skipped, the first one
    /// counts (as with `JSONDecoder`, and in `object(_:)`). `seen` holds a bit for each field
    /// come so far (start it at 0 for each object).
    public static func firstTime(_ field: Int, seen: inout UInt64) -> Int {
        guard field >= 0 else { return -1 }
        let bit: UInt64 = 1 << UInt64(field)
        guard seen & bit == 0 else { return -1 }
        seen |= bit
        return field
    }

    /// Where the printable ASCII (no quote, no backslash) from `start` ends. Eight bytes at a
    /// time (about 2 instructions a byte instead of 10: a cache file is mostly strings, its
    /// attribution alone some 250 bytes); the last few before the document's end byte by byte.
    @inline(__always)  // (for each key and string: a call costs it as much again as a short key's scan)
    private func plainEnd(from start: Int) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            var i = start
            if let base = UnsafeRawPointer(buffer.baseAddress) {
                let ones: UInt64 = 0x0101_0101_0101_0101
                let highs: UInt64 = 0x8080_8080_8080_8080
                while i + 8 <= buffer.count {
                    let x = base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    // A byte below 0x20 or from 0x80 (the high bit of `x - 0x20…` or of `x`), or a
                    // quote or backslash (a zero byte of `x ^ 0x22…`, `x ^ 0x5c…`).
                    let quote = x ^ (ones &* 0x22)
                    let slash = x ^ (ones &* 0x5c)
                    let stop = ((x &- ones &* 0x20) | x | ((quote &- ones) & ~quote) | ((slash &- ones) & ~slash)) & highs
                    // The lowest byte marked is the first that ends the run (a borrow marks
                    // only bytes above one that ends it).
                    if stop != 0 { return i + stop.trailingZeroBitCount / 8 }
                    i += 8
                }
            }
            while i < buffer.count {
                let c = buffer[i]
                if c &- 0x20 >= 0x60 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") { break }
                i += 1
            }
            return i
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
        index = plainEnd(from: start)
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
        // With escapes (the encoder writes every `/` as `\/`): the text unescaped into `out`,
        // runs of printable ASCII appended whole. Only text with a byte past ASCII is checked
        // for valid UTF-8 (`validated`).
        var out: [UInt8] = []
        out.reserveCapacity(index - start + 64)
        out.append(contentsOf: bytes[start..<index])
        while index < bytes.count {
            let c = bytes[index]
            switch c {
            case UInt8(ascii: "\""):
                index += 1
                return validating && !ascii ? try Self.validated(out[...]) : String(decoding: out, as: UTF8.self)
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
                    if scalar >= 0x80 { ascii = false }
                    Self.appendUTF8(scalar, to: &out)
                default:
                    throw failure
                }
            default:
                let run = plainEnd(from: index)
                if run > index {
                    out.append(contentsOf: bytes[index..<run])
                    index = run
                } else {
                    guard c >= 0x20 || !validating else { throw failure }
                    if c >= 0x80 { ascii = false }
                    out.append(c)
                    index += 1
                }
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
        if let value = plainDouble() { return value }
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

    /// The number here when it has no exponent and at most 19 significant digits, at most 19 of
    /// them after the point (every number a cache file holds), read in the one pass that checks
    /// its grammar as `numberText()` does (the same bytes consumed); `nil`, the reader where it
    /// was, for anything else (an exponent, more digits, a grammar error), which `double()` reads
    /// the general way.
    private mutating func plainDouble() -> Double? {
        _ = peek()
        return bytes.withUnsafeBufferPointer { b -> Double? in
            var i = index
            let n = b.count
            var negative = false
            if i < n && b[i] == UInt8(ascii: "-") {
                negative = true
                i += 1
            }
            guard i < n, b[i] &- UInt8(ascii: "0") < 10 else { return nil }
            var mantissa: UInt64 = 0
            var digits = 0  // significant: not counting leading zeros
            if b[i] == UInt8(ascii: "0") {
                i += 1
            } else {
                while i < n, case let d = b[i] &- UInt8(ascii: "0"), d < 10 {
                    mantissa = mantissa &* 10 &+ UInt64(d)
                    digits += 1
                    i += 1
                }
            }
            var fraction = -1
            if i < n && b[i] == UInt8(ascii: ".") {
                i += 1
                fraction = 0
                guard i < n, b[i] &- UInt8(ascii: "0") < 10 else { return nil }
                while i < n, case let d = b[i] &- UInt8(ascii: "0"), d < 10 {
                    if mantissa != 0 || d != 0 { digits += 1 }
                    mantissa = mantissa &* 10 &+ UInt64(d)
                    fraction += 1
                    i += 1
                }
            }
            guard digits <= 19, fraction <= 19 else { return nil }
            if i < n && (b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E")) { return nil }
            index = i
            return Self.exactDouble(mantissa: mantissa, fraction: fraction, negative: negative)
        }
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
        return exactDouble(mantissa: mantissa, fraction: fraction, negative: negative)
    }

    /// `mantissa / 10^fraction` (`fraction` -1 or 0: no digits after the point), negated when
    /// `negative`, correctly rounded: `exactDouble(_:)` once the digits are read.
    private static func exactDouble(mantissa: UInt64, fraction: Int, negative: Bool) -> Double {
        let value: Double
        if mantissa == 0 {
            value = 0
        } else if fraction <= 0 {
            value = Double(mantissa)  // rounds to nearest, ties to even
        } else if mantissa <= 1 << 53 {
            // Both exact as doubles (every integer to 2^53, every power of ten to 10^22): their
            // quotient, one IEEE division, is correctly rounded (Clinger's fast path; the 16
            // digits of an observation's time `1795852985.770975` take it).
            var divisor = 1.0
            for _ in 0..<fraction { divisor *= 10 }
            value = Double(mantissa) / divisor
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
