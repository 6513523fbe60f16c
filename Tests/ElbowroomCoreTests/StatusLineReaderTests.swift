import Foundation
import Testing
@testable import ElbowroomCore

/// The hand-written status-line reader (`StatusLineReader`, on every Claude Code status-line
/// render) against the reference: `JSONDecoder` with the lenient `Codable` types. Same input, or
/// both `nil`, for every real status line in the fixtures and thousands of mutations of them.
@Suite struct StatusLineReaderTests {
    static let now = Date(timeIntervalSince1970: 1_795_356_000)

    static let fixtureDir: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast()
        return parts.joined(separator: "/") + "/Fixtures/RealWorld/statusline"
    }()

    /// Every fixture, and a full status line with every field this reader looks at.
    static func corpus() throws -> [[UInt8]] {
        let files = try FileManager.default.contentsOfDirectory(atPath: fixtureDir).filter { $0.hasSuffix(".json") }.sorted()
        var result = try files.map { Array(try Data(contentsOf: URL(fileURLWithPath: fixtureDir + "/" + $0))) }
        result.append(Array(#"""
        {"session_id":"abc","transcript_path":"/t.jsonl","cwd":"/w","model":{"id":"claude-opus-4","display_name":"Opus 4 \u00e9"},\#
        "workspace":{"current_dir":"/w/x","project_dir":"/w"},"version":"2.1.97","output_style":{"name":"default"},\#
        "cost":{"total_cost_usd":"1.25","total_duration_ms":45000,"total_lines_added":156},\#
        "context_window":{"used_percentage":23.5,"context_window_size":200000},\#
        "rate_limits":{"five_hour":{"used_percentage":14.000000000000002,"resets_at":1795363200},\#
        "seven_day":{"used_percentage":"41","resets_at":"2026-11-25T09:00:00.123456+00:00"},\#
        "seven_day_opus":{"used_percentage":1763683200,"resets_at":1795363200000},\#
        "spend_limit":{"used_percentage":250},"five_hour_x":null,"one_day":[1],"two_week":{"used_percentage":null}}}
        """#.utf8))
        return result
    }

    static func expectSame(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        let fast = StatusLineInput.decode(Data(bytes), observedAt: now)
        let reference = StatusLineInput.decodeWithCodable(Data(bytes), observedAt: now)
        if fast != reference {
            Issue.record("reader \(fast.map { "\($0)" } ?? "nil") != JSONDecoder \(reference.map { "\($0)" } ?? "nil") for \(String(decoding: bytes, as: UTF8.self).debugDescription)",
                         sourceLocation: sourceLocation)
        }
    }

    @Test func everyRealStatusLineReadsTheSame() throws {
        let corpus = try Self.corpus()
        #expect(corpus.count >= 7)
        for bytes in corpus { Self.expectSame(bytes) }
        // The full one has every field.
        let full = try #require(StatusLineInput.decode(Data(corpus.last!), observedAt: Self.now))
        #expect(full.modelName == "Opus 4 é" && full.currentDir == "/w/x" && full.costUSD == 1.25 && full.contextUsedPercent == 23.5)
        #expect(full.windows.map(\.key) == ["five_hour", "seven_day"])
        #expect(full.notes.count == 1)
    }

    @Test(arguments: [
        "", "{}", "[]", "null", "{", #"{"model":"Opus"}"#, #"{"model":{"display_name":7}}"#,
        #"{"model":{"display_name":"a","display_name":"b"}}"#, #"{"model":null,"model":{"display_name":"b"}}"#,
        #"{"model":{"display_name":"a\u0001"}}"#, "{\"model\":{\"display_name\":\"a\u{1}\"}}",
        #"{"model":{"display_name":"\ud800"}}"#, #"{"cost":{"total_cost_usd":"0x1p3"}}"#, #"{"cost":{"total_cost_usd":"nan"}}"#,
        #"{"cost":{"total_cost_usd":1e400}}"#, #"{"cost":{"total_cost_usd":01}}"#, #"{"cost":{"total_cost_usd":1.}}"#,
        #"{"cost":{"total_cost_usd":-}}"#, #"{"cost":{"total_cost_usd":1e-400}}"#, #"{"cost":{"total_cost_usd":true}}"#,
        #"{"rate_limits":[]}"#, #"{"rate_limits":{"five_hour":{"used_percentage":5},"five_hour":{"used_percentage":6}}}"#,
        #"{"rate_limits":{"five_hour":{"used_percentage":5,"used_percentage":6}}}"#,
        #"{"rate_limits":{"five_hour":{"used_percentage":5,"resets_at":-5}}}"#,
        #"{"rate_limits":{"five_hour":{"used_percentage":5,"resets_at":"  2026-11-25T09:00:00Z "}}}"#,
        #"{"rate_limits":{"five_hour":{"used_percentage":5,"resets_at":1e300}}}"#,
        #"{"rate_limits":{"five_hour":{"used_percentage":"5%"}}}"#, #"{"rate_limits":{"five_hour":{"used_percentage":-0.5}}}"#,
        #"{"rate_limits":{"five_hour":{"used_percentage":5}},}"#, #"{"rate_limits":{"five_hour":{"used_percentage":5}}} x"#,
        #"{"x":"\q","rate_limits":{"five_hour":{"used_percentage":5}}}"#,
    ])
    func handWrittenInputsReadTheSame(_ text: String) {
        Self.expectSame(Array(text.utf8))
    }

    @Test func invalidUTF8ReadsTheSame() {
        for (prefix, suffix) in [(#"{"model":{"display_name":""#, #""}}"#), (#"{"rate_limits":{""#, #"":{"used_percentage":5}}}"#),
                                 (#"{"model":{""#, #"":1,"display_name":"x"}}"#), (#"{""#, #"":1}"#)] {
            Self.expectSame(Array(prefix.utf8) + [0xff] + Array(suffix.utf8))
        }
    }

    @Test func mutatedStatusLinesReadTheSame() throws {
        let corpus = try Self.corpus()
        let tokens = ["null", "{", "}", "[", "]", ",", ":", "\"", "\\u0000", "\\ud800", "\\u0\"", "\\q", "\\u00zz", "1e400", "-0", "1.0", "0.5", "true",
                      "\"x\":1,", "\"used_percentage\":", "\"resets_at\":", "\"five_hour\":{", "\"2026-11-25T09:00:00Z\"",
                      "\u{e9}", "\"\"", "1e-400", "-", "\"12\"", "\"0x10\"", "1795363200000"]
        var rng = Mix(seed: 0x57a7_05)
        for _ in 0..<5000 {
            var bytes = corpus[Int(rng.next() % UInt64(corpus.count))]
            for _ in 0..<(1 + Int(rng.next() % 3)) where !bytes.isEmpty {
                let at = Int(rng.next() % UInt64(bytes.count))
                switch rng.next() % 3 {
                case 0: bytes[at] = UInt8(truncatingIfNeeded: rng.next())
                case 1: bytes.removeSubrange(at..<min(bytes.count, at + 1 + Int(rng.next() % 8)))
                default: bytes.insert(contentsOf: Array(tokens[Int(rng.next() % UInt64(tokens.count))].utf8), at: at)
                }
            }
            let fast = StatusLineInput.decode(Data(bytes), observedAt: Self.now)
            if fast != StatusLineInput.decodeWithCodable(Data(bytes), observedAt: Self.now) {
                Self.expectSame(bytes)
                return
            }
        }
    }
}
