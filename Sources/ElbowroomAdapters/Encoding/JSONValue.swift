// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// A JSON value with objects kept in the order they were built.
public indirect enum JSONValue: Sendable, Equatable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool { a.encoded == b.encoded }

    /// `nil` becomes `null`.
    public static func string(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
    public static func number(_ value: Double?) -> JSONValue { value.map { .number($0) } ?? .null }

    /// Compact, one line, no spaces.
    public var encoded: String {
        switch self {
        case .string(let s): return JSONString.quote(s)
        case .number(let n): return JSONNumber.format(n)
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .array(let items):
            var out = "["
            for i in items.indices {
                if i > 0 { out += "," }
                out += items[i].encoded
            }
            return out + "]"
        case .object(let pairs):
            var out = "{"
            for i in pairs.indices {
                if i > 0 { out += "," }
                out += JSONString.quote(pairs[i].0) + ":" + pairs[i].1.encoded
            }
            return out + "}"
        }
    }
}
