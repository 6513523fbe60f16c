import Foundation
import Testing
@testable import ElbowroomCore

/// The hand-written cache reader (`CacheFileReader`, on every render) against the reference:
/// `JSONDecoder` with the `Codable` conformance. Same value, or both a miss, for every cache the
/// encoder writes and for thousands of mutated, truncated and hostile files.
@Suite struct CacheFileReaderTests {
    static let now = Date(timeIntervalSince1970: 1_795_356_000.25)

    /// Caches of every shape the code writes: empty, demo, status line, API with labels,
    /// severities, binding, extra usage, notes, failures, cooldowns and notification ledgers.
    static var caches: [CacheFile] {
        var result: [CacheFile] = [CacheFile(account: "/home/u/.claude/.credentials.json")]
        result.append(DemoReading.cache(now: now))
        var rng = Mix(seed: 0xcac4e)
        for i in 0..<60 {
            var windows: [UsageWindow] = []
            for key in ["five_hour", "seven_day", "seven_day_opus", "seven_day_fable", "iguana_necktie"] where rng.next() % 3 != 0 {
                windows.append(UsageWindow(
                    key: key, label: rng.next() % 4 == 0 ? "Fable \"β\" \\ \u{1F600}" : nil,
                    used: Double(rng.next() % 10_000) / 97.0, resetsAt: rng.next() % 5 == 0 ? nil : now.addingTimeInterval(Double(rng.next() % 600_000)),
                    severity: rng.next() % 4 == 0 ? "warning" : nil, binding: rng.next() % 5 == 0,
                    observedAt: now.addingTimeInterval(-Double(rng.next() % 10_000) / 8)))
            }
            let extra = rng.next() % 3 == 0
                ? ExtraUsage(isEnabled: rng.next() % 2 == 0, monthlyLimitMinor: 5000, usedMinor: Double(rng.next() % 5000) + 0.5,
                             utilization: rng.next() % 2 == 0 ? nil : 12.5, currency: rng.next() % 2 == 0 ? "EUR" : nil)
                : nil
            let reading = windows.isEmpty && i % 2 == 0 ? nil : Reading(
                windows: windows, extra: extra, plan: i % 3 == 0 ? "max" : nil, fetchedAt: now,
                source: [ReadingSource.api, .statusLine, .demo][i % 3],
                notes: i % 4 == 0 ? ["five_hour: used_percentage 1763683200 is not a percentage; shown as unknown"] : nil)
            var fetch = FetchState()
            switch i % 4 {
            case 0: fetch.recordSuccess(at: now)
            case 1: fetch.recordFailure(.rateLimited, message: "rate limited \u{7}\n", at: now, retryAfter: 3000)
            case 2: fetch.recordSuccess(at: now, note: "tokens not saved")
            default: break
            }
            var file = CacheFile(account: "/a/\(i)/\u{e9}.json", reading: reading, fetch: fetch)
            if i % 5 == 1 { file.notified = ["five_hour 1795370400 warn,runs_out", "seven_day 1795900000 critical"] }
            if i % 5 == 2 { file.notified = [] }
            result.append(file)
        }
        return result
    }

    static func expectSame(_ data: Data, sourceLocation: SourceLocation = #_sourceLocation) {
        let fast = CacheFile.decode(data)
        let reference = CacheFile.decodeWithCodable(data)
        if fast != reference {
            Issue.record("reader \(fast.map { "\($0)" } ?? "nil") != JSONDecoder \(reference.map { "\($0)" } ?? "nil") for \(String(decoding: data, as: UTF8.self).debugDescription)",
                         sourceLocation: sourceLocation)
        }
    }

    @Test func everyCacheTheEncoderWritesReadsBackTheSame() {
        for cache in Self.caches {
            let data = cache.encoded()
            #expect(CacheFile.decode(data) == cache)
            Self.expectSame(data)
        }
    }

