#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// A whole JSON document as a tree, for what reads JSON of unknown shape off the render path:
/// the fetch side (Claude Code's credentials, every key kept in its order; the token endpoint's
/// answers; the usage api's error envelopes; the `--json` line) and the CLI's (MCP's JSON-RPC
/// messages, Claude Code's settings.json for `init claude --keep`). It replaces
/// `JSONSerialization`, which on Linux lives in full Foundation and would bring ICU into the
/// fetcher (BENCHMARKS.md, "Download and installed size").
///
/// Two grammars (`Grammar`). `.serialization`, the default, reads what `JSONSerialization` read
/// (RFC 8259, plus what that parser also took): an object or array at the top, after one
/// optional UTF-8 byte order mark; one trailing comma in an object or array. `.rfc8259` reads
/// RFC 8259 alone, as JSON-RPC peers write it: any value at the top, no byte order mark, no
/// trailing comma. In both, whitespace is space, tab, LF and CR and nesting goes up to 512 deep. It refuses
/// what that parser refused and this writer could not reproduce: a lone surrogate escape
/// (`"\ud800"`), a number no `Double` holds (`1e400`), bytes that are not UTF-8, a control
/// character in a string. A key that comes again replaces the value where the key first came
/// (the value `JSON.parse` keeps, at the place it keeps it).
///
/// A number is kept as its literal (`1.50`, `1e3`, `-0`, `123456789012345678901`), so what was
/// read is written back byte for byte; strings are written with the escapes JSON requires and
/// no others (control characters, `"` and `\`; `/` only when asked), which is also how
/// `JSONSerialization` wrote them.
public enum JSONDocument: Equatable, Sendable {
    case null
    case bool(Bool)
    /// The literal, as read or as `number(_:)` writes it.
    case number(String)
    case string(String)
    case array([JSONDocument])
    /// Members in document order, each key once.
    case object([Member])

    public struct Member: Equatable, Sendable {
        public var key: String
        public var value: JSONDocument

        public init(_ key: String, _ value: JSONDocument) {
            self.key = key
            self.value = value
        }
    }

    /// Why a document was refused: where, never what (a credentials document holds tokens).
    public struct Malformed: Error, Equatable, CustomStringConvertible {
        public let offset: Int
        public var description: String { "not json this reader takes (at byte \(offset))" }
    }

    /// The deepest nesting read.
    public static let maxDepth = 512

    /// Which JSON `parse` takes.
    public enum Grammar: Sendable {
        /// `JSONSerialization`'s: an object or array at the top, an optional byte order mark
        /// before it, one trailing comma in an object or array.
        case serialization
        /// RFC 8259's, strictly: any value at the top, nothing else around it but whitespace.
        case rfc8259
    }

    // MARK: Building

    /// An integer, exactly.
    public static func number<I: BinaryInteger>(_ value: I) -> JSONDocument { .number(String(value)) }

    /// A finite double as `JSONSerialization` wrote one (`12.5`, `37`, `1e-05`, `1e+20`); `nil`
    /// for NaN or an infinity, which JSON cannot hold.
    public static func number(_ value: Double) -> JSONDocument? {
        guard value.isFinite else { return nil }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return .number(text)
    }

    /// A string, or `null` for `nil`.
    public static func string(_ value: String?) -> JSONDocument { value.map(JSONDocument.string) ?? .null }

    /// An object of `pairs`, in their order (for building one in code: `.fields([("a", x)])`).
    public static func fields(_ pairs: [(String, JSONDocument)]) -> JSONDocument {
        .object(pairs.map { Member($0.0, $0.1) })
    }

    // MARK: Reading values

