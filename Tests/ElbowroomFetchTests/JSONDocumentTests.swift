import Foundation
import Testing
import ElbowroomCore
@testable import ElbowroomFetch

/// `JSONDocument` took `JSONSerialization`'s place in the fetcher: it reads what that parser read,
/// refuses what it refused, and writes strings and numbers as it wrote them; unlike it, a rewrite
/// keeps the document's key order and every number's literal.
@Suite struct JSONDocumentTests {
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
        let ours = try? JSONDocument.parse(document)
        #expect((theirs != nil) == (ours != nil), "\(String(decoding: document, as: UTF8.self))")
        guard let theirs, let ours else { return }
        // What we write, read by them, is what they read.
        let back = try JSONSerialization.jsonObject(with: ours.serialized())
        #expect(NSArray(array: [back]).isEqual(to: [theirs]), "\(String(decoding: document, as: UTF8.self))")
    }

    @Test func aRewriteKeepsTheOrderAndEveryLiteral() throws {
        let text = #"{"z":1.50,"a":[1e3,-0,123456789012345678901234567890,0.1],"m":{"y":"\u00e9\/","b":null,"x":true}}"#
        let value = try JSONDocument.parse(Data(text.utf8))
        #expect(value.serializedString() == #"{"z":1.50,"a":[1e3,-0,123456789012345678901234567890,0.1],"m":{"y":"é/","b":null,"x":true}}"#)
        var changed = value
        changed["a"] = .string("new")
        changed["n"] = .number(7)
        changed["z"] = nil
        #expect(changed.serializedString() == #"{"a":"new","m":{"y":"é/","b":null,"x":true},"n":7}"#)
    }

    @Test func aKeyThatComesAgainKeepsItsPlaceAndTakesTheLastValue() throws {
        let value = try JSONDocument.parse(Data(#"{"a":1,"b":2,"a":3}"#.utf8))
        #expect(value.serializedString() == #"{"a":3,"b":2}"#)
        #expect(value["a"] == .number("3"))
    }

    @Test(arguments: ["plain", "a/b", "quote\" back\\slash", "\u{8}\u{c}\n\r\t", "\u{0}\u{1}\u{1f}\u{7f}", "é😀\u{2028}"])
    func stringsAreWrittenAsJSONSerializationWroteThem(text: String) throws {
        for slashes in [false, true] {
            let theirs = try JSONSerialization.data(withJSONObject: [text: [text]], options: slashes ? [] : [.withoutEscapingSlashes])
            let ours = JSONDocument.object([.init(text, .array([.string(text)]))]).serialized(escapingSlashes: slashes)
            #expect(ours == theirs, "\(String(decoding: ours, as: UTF8.self)) vs \(String(decoding: theirs, as: UTF8.self))")
        }
    }

    @Test(arguments: [0.0, -0.0, 1, 37, 12.5, 2.4, 0.1, 1.0 / 3, 1e-5, 1e-7, 1e15, 1e16, 1e20, 1e21, 4.5e15, Double.leastNonzeroMagnitude,
                      1.7976931348623157e308, 123456789.123, -42.25, 100000])
    func doublesAreWrittenAsJSONSerializationWroteThem(number: Double) throws {
        let theirs = try JSONSerialization.data(withJSONObject: [number])
        let ours = try #require(JSONDocument.number(number))
        #expect(JSONDocument.array([ours]).serialized() == theirs)
    }

    @Test func noNumberForNaNOrInfinity() {
        #expect(JSONDocument.number(Double.nan) == nil)
        #expect(JSONDocument.number(-Double.infinity) == nil)
    }

    /// `JSONSerialization` read `0` and `1` as booleans: `"expires_in":1` was taken for no number
    /// at all (an hour) instead of the shortest lifetime.
    @Test func anExpiresInOfOneIsANumberAndTrueIsNot() {
        #expect(TokenGrant.lifetime(.number("1")) == 300)
        #expect(TokenGrant.lifetime(.number("0")) == 300)
        #expect(TokenGrant.lifetime(.bool(true)) == nil)
        #expect(TokenGrant.lifetime(.string("3600")) == nil)
        #expect(TokenGrant.lifetime(.number("1e300")) == TokenGrant.lifetimeRange.upperBound)
    }

    /// Before, a refresh rewrote Claude Code's credentials in hash order with `1.50` as `1.5`.
    @Test func aRefreshRewritesTheCredentialsInTheirOrderWithTheirNumbers() throws {
        let text = #"{"mcpOAuth":{"srv":{"expiresAt":1.50e3,"n":[3,2,1]}},"claudeAiOauth":{"subscriptionType":"max","accessToken":"old","scopes":["user:inference"],"refreshToken":"r","expiresAt":1,"zeta":-0},"late":{}}"#
        let written = try CredentialsDocument.replacingTokens(
            in: Data(text.utf8), accessToken: "new-access", refreshToken: "new-refresh",
            expiresAt: Date(timeIntervalSince1970: 1_800_000_000), refreshTokenExpiresAt: Date(timeIntervalSince1970: 1_900_000_000))
        #expect(String(decoding: written, as: UTF8.self) == #"{"mcpOAuth":{"srv":{"expiresAt":1.50e3,"n":[3,2,1]}},"claudeAiOauth":{"subscriptionType":"max","accessToken":"new-access","scopes":["user:inference"],"refreshToken":"new-refresh","expiresAt":1800000000000,"zeta":-0,"refreshTokenExpiresAt":1900000000000},"late":{}}"#)
        try CredentialsDocument.checkRewritable(Data(text.utf8))
    }

    /// The `--json` line, byte for byte as `JSONSerialization` wrote it with sorted keys.
    @Test func theJSONLineIsWrittenAsBefore() throws {
        let reading = Reading(
            windows: [UsageWindow(key: "five_hour", label: nil, used: 12.5, resetsAt: Date(timeIntervalSince1970: 1_795_000_000),
                                  severity: "warning", observedAt: Date(timeIntervalSince1970: 1_794_990_000))],
            extra: ExtraUsage(isEnabled: true, monthlyLimitMinor: 5000, usedMinor: 120, utilization: 2.4, currency: nil),
            plan: "max", fetchedAt: Date(timeIntervalSince1970: 1_794_990_000), source: .api)
        var cache = CacheFile(account: "/home/me/.claude/.credentials.json", reading: reading)
        cache.fetch.lastAttempt = Date(timeIntervalSince1970: 1_794_990_000)
        let line = FetchJSON.line(FetchReport(result: .skipped(reason: "not due \"yet\""), cache: cache))
        #expect(line == #"{"account":null,"cooldown_until":null,"extra_usage":{"currency":null,"is_enabled":true,"monthly_limit":5000,"used_credits":120,"utilization":2.4},"fetched_at":"2026-11-18T08:20:00Z","last_attempt":"2026-11-18T08:20:00Z","login":"/home/me/.claude/.credentials.json","message":null,"outcome":null,"plan":"max","reason":"not due \"yet\"","schema":2,"source":"api","status":"skipped","windows":[{"key":"five_hour","label":"Session","left":87.5,"resets_at":"2026-11-18T11:06:40Z","severity":"warning","used":12.5}]}"#)
    }
}
