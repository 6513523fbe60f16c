// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
/// The TOML subset elbowroom's config file uses:
///
/// | construct | example |
/// |---|---|
/// | comment | `# anything to the end of the line` |
/// | table | `[thresholds]` (bare name); `[colors.tmux]` inside `[colors]` and `[accounts.NAME]` inside `[accounts]` only |
/// | key | `max_age`, `"quoted key"` |
/// | string | `"basic \"escapes\" \n \t \\ \u00e9"`, `'literal'` |
/// | integer / float | `180`, `-3`, `1_000`, `2.5` |
/// | boolean | `true`, `false` |
///
/// Anything else (arrays, inline tables, dates, dotted keys, multi-line strings) is an error
/// that names the line and column.
public enum TOMLSubset {
    public enum Value: Equatable, Sendable {
        case string(String)
        case number(Double)
        case bool(Bool)

        public var typeName: String {
            switch self {
            case .string: "a string"
            case .number: "a number"
            case .bool: "a boolean"
            }
        }
    }

    /// A key with its value and where it stood.
    public struct Entry: Equatable, Sendable {
        public var table: String
        public var key: String
        public var value: Value
        public var line: Int
        public var column: Int
        /// Column where the value starts.
        public var valueColumn: Int
    }

    public struct ParseError: Error, Equatable, Sendable {
        public var line: Int
        public var column: Int
        public var message: String
    }

    /// Parses the document into entries in order; a repeated key or table is an error.
    /// - Parameter nestable: the tables that may have tables inside, one level (`[colors.tmux]`).
    public static func parse(_ text: String, nestable: [String] = ["colors", "accounts"]) throws(ParseError) -> [Entry] {
        var entries: [Entry] = []
        try parse(text, nestable: nestable) { entries.append($0) }
        return entries
    }