    /// Hand-written files: other spellings of the same numbers, nulls, unknown keys (newer
    /// versions add fields), escapes, and everything that makes the file a miss.
    @Test(arguments: [
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0}}"#,
        #" {"fetch":{"consecutiveFailures":0,"lastAttempt":null},"account":"a","version":1,"reading":null} "#,
        #"{"version":1.0,"account":"a","fetch":{"consecutiveFailures":1e1}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0.5}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":-0}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":99999999999999999999}}"#,
        #"{"version":1,"account":"a","fetch":{}}"#,
        #"{"version":1,"account":"a"}"#,
        #"{"version":"1","account":"a","fetch":{"consecutiveFailures":0}}"#,
        #"{"version":1,"account":"\u00e9\ud83d\ude00\/\b\f\n\r\t\"\\","fetch":{"consecutiveFailures":0}}"#,
        #"{"version":1,"account":"\ud83d","fetch":{"consecutiveFailures":0}}"#,
        #"{"version":1,"account":"\ude00x","fetch":{"consecutiveFailures":0}}"#,
        #"{"version":1,"account":"\x","fetch":{"consecutiveFailures":0}}"#,
        "{\"version\":1,\"account\":\"a\tb\",\"fetch\":{\"consecutiveFailures\":0}}",
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"history":{"samples":[[1,2,{"x":[null,true,false,-1.5e-3]}]]},"notify":{"last":"warn"}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0,"lastOutcome":"rate_limited","cooldownUntil":1795356000.5,"extra":{"a":[]}}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0,"lastOutcome":"exploded"}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"reading":{"windows":[],"fetchedAt":1,"source":"api","notes":[]}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"reading":{"windows":[],"fetchedAt":1,"source":"carrier pigeon"}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"reading":{"windows":[{"key":"five_hour","used":150,"observedAt":1,"binding":false,"label":null}],"fetchedAt":1,"source":"api"}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"reading":{"windows":[{"key":"five_hour","used":"37","observedAt":1}],"fetchedAt":1,"source":"api"}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"reading":{"windows":[{"key":"five_hour","used":1e400,"observedAt":1}],"fetchedAt":1,"source":"api"}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"reading":{"windows":[{"key":"b","used":1,"observedAt":1},{"key":"a","used":2,"observedAt":1}],"fetchedAt":1,"source":"api","extra":{"isEnabled":1}}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"reading":{"windows":[],"fetchedAt":1,"source":"api","extra":{"usedMinor":12.5,"zzz":{}}}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"reading":{"windows":[],"fetchedAt":1e300,"source":"api"}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"reading":{"windows":[],"fetchedAt":01,"source":"api"}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"reading":{"windows":[],"fetchedAt":1.,"source":"api"}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"reading":{"windows":[],"fetchedAt":.5,"source":"api"}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"reading":{"windows":[],"fetchedAt":+1,"source":"api"}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"reading":{"windows":[],"fetchedAt":1E+2,"source":"api"}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0,},}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},,}"#,
        #"{,"version":1,"account":"a","fetch":{"consecutiveFailures":0}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"reading":{"windows":[],"fetchedAt":1,"source":"api","notes":["a",]}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"reading":{"windows":[,],"fetchedAt":1,"source":"api"}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"reading":{"windows":[],"fetchedAt":1e-310,"source":"api"}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"reading":{"windows":[],"fetchedAt":1e-400,"source":"api"}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"reading":{"windows":[],"fetchedAt":0e-400,"source":"api"}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"reading":{"windows":[],"fetchedAt":-0.0,"source":"api"}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"version":2}"#,
        #"{"version":2,"account":"a","fetch":{"consecutiveFailures":0},"version":1}"#,
        // A key again under another spelling: an escape, or a character `String` holds equal
        // to an ASCII one (U+212A KELVIN SIGN is "K"; U+037E GREEK QUESTION MARK is ";").
        #"{"version":2,"account":"a","fetch":{"consecutiveFailures":0},"v\u0065rsion":1}"#,
        #"{"v\u0065rsion":2,"account":"a","fetch":{"consecutiveFailures":0},"version":1}"#,
        #"{"v\u0065rsion":2,"account":"a","fetch":{"consecutiveFailures":0},"\u0076ersion":1}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"reading":{"windows":[],"fetchedAt":1,"source":"api","unknownKeys":["k"],"unknown\u212aeys":5}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"reading":{"windows":[],"fetchedAt":1,"source":"api","unknown\u212aeys":5,"unknownKeys":["k"]}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"reading":{"windows":[],"fetchedAt":1,"source":"api","unknown\u212aeys":["k"],"unknown\u212aeys":5}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"K;":1,"\u212a\u037e":{"x":[}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0,"consecutiveFailures":"x"},"x":{"k":1,"k":2}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0}} x"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0}}{}"#,
        #"{"version":1 "account":"a","fetch":{"consecutiveFailures":0}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"x":tru}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"x":NaN}"#,
        // Member by member (`JSONReader.nextMember`): separators missing or misplaced.
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0}"x":1}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"x" 1}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},1:1}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures" :0 , } , }"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},:1}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"x":}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"reading":{},"reading":null}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"reading":null,"reading":{}}"#,
        // Numbers as the one-pass reader takes them, and as it leaves them to the general one.
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"reading":{"windows":[{"key":"k","used":00,"observedAt":1}],"fetchedAt":1,"source":"api"}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"reading":{"windows":[{"key":"k","used":1.5.3,"observedAt":1}],"fetchedAt":1,"source":"api"}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"reading":{"windows":[{"key":"k","used":-,"observedAt":1}],"fetchedAt":1,"source":"api"}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"reading":{"windows":[{"key":"k","used":37.000000000000000001,"observedAt":1795852985.77100680000}],"fetchedAt":1795852985.7710068,"source":"api"}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"reading":{"windows":[{"key":"k","used":-0.0,"observedAt":0.000000000000000000001}],"fetchedAt":12345678901234567890,"source":"api"}}"#,
        #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"reading":{"windows":[{"key":"k","used":5e-1,"observedAt":1.5E3}],"fetchedAt":1.,"source":"api"}}"#,
        // Escapes among plain runs, and text past ASCII after one.
        #"{"version":1,"account":"\/home\/u\/.claude\/.credentials.json","fetch":{"consecutiveFailures":0}}"#,
        #"{"version":1,"account":"\/hé\/été long enough to be more than a word\/x","fetch":{"consecutiveFailures":0}}"#,
        "{\"version\":1,\"account\":\"\\/caf\u{e9}\\/\u{1F600} and more than eight bytes\",\"fetch\":{\"consecutiveFailures\":0}}",
        "{\"version\":1,\"account\":\"\\/a\u{7f}b\\/more than eight bytes\u{1}\",\"fetch\":{\"consecutiveFailures\":0}}",
        "", " ", "{", "[]", "null", "1", #""a""#, "\u{0}\u{1}binary", "\u{FEFF}{}",
    ])
    func handWrittenFilesReadTheSame(_ text: String) {
        Self.expectSame(Data(text.utf8))
    }

    /// The reader names outcomes and sources by hand (no table on the render path): every case's
    /// raw value, and nothing else, must come back as that case.
    /// The fast path for numbers without an exponent gives `strtod`'s double, bit for bit, or
    /// declines: over every kind of number a cache holds, halfway cases, and 60,000 generated
    /// ones (up to 22 digits, up to 25 after the point, signs, leading zeros).
    @Test func numbersReadAsStrtodReadsThem() {
        func strtodValue(_ text: String) -> Double { text.withCString { strtod($0, nil) } }
        var fixed = ["0", "-0", "37", "100", "12.5", "0.1", "0.3", "1795576855", "1795569655.3691828", "99.99999999999999",
                     "123456789012345", "1234567890123456", "0.0000000000000000000001", "0.00000000000000000000001",
                     "9007199254740993", "-3.25", "0.05", "1e5", "14.000000000000002", "18446744073709551615",
                     "9007199254740993.0", "9007199254740995.00", "0.9999999999999999999", "1.000000000000000111",
                     "4503599627370496.5", "4503599627370497.5", "0.0000000000000000001", "1844674407370955161.5"]
        var state: UInt64 = 0x5eed
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        for _ in 0..<60_000 {
            var text = next(4) == 0 ? "-" : ""
            let whole = 1 + next(22)
            for i in 0..<whole { text.append(String(i == 0 && whole > 1 ? 1 + next(9) : next(10))) }
            if next(3) > 0 {
                text.append(".")
                for _ in 0..<(1 + next(25)) { text.append(String(next(10))) }
            }
            fixed.append(text)
        }
        var taken = 0
        for text in fixed {
            // The reader's one-pass form (`double()`), whichever path it takes.
            var reader = JSONReader(bytes: Array(text.utf8))
            let read = try? reader.double()
            #expect(read?.bitPattern == strtodValue(text).bitPattern && reader.offset == text.utf8.count, "\(text)")
            guard let fast = JSONReader.exactDouble(Array(text.utf8)[...]) else { continue }
            taken += 1
            #expect(fast.bitPattern == strtodValue(text).bitPattern, "\(text)")
        }
        #expect(taken > 20_000)
    }

    @Test func everyOutcomeAndSourceNameReadsAsItsCase() {
        for outcome in FetchOutcome.allCases {
            #expect(CacheFileReader.outcome(named: outcome.rawValue) == outcome)
        }
        for source in ReadingSource.allCases {
            #expect(CacheFileReader.source(named: source.rawValue) == source)
        }
        for other in ["", "OK", "rateLimited", "statusLine", "ok "] {
            #expect(CacheFileReader.outcome(named: other) == nil)
            #expect(CacheFileReader.source(named: other) == nil)
        }
    }

    @Test func invalidUTF8InAStringIsAMissBothWays() {
        var bytes = Array(#"{"version":1,"account":"a"#.utf8)
        bytes += [0xff, 0xfe]
        bytes += Array(#"","fetch":{"consecutiveFailures":0}}"#.utf8)
        Self.expectSame(Data(bytes))
        #expect(CacheFile.decode(Data(bytes)) == nil)
        // After an escape, and past eight bytes of plain text.
        var escaped = Array(#"{"version":1,"account":"\/plain text for a while\/"#.utf8)
        escaped += [0xc3, 0x28]
        escaped += Array(#"","fetch":{"consecutiveFailures":0}}"#.utf8)
        Self.expectSame(Data(escaped))
        #expect(CacheFile.decode(Data(escaped)) == nil)
    }

    /// Nesting is bounded: a skipped unknown value nested past the limit is a miss, not a stack
    /// overflow, and a reasonable nesting is skipped.
    @Test(arguments: [10, 500, 100_000])
    func deepNestingIsBounded(_ depth: Int) {
        let text = #"{"version":1,"account":"a","fetch":{"consecutiveFailures":0},"x":"#
            + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
        let read = CacheFile.decode(Data(text.utf8))
        #expect((read != nil) == (depth < JSONReader.maxDepth))
        if depth < 1000 { Self.expectSame(Data(text.utf8)) }
    }

    /// Thousands of mutations of real cache files: byte flips, cuts, insertions of JSON tokens.
    @Test func mutatedFilesReadTheSame() {
        let corpus = Self.caches.map { Array($0.encoded()) }
        let tokens = ["null", "{", "}", "[", "]", ",", ":", "\"", "\\u0000", "\\ud800", "\\u0\"", "\\q", "\\u00zz", "1e400", "-0", "1.0", "0.5",
                      "true", "\"x\":1,", "\"version\":1,", "\"used\":null,", "\u{e9}", "  ", "\"\"", "1e-400", "-", "2.5e3"]
        var rng = Mix(seed: 0x5eed)
        var same = 0
        for _ in 0..<6000 {
            var bytes = corpus[Int(rng.next() % UInt64(corpus.count))]
            for _ in 0..<(1 + Int(rng.next() % 3)) where !bytes.isEmpty {
                let at = Int(rng.next() % UInt64(bytes.count))
                switch rng.next() % 4 {
                case 0: bytes[at] = UInt8(truncatingIfNeeded: rng.next())
                case 1: bytes.removeSubrange(at..<min(bytes.count, at + 1 + Int(rng.next() % 8)))
                case 2: bytes.insert(contentsOf: Array(tokens[Int(rng.next() % UInt64(tokens.count))].utf8), at: at)
                default:
                    // Replace a digit run's neighbour: numbers in other spellings.
                    if bytes[at] >= 0x30 && bytes[at] <= 0x39 {
                        bytes.insert(contentsOf: Array([".0", "e0", "E+0", "0"][Int(rng.next() % 4)].utf8), at: at + 1)
                    }
                }
            }
            let data = Data(bytes)
            if CacheFile.decode(data) == CacheFile.decodeWithCodable(data) {
                same += 1
            } else {
                Self.expectSame(data)
                return
            }
        }
        #expect(same == 6000)
    }
}

/// SplitMix64, the same everywhere.
struct Mix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
