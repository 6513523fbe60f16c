import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// Parses adapter output the way the consumer would: one JSON value per line with
/// JSONSerialization, Pango markup as XML (Pango's parser is GMarkup, an XML subset).
enum JSONChecks {
    struct NotJSON: Error { var text: String }

    static func value(_ line: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed])
    }

    static func object(_ line: String) throws -> [String: Any] {
        guard let o = try value(line) as? [String: Any] else { throw NotJSON(text: line) }
        return o
    }

    static func array(_ line: String) throws -> [[String: Any]] {
        guard let a = try value(line) as? [[String: Any]] else { throw NotJSON(text: line) }
        return a
    }

    /// Pango markup is well-formed when it parses as the content of an XML element.
    static func expectValidPango(_ markup: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let parser = XMLParser(data: Data(("<markup>" + markup + "</markup>").utf8))
        #expect(parser.parse(), "not well-formed Pango: \(markup.debugDescription)", sourceLocation: sourceLocation)
    }
}