    /// Parses the document, handing each entry to `each` in order as it is read; a repeated key or
    /// table is an error (thrown once `each` has had the entries before it). What a render uses:
    /// an array of entries costs it the runtime metadata of `[Entry]` (~8 k instructions).
    public static func parse(_ text: String, nestable: [String] = ["colors", "accounts"],
                             each: (Entry) -> Void) throws(ParseError) {
        var table = ""
        // Arrays, not sets: a config has a few dozen keys, and a `Set<String>` costs every render
        // with a config file ~220 k instructions of runtime metadata on its first use.
        var seenTables: [String] = []
        seenTables.reserveCapacity(8)
        seenTables.append("")
        // Each key seen, with its table at the same index (not `table + "\0" + key`: a string
        // built for each key cost a render ~350 instructions a key). Room for a config's keys
        // made once (not a doubling at a time, three arrays of them).
        var seenKeyTables: [String] = []
        var seenKeys: [String] = []
        seenKeyTables.reserveCapacity(16)
        seenKeys.reserveCapacity(16)
        // UTF-8 bytes, not Characters or scalars: every render with a config file parses it, and
        // building keys and strings a scalar at a time cost it ~0.1 M instructions for ten lines.
        // Columns still count Unicode scalars. A line ends at "\n", and a "\r" before it goes with
        // it ("\r\n"); a lone "\r" stays in the line (and is an error there).
        let bytes = Array(text.utf8)
        var start = 0
        var index = 0
        while start <= bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            let lineEnd = end > start && end < bytes.count && bytes[end - 1] == 0x0D ? end - 1 : end
            defer { start = end + 1; index += 1 }
            var scanner = LineScanner(bytes: bytes, start: start, end: lineEnd, lineNumber: index + 1)
            scanner.skipSpace()
            if scanner.atEndOrComment { continue }
            if scanner.peek == UInt8(ascii: "[") {
                let column = scanner.column
                scanner.advance()
                scanner.skipSpace()
                if scanner.peek == UInt8(ascii: "[") { throw scanner.error("arrays of tables are not supported") }
                // The name's bytes are found first and made a `String` once: `[accounts.NAME]`
                // written close is one string of its bytes (spaced, its parts joined).
                let nameStart = scanner.index
                try scanner.skipBareKey()
                let nameEnd = scanner.index
                scanner.skipSpace()
                let name: String
                if scanner.peek == UInt8(ascii: "."), Self.isNestable(bytes[nameStart..<nameEnd], in: nestable) {
                    let dot = scanner.index
                    scanner.advance()
                    scanner.skipSpace()
                    let inner = scanner.index
                    try scanner.skipBareKey()
                    name = dot == nameEnd && inner == dot + 1 ? scanner.text(nameStart, scanner.index)
                        : scanner.text(nameStart, nameEnd) + "." + scanner.text(inner, scanner.index)
                    scanner.skipSpace()
                } else {
                    name = scanner.text(nameStart, nameEnd)
                }
                guard scanner.peek == UInt8(ascii: "]") else {
                    throw scanner.error(scanner.peek == UInt8(ascii: ".") ? "nested tables are not supported" : "expected ']' to close the table name")
                }
                scanner.advance()
                try scanner.expectEndOfLine()
                guard !seenTables.contains(name) else {
                    throw ParseError(line: index + 1, column: column, message: "table [\(name)] is defined twice")
                }
                seenTables.append(name)
                table = name
                continue
            }
            let keyColumn = scanner.column
            let key = scanner.peek == UInt8(ascii: "\"") ? try scanner.basicString() : try scanner.bareKey()
            scanner.skipSpace()
            if scanner.peek == UInt8(ascii: ".") { throw scanner.error("dotted keys are not supported") }
            guard scanner.peek == UInt8(ascii: "=") else { throw scanner.error("expected '=' after the key '\(key)'") }
            scanner.advance()
            scanner.skipSpace()
            let valueColumn = scanner.column
            let value = try scanner.value()
            try scanner.expectEndOfLine()
            for i in 0..<seenKeys.count where seenKeys[i] == key && seenKeyTables[i] == table {
                throw ParseError(line: index + 1, column: keyColumn, message: "key '\(key)' is defined twice")
            }
            seenKeyTables.append(table)
            seenKeys.append(key)
            each(Entry(table: table, key: key, value: value, line: index + 1,
                       column: keyColumn, valueColumn: valueColumn))
        }
    }

    /// Whether the table name `key` (a bare key's bytes: ASCII, where bytes compare as `String`s
    /// do) is one of `nestable`.
    static func isNestable(_ key: ArraySlice<UInt8>, in nestable: [String]) -> Bool {
        for table in nestable {
            var table = table
            let same = table.withUTF8 { bytes in
                guard bytes.count == key.count else { return false }
                var i = key.startIndex
                for byte in bytes {
                    guard key[i] == byte else { return false }
                    i += 1
                }
                return true
            }
            if same { return true }
        }
        return false
    }

    /// One line of the document, as UTF-8 bytes of the whole text between `start` and `end`.
    struct LineScanner {
        let bytes: [UInt8]
        let start: Int
        let end: Int
        let lineNumber: Int
        var index: Int

        init(bytes: [UInt8], start: Int, end: Int, lineNumber: Int) {
            self.bytes = bytes
            self.start = start
            self.end = end
            self.lineNumber = lineNumber
            index = start
        }

        /// The column of `index`, counted in Unicode scalars (continuation bytes do not count).
        var column: Int {
            var column = 1
            for i in start..<index where bytes[i] & 0xC0 != 0x80 { column += 1 }
            return column
        }

        var peek: UInt8? { index < end ? bytes[index] : nil }
        var atEndOrComment: Bool { peek == nil || peek == UInt8(ascii: "#") }

        /// The scalar that starts at `index` (the text came from a `String`: valid UTF-8).
        var scalar: Unicode.Scalar? {
            guard index < end else { return nil }
            let lead = bytes[index]
            let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
            var value = length == 1 ? UInt32(lead) : UInt32(lead) & (0xFF >> (length + 1))
            for k in 1..<max(length, 1) where index + k < end { value = value << 6 | UInt32(bytes[index + k] & 0x3F) }
            return Unicode.Scalar(value)
        }

        /// Steps over one scalar.
        mutating func advance() {
            index += 1
            while index < end && bytes[index] & 0xC0 == 0x80 { index += 1 }
        }

        mutating func skipSpace() {
            while let c = peek, c == 0x20 || c == 0x09 { index += 1 }
        }

        func error(_ message: String) -> ParseError {
            ParseError(line: lineNumber, column: column, message: message)
        }

        func text(_ from: Int, _ to: Int) -> String {
            String(decoding: bytes[from..<to], as: UTF8.self)
        }

        mutating func expectEndOfLine() throws(ParseError) {
            skipSpace()
            guard let c = scalar, c != "#" else { return }
            throw error("unexpected \(Character(c).quotedForError) after the value")
        }

        mutating func bareKey() throws(ParseError) -> String {
            let from = index
            try skipBareKey()
            return text(from, index)
        }

        /// Steps over a bare key (`bareKey` without making its `String`).
        mutating func skipBareKey() throws(ParseError) {
            let from = index
            while let c = peek, Self.isBareKeyByte(c) { index += 1 }
            guard index > from else {
                throw error(scalar.map { "expected a key name, found \(Character($0).quotedForError)" } ?? "expected a key name")
            }
        }

        static func isBareKeyByte(_ c: UInt8) -> Bool {
            (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x5F || c == 0x2D
        }

        mutating func value() throws(ParseError) -> Value {
            switch peek {
            case UInt8(ascii: "\""):
                if end >= index + 3 && bytes[index + 1] == UInt8(ascii: "\"") && bytes[index + 2] == UInt8(ascii: "\"") {
                    throw error("multi-line strings are not supported")
                }
                return .string(try basicString())
            case UInt8(ascii: "'"):
                return .string(try literalString())
            case UInt8(ascii: "["):
                throw error("arrays are not supported")
            case UInt8(ascii: "{"):
                throw error("inline tables are not supported")
            case nil, UInt8(ascii: "#"):
                throw error("expected a value")
            default:
                // Any space ends the word, so a pasted non-breaking space is reported as itself.
                let from = index
                while let b = peek {
                    if b < 0x80 {
                        if b == 0x20 || (b >= 0x09 && b <= 0x0D) || b == UInt8(ascii: "#") { break }
                        index += 1
                    } else {
                        guard let c = scalar, !c.properties.isWhitespace else { break }
                        advance()
                    }
                }
                let word = text(from, index)
                if word == "true" { return .bool(true) }
                if word == "false" { return .bool(false) }
                let digits = word.filter { $0 != "_" }
                if let number = Double(digits), number.isFinite,
                   word.first.map({ $0.isNumber || $0 == "-" || $0 == "+" }) == true {
                    return .number(number)
                }
                index = from
                throw error("invalid value '\(word)' (strings need quotes)")
            }
        }

        mutating func basicString() throws(ParseError) -> String {
            let quote = index
            index += 1
            // Up to the first escape, the bytes are the string's.
            var from = index
            var out: [UInt8] = []
            while let c = peek {
                index += 1
                switch c {
                case UInt8(ascii: "\""):
                    if out.isEmpty { return text(from, index - 1) }
                    out.append(contentsOf: bytes[from..<(index - 1)])
                    return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    out.append(contentsOf: bytes[from..<(index - 1)])
                    guard let e = peek else {
                        from = index
                        continue
                    }
                    index += 1
                    switch e {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(e)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "u"), UInt8(ascii: "U"):
                        let count = e == UInt8(ascii: "u") ? 4 : 8
                        var code: UInt32 = 0
                        var digits = 0
                        while digits < count, index + digits < end, let d = Self.hexValue(bytes[index + digits]) {
                            code = code << 4 | d
                            digits += 1
                        }
                        guard digits == count, let scalar = Unicode.Scalar(code) else {
                            throw error("invalid unicode escape")
                        }
                        index += count
                        out.append(contentsOf: String(scalar).utf8)
                    default:
                        // Back to the backslash (one byte of `e` was read): the error points at it.
                        index -= 2
                        var escape = self
                        escape.index += 1
                        throw error("invalid escape '\\\(escape.scalar.map { String($0) } ?? "")'")
                    }
                    from = index
                default:
                    break
                }
            }
            index = quote
            throw error("unterminated string")
        }

        static func hexValue(_ c: UInt8) -> UInt32? {
            switch c {
            case 0x30...0x39: UInt32(c - 0x30)
            case 0x41...0x46: UInt32(c - 0x41 + 10)
            case 0x61...0x66: UInt32(c - 0x61 + 10)
            default: nil
            }
        }

        mutating func literalString() throws(ParseError) -> String {
            let quote = index
            index += 1
            let from = index
            while let c = peek {
                index += 1
                if c == UInt8(ascii: "'") { return text(from, index - 1) }
            }
            index = quote
            throw error("unterminated string")
        }
    }
}
