import ElbowroomCore
import ElbowroomAdapters

/// A whole JSON document as a tree, for what reads JSON of unknown shape off the render path:
/// MCP's JSON-RPC messages (`elbowroom mcp`) and Claude Code's settings.json (`init claude
/// --keep`). The lexical work is Core's `JSONReader` (strict RFC 8259: escapes, surrogates, UTF-8,
/// nesting up to 512); strings are written with `JSONString` (the adapters' escaping). A number
/// keeps its literal, so a JSON-RPC id is echoed byte for byte; an object keeps its key order
/// (a key given twice keeps its first value, as `JSONReader` reads it).
indirect enum JSONTree: Equatable, Sendable {
    case null
    case bool(Bool)
    /// The literal as read (`12`, `-1.5e3`), or as `number(_:)` writes it.
    case number(String)
    case string(String)
    case array([JSONTree])
    case object([(String, JSONTree)])

    static func == (a: JSONTree, b: JSONTree) -> Bool { a.encoded == b.encoded }

    /// An integer, exactly.
    static func int(_ value: Int) -> JSONTree { .number(String(value)) }

    /// A finite number as the adapters write one (`37`, `12.5`); `null` for NaN or infinity.
    static func number(_ value: Double?) -> JSONTree {
        guard let value, value.isFinite else { return .null }
        return .number(JSONNumber.format(value))
    }

    static func string(_ value: String?) -> JSONTree { value.map { .string($0) } ?? .null }

    /// An object's member `key` (`nil` when absent or not an object).
    subscript(key: String) -> JSONTree? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var doubleValue: Double? {
        if case .number(let literal) = self { return Double(literal) }
        return nil
    }

    var isObject: Bool {
        if case .object = self { return true }
        return false
    }

    // MARK: Reading

    struct Malformed: Error, Equatable {
        /// The byte offset where reading stopped.
        let offset: Int
    }

    /// One JSON value (any type at the top), with nothing but whitespace around it.
    static func parse(_ bytes: [UInt8]) throws(Malformed) -> JSONTree {
        var reader = JSONReader(bytes: bytes)
        do {
            let value = try read(&reader, bytes: bytes)
            try reader.end()
            return value
        } catch {
            throw Malformed(offset: error.offset)
        }
    }

    private static func read(_ reader: inout JSONReader, bytes: [UInt8]) throws(JSONReader.Failure) -> JSONTree {
        var i = reader.offset
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
        // What is not the start of a value: the reader's own skip fails there, with its offset.
        guard i < bytes.count else { try reader.skipValue(); return .null }
        switch bytes[i] {
        case UInt8(ascii: "{"):
            var members: [(String, JSONTree)] = []
            try reader.object { (inner: inout JSONReader, key: String) throws(JSONReader.Failure) in
                members.append((key, try read(&inner, bytes: bytes)))
            }
            return .object(members)
        case UInt8(ascii: "["):
            var elements: [JSONTree] = []
            try reader.array { (inner: inout JSONReader) throws(JSONReader.Failure) in
                elements.append(try read(&inner, bytes: bytes))
            }
            return .array(elements)
        case UInt8(ascii: "\""):
            return .string(try reader.string())
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            return .bool(try reader.bool())
        case UInt8(ascii: "n"):
            if try reader.null() { return .null }
            try reader.skipValue()
            return .null
        default:
            guard reader.atNumber() else { try reader.skipValue(); return .null }
            _ = try reader.double()
            return .number(String(decoding: bytes[i..<reader.offset], as: UTF8.self))
        }
    }

    // MARK: Writing

    /// Compact, one line.
    var encoded: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let literal): return literal
        case .string(let text): return JSONString.quote(text)
        case .array(let elements):
            return "[" + elements.map(\.encoded).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { JSONString.quote($0.0) + ":" + $0.1.encoded }.joined(separator: ",") + "}"
        }
    }

    /// Indented by two spaces a level, as a person would write a settings file.
    func pretty(indent: String = "") -> String {
        let inner = indent + "  "
        switch self {
        case .array(let elements) where !elements.isEmpty:
            return "[\n" + elements.map { inner + $0.pretty(indent: inner) }.joined(separator: ",\n") + "\n" + indent + "]"
        case .object(let members) where !members.isEmpty:
            return "{\n" + members.map { inner + JSONString.quote($0.0) + ": " + $0.1.pretty(indent: inner) }
                .joined(separator: ",\n") + "\n" + indent + "}"
        default:
            return encoded
        }
    }
}
