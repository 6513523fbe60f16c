import Foundation
import Testing
@testable import ElbowroomCore

/// `JSONDocument`'s two grammars: `JSONSerialization`'s (the fetch side; `JSONDocumentTests` holds
/// it to that parser) and RFC 8259's alone (MCP's JSON-RPC lines, Claude Code's settings.json),
/// and its writers with the caller's quoting.
@Suite struct JSONDocumentGrammarTests {
    static func strict(_ text: String) -> JSONDocument? {
        try? JSONDocument.parse(bytes: Array(text.utf8), grammar: .rfc8259)
    }

    static func lenient(_ text: String) -> JSONDocument? {
        try? JSONDocument.parse(bytes: Array(text.utf8))
    }

    @Test func rfc8259TakesAnyValueAtTheTop() {
        #expect(Self.strict(#""x""#) == .string("x"))
        #expect(Self.strict(" 12.50 ") == .number("12.50"))
        #expect(Self.strict("null") == .null)
        #expect(Self.strict("true") == .bool(true))
        #expect(Self.strict(#"[{"a":[]}]"#) == .array([.object([.init("a", .array([]))])]))
        // What JSONSerialization's grammar refuses at the top.
        #expect(Self.lenient(#""x""#) == nil)
        #expect(Self.lenient("12") == nil)
    }

    @Test func rfc8259RefusesWhatJSONSerializationAlsoTook() {
        for text in [#"{"a":1,}"#, "[1,]", "\u{feff}{}", "\u{feff}[1]"] {
            #expect(Self.strict(text) == nil, "\(text)")
            #expect(Self.lenient(text) != nil, "\(text)")
        }
        for text in ["{", "[1 2]", "01", "1e400", #""\ud800""#, "[1]x", "", " "] {
            #expect(Self.strict(text) == nil, "\(text)")
        }
    }

    /// A key given twice keeps its place and takes the later value, as `JSON.parse` (Claude
    /// Code's own reader of settings.json) does.
    @Test func aKeyGivenTwiceTakesTheLaterValue() {
        #expect(Self.strict(#"{"a":1,"b":2,"a":3}"#) == .object([.init("a", .number("3")), .init("b", .number("2"))]))
    }

    @Test func theWritersQuoteWithTheCallersFunction() throws {
        let document = try JSONDocument.parse(bytes: Array(#"{"k\"":["v",1.50,null,{}],"e":[]}"#.utf8), grammar: .rfc8259)
        let quote = { (text: String) in "<" + text + ">" }
        #expect(document.encoded(quote: quote) == #"{<k">:[<v>,1.50,null,{}],<e>:[]}"#)
        #expect(document.pretty(quote: quote) == """
            {
              <k">: [
                <v>,
                1.50,
                null,
                {}
              ],
              <e>: []
            }
            """)
        #expect(JSONDocument.fields([("a", .bool(false))]) == .object([.init("a", .bool(false))]))
    }
}
