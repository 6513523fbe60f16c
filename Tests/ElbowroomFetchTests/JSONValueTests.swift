import Foundation
import Testing
import ElbowroomCore
@testable import ElbowroomFetch

/// `JSONValue` took `JSONSerialization`'s place in the fetcher: it reads what that parser read,
/// refuses what it refused, and writes strings and numbers as it wrote them; unlike it, a rewrite
/// keeps the document's key order and every number's literal.
@Suite struct JSONValueTests {
    static let documents: [String] = [
        #"{"a":1,"a":2}"#, #"{"a":1,}"#, #"[1,]"#, #"{"a":1 , }"#, #"[1 , ]"#, "{,}", "[,]", #"{"a":1,,}"#, "[1,,]",
        #"{"a":1e400}"#, #"{"a":-1e309}"#, #"{"a":1e-400}"#, #"{"a":-0}"#, #"{"a":1.0}"#, #"{"a":1E3}"#, #"{"a":1E+2}"#,
        #"{"a":-1.5E-3}"#, #"{"a":9223372036854775808}"#, #"{"a":123456789012345678901234567890}"#, #"{"a":0.1}"#,
        #"{"a":4.9e-324}"#, #"{"a":1e}"#, #"{"a":+1}"#, #"{"a":-01}"#, #"{"a":01}"#, #"{"a":.5}"#, #"{"a":1.}"#, #"{"a":-}"#,
        #"{"a":NaN}"#, #"{"a":Infinity}"#,
        #"{"a":"\ud800"}"#, #"{"a":"\udc00x"}"#, #"{"a":"\ud83d\ude00"}"#, #"{"a":"\ud83d"}"#, #"{"a":"\ud83d\u0041"}"#,
        #"{"a":"\ude00\ud83d"}"#, #"{"a":"\u0000"}"#, #"{"a":"\u00e9\u001f\u001F\/"}"#, #"{"\u0041":1}"#,
        "{\"a\":\"\u{01}\"}", "{\"a\":\"\u{7f}\u{2028}é\"}", #"{"a":"\x"}"#, #"{"a":"\u00zz"}"#, #"{"a":"\u12"}"#,
        "\u{feff}{\"a\":1}", "\u{feff}\u{feff}{}", " {\"a\":1} ", "{\"a\":1}\n", "\u{0c}{\"a\":1}", "\u{0b}{}", "{\"a\":1} x",
        "{\"a\":1}\u{0}", #"{"a":1}{"#, #"{"a":[1]]}"#, #"{'a':1}"#, #"{"a"1}"#, #"{"a":1"b":2}"#, #"{"a":tru}"#,
        #"{"a":nulll}"#, #"{"a":[true,false,null]}"#, "{}", "[]", "", "   ", #""str""#, "1", "null", "true",
        #"{"claudeAiOauth":{"accessToken":"a","expiresAt":1750000000000,"scopes":["x","y"]},"mcpOAuth":{"s|1":{"n":{"m":[{}]}}}}"#,
        "{\"a\":" + String(repeating: "[", count: 511) + String(repeating: "]", count: 511) + "}",
        "{\"a\":" + String(repeating: "[", count: 512) + String(repeating: "]", count: 512) + "}",
    ]

    static let byteDocuments: [[UInt8]] = [
        [0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xC0, 0xAF, 0x22, 0x7D],  // overlong
        [0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x7D],  // a surrogate in UTF-8
        [0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xF4, 0x90, 0x80, 0x80, 0x22, 0x7D],  // past U+10FFFF
        [0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xE2, 0x82, 0x22, 0x7D],  // cut short
        [0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D],  // in a key
    ]

    /// The same documents taken and refused as by `JSONSerialization`, and read as the same values.
    @Test(arguments: documents.map { Data($0.utf8) } + byteDocuments.map { Data($0) })
    func readsWhatJSONSerializationRead(document: Data) throws {
        let theirs = try? JSONSerialization.jsonObject(with: document)
        let ours = try? JSONValue.parse(document)
        #expect((theirs != nil) == (ours != nil), "\(String(decoding: document, as: UTF8.self))")
        guard let theirs, let ours else { return }
        // What we write, read by them, is what they read.
        let back = try JSONSerialization.jsonObject(with: ours.serialized())
        #expect(NSArray(array: [back]).isEqual(to: [theirs]), "\(String(decoding: document, as: UTF8.self))")
    }

    @Test func aRewriteKeepsTheOrderAndEveryLiteral() throws {
        let text = #"{"z":1.50,"a":[1e3,-0,123456789012345678901234567890,0.1],"m":{"y":"\u00e9\/","b":null,"x":true}}"#
        let value = try JSONValue.parse(Data(text.utf8))
        #expect(value.serializedString() == #"{"z":1.50,"a":[1e3,-0,123456789012345678901234567890,0.1],"m":{"y":"é/","b":null,"x":true}}"#)
        var changed = value
        changed["a"] = .string("new")
        changed["n"] = .number(7)
        changed["z"] = nil
        #expect(changed.serializedString() == #"{"a":"new","m":{"y":"é/","b":null,"x":true},"n":7}"#)
    }

    @Test func aKeyThatComesAgainKeepsItsPlaceAndTakesTheLastValue() throws {
        let value = try JSONValue.parse(Data(#"{"a":1,"b":2,"a":3}"#.utf8))
        #expect(value.serializedString() == #"{"a":3,"b":2}"#)
        #expect(value["a"] == .number("3"))
    }

    @Test(arguments: ["plain", "a/b", "quote\" back\\slash", "\u{8}\u{c}\n\r\t", "\u{0}\u{1}\u{1f}\u{7f}", "é😀\u{2028}"])
    func stringsAreWrittenAsJSONSerializationWroteThem(text: String) throws {
        for slashes in [false, true] {
            let theirs = try JSONSerialization.data(withJSONObject: [text: [text]], options: slashes ? [] : [.withoutEscapingSlashes])
            let ours = JSONValue.object([.init(text, .array([.string(text)]))]).serialized(escapingSlashes: slashes)
            #expect(ours == theirs, "\(String(decoding: ours, as: UTF8.self)) vs \(String(decoding: theirs, as: UTF8.self))")
        }
    }

    @Test(arguments: [0.0, -0.0, 1, 37, 12.5, 2.4, 0.1, 1.0 / 3, 1e-5, 1e-7, 1e15, 1e16, 1e20, 1e21, 4.5e15, 5e-324,
                      1.7976931348623157e308, 123456789.123, -42.25, 100000])
    func doublesAreWrittenAsJSONSerializationWroteThem(number: Double) throws {
        let theirs = try JSONSerialization.data(withJSONObject: [number])
        let ours = try #require(JSONValue.number(number))
        #expect(JSONValue.array([ours]).serialized() == theirs)
    }

    @Test func noNumberForNaNOrInfinity() {
        #expect(JSONValue.number(Double.nan) == nil)
        #expect(JSONValue.number(-Double.infinity) == nil)
    }
}
