@testable import ElbowroomCore

// The scalar-by-scalar TOML subset parser as first written: the byte-level `TOMLSubset.parse`
// is held equal to it, entries and errors alike (`SeededFuzzTests.tomlParserMatchesItsReference`).
enum ReferenceTOMLSubset {
    typealias Value = TOMLSubset.Value
    typealias Entry = TOMLSubset.Entry
    typealias ParseError = TOMLSubset.ParseError

    /// Parses the document into entries in order; a repeated key or table is an error.
    /// - Parameter nestable: the tables that may have tables inside, one level (`[colors.tmux]`).
    public static func parse(_ text: String, nestable: [String] = ["colors", "accounts"]) throws(ParseError) -> [Entry] {
        var entries: [Entry] = []
        var table = ""
        // Arrays, not sets: a config has a few dozen keys, and a `Set<String>` costs every render
        // with a config file ~220 k instructions of runtime metadata on its first use.
        var seenTables: [String] = [""]
        var seenKeys: [String] = []
        // Unicode scalars, not Characters: grapheme breaking costs a render with a config file
        // hundreds of instructions a character. A line ends at "\n", and a "\r" before it goes
        // with it ("\r\n"); a lone "\r" stays in the line (and is an error there).
        let scalars = Array(text.unicodeScalars)
        var start = 0
        var index = 0
        while start <= scalars.count {
            var end = start
            while end < scalars.count && scalars[end] != "\n" { end += 1 }
            let lineEnd = end > start && end < scalars.count && scalars[end - 1] == "\r" ? end - 1 : end
            defer { start = end + 1; index += 1 }
            var scanner = LineScanner(line: Array(scalars[start..<lineEnd]), lineNumber: index + 1)
            scanner.skipSpace()
            if scanner.atEndOrComment { continue }
            if scanner.peek == "[" {
                let column = scanner.column
                scanner.advance()
                scanner.skipSpace()
                if scanner.peek == "[" { throw scanner.error("arrays of tables are not supported") }
                var name = try scanner.bareKey()
                scanner.skipSpace()
                if scanner.peek == ".", nestable.contains(name) {
                    scanner.advance()
                    scanner.skipSpace()
                    name += "." + (try scanner.bareKey())
                    scanner.skipSpace()
                }
                guard scanner.peek == "]" else {
                    throw scanner.error(scanner.peek == "." ? "nested tables are not supported" : "expected ']' to close the table name")
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
            let key = scanner.peek == "\"" ? try scanner.basicString() : try scanner.bareKey()
            scanner.skipSpace()
            if scanner.peek == "." { throw scanner.error("dotted keys are not supported") }
            guard scanner.peek == "=" else { throw scanner.error("expected '=' after the key '\(key)'") }
            scanner.advance()
            scanner.skipSpace()
            let valueColumn = scanner.column
            let value = try scanner.value()
            try scanner.expectEndOfLine()
            let seen = table + "\u{0}" + key
            guard !seenKeys.contains(seen) else {
                throw ParseError(line: index + 1, column: keyColumn, message: "key '\(key)' is defined twice")
            }
            seenKeys.append(seen)
            entries.append(Entry(table: table, key: key, value: value, line: index + 1,
                                 column: keyColumn, valueColumn: valueColumn))
        }
        return entries
    }

    struct LineScanner {
        let line: [Unicode.Scalar]
        let lineNumber: Int
        var index = 0

        init(line: [Unicode.Scalar], lineNumber: Int) {
            self.line = line
            self.lineNumber = lineNumber
        }

        var column: Int { index + 1 }
        var peek: Unicode.Scalar? { index < line.count ? line[index] : nil }
        var atEndOrComment: Bool { peek == nil || peek == "#" }

        mutating func advance() { index += 1 }

        mutating func skipSpace() {
            while let c = peek, c == " " || c == "\t" { advance() }
        }

        func error(_ message: String) -> ParseError {
            ParseError(line: lineNumber, column: column, message: message)
        }

        mutating func expectEndOfLine() throws(ParseError) {
            skipSpace()
            guard let c = peek, c != "#" else { return }
            throw error("unexpected \(Character(c).quotedForError) after the value")
        }

        mutating func bareKey() throws(ParseError) -> String {
            var key = ""
            while let c = peek, ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || c == "_" || c == "-" {
                key.unicodeScalars.append(c)
                advance()
            }
            guard !key.isEmpty else {
                throw error(peek.map { "expected a key name, found \(Character($0).quotedForError)" } ?? "expected a key name")
            }
            return key
        }

        mutating func value() throws(ParseError) -> Value {
            switch peek {
            case "\"":
                if line.count >= index + 3 && line[index + 1] == "\"" && line[index + 2] == "\"" {
                    throw error("multi-line strings are not supported")
                }
                return .string(try basicString())
            case "'":
                return .string(try literalString())
            case "[":
                throw error("arrays are not supported")
            case "{":
                throw error("inline tables are not supported")
            case nil, "#":
                throw error("expected a value")
            default:
                var word = ""
                // Any space ends the word, so a pasted non-breaking space is reported as itself.
                while let c = peek, !c.properties.isWhitespace, c != "#" {
                    word.unicodeScalars.append(c)
                    advance()
                }
                if word == "true" { return .bool(true) }
                if word == "false" { return .bool(false) }
                let digits = word.filter { $0 != "_" }
                if let number = Double(digits), number.isFinite,
                   word.first.map({ $0.isNumber || $0 == "-" || $0 == "+" }) == true {
                    return .number(number)
                }
                index -= word.unicodeScalars.count
                throw error("invalid value '\(word)' (strings need quotes)")
            }
        }

        mutating func basicString() throws(ParseError) -> String {
            let start = column
            advance()
            var out = ""
            while let c = peek {
                advance()
                switch c {
                case "\"":
                    return out
                case "\\":
                    guard let e = peek else { break }
                    advance()
                    switch e {
                    case "\"": out.append("\"")
                    case "\\": out.append("\\")
                    case "n": out.append("\n")
                    case "t": out.append("\t")
                    case "r": out.append("\r")
                    case "u", "U":
                        let count = e == "u" ? 4 : 8
                        var code: UInt32 = 0
                        var digits = 0
                        while digits < count, index + digits < line.count, let d = Self.hexValue(line[index + digits]) {
                            code = code << 4 | d
                            digits += 1
                        }
                        guard digits == count, let scalar = Unicode.Scalar(code) else {
                            throw error("invalid unicode escape")
                        }
                        index += count
                        out.unicodeScalars.append(scalar)
                    default:
                        index -= 2
                        throw error("invalid escape '\\\(e)'")
                    }
                default:
                    out.unicodeScalars.append(c)
                }
            }
            throw ParseError(line: lineNumber, column: start, message: "unterminated string")
        }

        static func hexValue(_ c: Unicode.Scalar) -> UInt32? {
            switch c.value {
            case 0x30...0x39: c.value - 0x30
            case 0x41...0x46: c.value - 0x41 + 10
            case 0x61...0x66: c.value - 0x61 + 10
            default: nil
            }
        }

        mutating func literalString() throws(ParseError) -> String {
            let start = column
            advance()
            var out = ""
            while let c = peek {
                advance()
                if c == "'" { return out }
                out.unicodeScalars.append(c)
            }
            throw ParseError(line: lineNumber, column: start, message: "unterminated string")
        }
    }
}
