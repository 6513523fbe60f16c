import ElbowroomCore
import ElbowroomAdapters

/// How the CLI writes Core's `JSONDocument` (MCP's answers, `init claude --keep`'s settings):
/// strings and keys as the adapters quote them (`JSONString`: what JSON requires, and every
/// character that would break a line or a terminal), numbers as the adapters write them.
extension JSONDocument {
    /// Compact, one line.
    var encoded: String { encoded(quote: JSONString.quote) }

    /// Indented by two spaces a level.
    func pretty() -> String { pretty(quote: JSONString.quote) }

    /// A finite number as the adapters write one (`37`, `12.5`); `null` for `nil`, NaN or an
    /// infinity.
    static func finite(_ value: Double?) -> JSONDocument {
        guard let value, value.isFinite else { return .null }
        return .number(JSONNumber.format(value))
    }
}