    /// The member `key` of an object (`nil` for anything else). Setting a key that is there
    /// replaces its value in place; a new key goes at the end; `nil` removes it.
    public subscript(key: String) -> JSONDocument? {
        get {
            guard case .object(let members) = self else { return nil }
            return members.first(where: { $0.key == key })?.value
        }
        set {
            guard case .object(var members) = self else { return }
            if let index = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append(Member(key, newValue))
            }
            self = .object(members)
        }
    }

    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// A number as a `Double` (never NaN or infinite: such literals are not read).
    public var doubleValue: Double? {
        if case .number(let literal) = self { return Double(literal) }
        return nil
    }

    public var isObject: Bool {
        if case .object = self { return true }
        return false
    }

    public var isNull: Bool { self == .null }

    // MARK: Parsing

    /// The document in `data`: with the default grammar, an object or an array.
    public static func parse(_ data: Data, grammar: Grammar = .serialization) throws(Malformed) -> JSONDocument {
        try parse(bytes: data.withUnsafeBytes { [UInt8]($0) }, grammar: grammar)
    }

    public static func parse(bytes: [UInt8], grammar: Grammar = .serialization) throws(Malformed) -> JSONDocument {
        var parser = Parser(bytes: bytes, grammar: grammar)
        return try parser.document()
    }

    private struct Parser {
        let bytes: [UInt8]
        let lenient: Bool
        var index = 0
        var depth = 0

        init(bytes: [UInt8], grammar: Grammar) {
            self.bytes = bytes
            self.lenient = grammar == .serialization
        }

        var failure: Malformed { Malformed(offset: index) }

        mutating func document() throws(Malformed) -> JSONDocument {
            if lenient {
                if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
                guard let first = peek(), first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { throw failure }
            }
            let value = try value()
            guard peek() == nil else { throw failure }
            return value
        }

        mutating func peek() -> UInt8? {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return bytes[index]
                }
            }
            return nil
        }

        mutating func value() throws(Malformed) -> JSONDocument {
            guard let c = peek() else { throw failure }
            switch c {
            case UInt8(ascii: "{"): return try object()
            case UInt8(ascii: "["): return try array()
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
            default: throw failure
            }
        }

        mutating func literal(_ word: String) throws(Malformed) {
            for byte in word.utf8 {
                guard index < bytes.count, bytes[index] == byte else { throw failure }
                index += 1
            }
        }

        mutating func enter() throws(Malformed) {
            depth += 1
            guard depth <= JSONDocument.maxDepth else { throw failure }
            index += 1
        }

        mutating func object() throws(Malformed) -> JSONDocument {
            try enter()
            var members: [Member] = []
            if peek() == UInt8(ascii: "}") {
                index += 1
                depth -= 1
                return .object(members)
            }
            while true {
                guard peek() == UInt8(ascii: "\"") else { throw failure }
                let key = try string()
                guard peek() == UInt8(ascii: ":") else { throw failure }
                index += 1
                let value = try value()
                if let earlier = members.firstIndex(where: { $0.key == key }) {
                    members[earlier].value = value
                } else {
                    members.append(Member(key, value))
                }
                switch peek() {
                case UInt8(ascii: ","):
                    index += 1
                    if lenient && peek() == UInt8(ascii: "}") { fallthrough }  // one trailing comma
                case UInt8(ascii: "}"):
                    index += 1
                    depth -= 1
                    return .object(members)
                default:
                    throw failure
                }
            }
        }

        mutating func array() throws(Malformed) -> JSONDocument {
            try enter()
            var elements: [JSONDocument] = []
            if peek() == UInt8(ascii: "]") {
                index += 1
                depth -= 1
                return .array(elements)
            }
            while true {
                elements.append(try value())
                switch peek() {
                case UInt8(ascii: ","):
                    index += 1
                    if lenient && peek() == UInt8(ascii: "]") { fallthrough }  // one trailing comma
                case UInt8(ascii: "]"):
                    index += 1
                    depth -= 1
                    return .array(elements)
                default:
                    throw failure
                }
            }
        }

        /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` (read by `JSONReader`, as
        /// strings are), finite as a `Double`.
        mutating func number() throws(Malformed) -> String {
            var reader = JSONReader(bytes: bytes, offset: index)
            let text: ArraySlice<UInt8>
            do {
                text = try reader.numberText().0
            } catch {
                throw Malformed(offset: error.offset)
            }
            let literal = String(decoding: text, as: UTF8.self)
            guard let value = Double(literal), value.isFinite else { throw failure }
            index = reader.offset
            return literal
        }

        /// A string, read by Core's `JSONReader` (one reader of JSON strings in the project:
        /// escapes, surrogate pairs, UTF-8 validation).
        mutating func string() throws(Malformed) -> String {
            var reader = JSONReader(bytes: bytes, offset: index)
            do {
                let text = try reader.string()
                index = reader.offset
                return text
            } catch {
                throw Malformed(offset: error.offset)
            }
        }
    }

    public func serialized(escapingSlashes: Bool = false) -> Data {
        var out: [UInt8] = []
        write(to: &out, escapingSlashes: escapingSlashes)
        return Data(out)
    }

    public func serializedString(escapingSlashes: Bool = false) -> String {
        var out: [UInt8] = []
        write(to: &out, escapingSlashes: escapingSlashes)
        return String(decoding: out, as: UTF8.self)
    }

    /// Compact, one line, each string (and key) written by `quote`: the CLI passes the adapters'
    /// `JSONString.quote`, which also escapes what would break a line or a terminal.
    public func encoded(quote: (String) -> String) -> String {
        switch self {
        case .null, .bool, .number: return serializedString()
        case .string(let text): return quote(text)
        case .array(let elements):
            return "[" + elements.map { $0.encoded(quote: quote) }.joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { quote($0.key) + ":" + $0.value.encoded(quote: quote) }.joined(separator: ",") + "}"
        }
    }

    /// Indented by two spaces a level, as a person would write a settings file.
    public func pretty(quote: (String) -> String, indent: String = "") -> String {
        let inner = indent + "  "
        switch self {
        case .array(let elements) where !elements.isEmpty:
            return "[\n" + elements.map { inner + $0.pretty(quote: quote, indent: inner) }.joined(separator: ",\n") + "\n" + indent + "]"
        case .object(let members) where !members.isEmpty:
            return "{\n" + members.map { inner + quote($0.key) + ": " + $0.value.pretty(quote: quote, indent: inner) }
                .joined(separator: ",\n") + "\n" + indent + "}"
        default:
            return encoded(quote: quote)
        }
    }

    private func write(to out: inout [UInt8], escapingSlashes: Bool) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let literal): out.append(contentsOf: literal.utf8)
        case .string(let text): Self.write(text, to: &out, escapingSlashes: escapingSlashes)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                element.write(to: &out, escapingSlashes: escapingSlashes)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, member) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                Self.write(member.key, to: &out, escapingSlashes: escapingSlashes)
                out.append(UInt8(ascii: ":"))
                member.value.write(to: &out, escapingSlashes: escapingSlashes)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func write(_ text: String, to out: inout [UInt8], escapingSlashes: Bool) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case UInt8(ascii: "/") where escapingSlashes: out.append(contentsOf: #"\/"#.utf8)
            case 0x08: out.append(contentsOf: #"\b"#.utf8)
            case 0x0C: out.append(contentsOf: #"\f"#.utf8)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            case ..<0x20: out.append(contentsOf: #"\u00"#.utf8 + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
