import Foundation
import Testing
import ElbowroomTestSupport
@testable import ElbowroomCore

/// Issue 24, second hostile round: text caps that count the wrong thing, times from the future
/// and one login under two names.
@Suite struct HostileTimeAndIdentityTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    // MARK: Caps count bytes

    /// 64 characters of one letter and a thousand combining marks each are 128 KB: the cache's
    /// cap on labels and the plan counts bytes, cut between scalars.
    @Test func labelsAndThePlanAreCappedInBytesNotCharacters() {
        let heavy = String(repeating: "e" + String(repeating: "\u{0301}", count: 1000), count: 64)
        let reading = Reading(windows: [UsageWindow(key: "seven_day_x", label: heavy, used: 10, resetsAt: nil, observedAt: Self.now)],
                              plan: heavy, fetchedAt: Self.now, source: .api)
        let limited = reading.limitedForCache().reading
        let label = limited.windows[0].label ?? ""
        #expect(label.utf8.count <= ReadingLimits.maxTextBytes && label.utf8.count >= ReadingLimits.maxTextBytes - 3)
        #expect((limited.plan ?? "").utf8.count <= ReadingLimits.maxTextBytes)
        #expect(label.unicodeScalars.first == "e")
        // Short text is kept whole, and a cut never splits a scalar.
        #expect(SafeText.prefix("Sonnet", maxBytes: ReadingLimits.maxTextBytes) == "Sonnet")
        #expect(SafeText.prefix("aé€😀", maxBytes: 7) == "aé€")
        #expect(SafeText.prefix("aé€😀", maxBytes: 6) == "aé€")
        #expect(SafeText.prefix("aé€😀", maxBytes: 5) == "aé")
    }

    // MARK: The future is not believed

    static func window(_ key: String = "five_hour", used: Double, resetIn: TimeInterval, observed: Date) -> UsageWindow {
        UsageWindow(key: key, used: used, resetsAt: observed.addingTimeInterval(resetIn), observedAt: observed)
    }

    static func cache(_ windows: [UsageWindow]) -> CacheFile {
        CacheFile(account: "a", reading: Reading(windows: windows, fetchedAt: windows[0].observedAt, source: .statusLine))
    }

    static func statusLine(_ windows: [UsageWindow]) -> Reading {
        Reading(windows: windows, fetchedAt: windows[0].observedAt, source: .statusLine)
    }

    /// A reading stamped a year ahead (`ELBOWROOM_NOW` without `--demo`, a clock that ran ahead)
    /// does not hold off the real readings that follow.
    @Test func aCachedWindowObservedInTheFutureDoesNotHoldOffRealReadings() {
        var cache = Self.cache([Self.window(used: 80, resetIn: 3600, observed: Self.now.addingTimeInterval(365 * 86400))])
        let changed1 = cache.ingest(Self.statusLine([Self.window(used: 30, resetIn: 3600, observed: Self.now)]))
        #expect(changed1)
        #expect(cache.reading?.window(key: "five_hour")?.used == 30)
        #expect(cache.reading?.window(key: "five_hour")?.observedAt == Self.now)
        // Within the clock slack it is still a replay (same window, less used).
        var close = Self.cache([Self.window(used: 80, resetIn: 3600, observed: Self.now.addingTimeInterval(30))])
        let changed2 = close.ingest(Self.statusLine([Self.window(used: 30, resetIn: 3630, observed: Self.now)]))
        #expect(!changed2)
    }

    /// A window that "resets" in 2100 makes every real one look like an earlier window, a replay;
    /// no five-hour window resets more than five hours (and an hour of clock skew) ahead.
    @Test func aCachedWindowResettingFarAheadDoesNotFreezeIt() {
        var cache = Self.cache([Self.window(used: 80, resetIn: 80 * 365 * 86400, observed: Self.now.addingTimeInterval(-600))])
        let changed3 = cache.ingest(Self.statusLine([Self.window(used: 30, resetIn: 3600, observed: Self.now)]))
        #expect(changed3)
        #expect(cache.reading?.window(key: "five_hour")?.used == 30)
        // A weekly window may reset days ahead.
        var weekly = Self.cache([Self.window("seven_day", used: 80, resetIn: 6 * 86400, observed: Self.now.addingTimeInterval(-600))])
        let changed4 = weekly.ingest(Self.statusLine([Self.window("seven_day", used: 30, resetIn: 3600, observed: Self.now)]))
        #expect(!changed4)
    }

    /// The status line's far-future `resets_at` is not taken in the first place; `--verbose` says why.
    @Test func aStatusLineResetFurtherAheadThanTheWindowLastsIsLeftOut() throws {
        let far = Int(Self.now.timeIntervalSince1970) + 10 * 365 * 86400
        let near = Int(Self.now.timeIntervalSince1970) + 3600
        let json = #"{"rate_limits":{"five_hour":{"used_percentage":80,"resets_at":\#(far)},"seven_day":{"used_percentage":20,"resets_at":\#(near)}}}"#
        let input = try #require(StatusLineInput.decode(Data(json.utf8), observedAt: Self.now))
        #expect(input.windows.map(\.key) == ["seven_day"])
        #expect(input.notes.count == 1 && input.notes[0].hasPrefix("five_hour: resets_at "))
        #expect(StatusLineInput.decodeWithCodable(Data(json.utf8), observedAt: Self.now) == input)
    }

    /// One sample from two days ahead held off every later sample of its window until then.
    /// (One from further ahead than `HistoryRetention.horizon` still thins the history as a long
    /// gap would: without a clock to trust, the two look alike when it is written.)
    @Test func aHistorySampleFromTheFutureDoesNotFreezeTheHistory() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let store = HistoryStore(paths: sandbox.paths)
        let ahead = Self.now.addingTimeInterval(2 * 86400)
        try store.record(Self.statusLine([Self.window(used: 10, resetIn: 3600, observed: Self.now.addingTimeInterval(-600)),
                                          Self.window("seven_day", used: 5, resetIn: 86400, observed: Self.now.addingTimeInterval(-600))]))
        try store.record(Self.statusLine([Self.window(used: 50, resetIn: 3600, observed: ahead)]))
        #expect(try store.record(Self.statusLine([Self.window(used: 20, resetIn: 3600, observed: Self.now)])))
        let samples = store.load().samples
        #expect(samples.filter { $0.key == "five_hour" }.map(\.used) == [10, 20])
        #expect(samples.filter { $0.key == "seven_day" }.map(\.used) == [5], "other windows keep their samples")
        let digest = try #require(HistoryDigest.parse(try Data(contentsOf: URL(fileURLWithPath: store.digestFile))))
        #expect(digest.points.allSatisfy { $0.at <= Int64(Self.now.timeIntervalSince1970) }, "the digest forgot it too")
    }

    /// Seeded fuzzing of the three above: sequences of five-hour readings stamped up to five days
    /// back or up to ten years ahead, resetting in the past, within half an hour, or up to twenty
    /// years ahead — half through the status-line decoder, half planted straight in the cache as
    /// an older version kept them — each taken in as a render does and recorded in the history;
    /// then one real reading. It is in the cache, and it is the history's latest sample. (Not
    /// generated: stamps within the clock slack ahead, and plausible resets later than the real
    /// one, where holding off is right.) The counts are in docs/development.md.
    static let futureSequences = 500

    @Test func generatedFutureTimestampsNeverFreezeTheCacheOrTheHistory() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        var state: UInt64 = 0xf0_7e
        func next(_ n: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15  // SplitMix64
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(n))
        }
        let t = Self.now
        var failures = 0
        var readings = 0
        for round in 0..<Self.futureSequences {
            let store = HistoryStore(file: sandbox.root + "/h\(round).history")
            var cache = CacheFile(account: "a")
            for _ in 0..<(1 + next(5)) {
                readings += 1
                let stamp = next(2) == 0 ? -Double(1 + next(5 * 86400)) : FetchState.clockSlack + 1 + Double(next(10 * 365 * 86400))
                let observed = t.addingTimeInterval(stamp)
                let reset: TimeInterval = switch next(3) {
                case 0: -1 - Double(next(86400))
                case 1: Double(next(1800))
                default: 6 * 3600 + 1 + Double(next(20 * 365 * 86400))
                }
                let used = Double(next(101))
                let reading: Reading
                if next(2) == 0 {
                    let epoch = Int(t.timeIntervalSince1970 + reset)
                    let json = #"{"rate_limits":{"five_hour":{"used_percentage":\#(Int(used)),"resets_at":\#(epoch)}}}"#
                    guard let r = StatusLineInput.decode(Data(json.utf8), observedAt: observed)?.reading(at: observed) else { continue }
                    reading = r
                } else {
                    reading = Self.statusLine([UsageWindow(key: "five_hour", used: used, resetsAt: t.addingTimeInterval(reset), observedAt: observed)])
                }
                if cache.ingest(reading), let merged = cache.reading { try store.record(merged) }
            }
            let real = Self.statusLine([UsageWindow(key: "five_hour", used: 42, resetsAt: t.addingTimeInterval(5 * 3600 - 120), observedAt: t)])
            if cache.ingest(real), let merged = cache.reading { try store.record(merged) }
            let window = cache.reading?.window(key: "five_hour")
            let latest = store.load().samples.last { $0.key == "five_hour" }
            if window?.used != 42 || window?.observedAt != t || latest?.at != Int64(t.timeIntervalSince1970) || latest?.used != 42 {
                failures += 1
                if failures <= 5 { Issue.record("round \(round): cache \(String(describing: window)), history's latest \(String(describing: latest))") }
            }
        }
        #expect(failures == 0)
        #expect(readings == 1_511, "the figure docs/development.md gives")
    }

    // MARK: One login, one account

    /// `/.`, `..`, a trailing slash and a symlink name the same directory: one cache, one fetch
    /// lock, one history, so one fetch and one notification per crossing.
    @Test func oneConfigDirUnderFourSpellingsIsOneAccount() throws {
        let dir = TempDirectory()
        let real = dir.path + "/claude"
        try FileManager.default.createDirectory(atPath: real + "/sub", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/link", withDestinationPath: real)
        func paths(_ claude: String) -> Paths {
            Paths(environment: ElbowroomEnvironment(["HOME": dir.path, "CLAUDE_CONFIG_DIR": claude]))
        }
        let plain = paths(real)
        for spelling in [real + "/.", real + "/sub/..", real + "/", dir.path + "/link", dir.path + "//link/./sub/../"] {
            let other = paths(spelling)
            #expect(other.accountKey == plain.accountKey, "\(spelling)")
            #expect(other.cacheFile == plain.cacheFile && other.fetchLockFile == plain.fetchLockFile
                    && other.historyFile == plain.historyFile)
            #expect(other.accountSource == plain.accountSource)
        }
        // A directory that does not exist yet is resolved by its spelling.
        #expect(paths(dir.path + "/none/./x/..").accountKey == paths(dir.path + "/none").accountKey)
        // Claude Code's own names are left as given: the credentials file and the Keychain service.
        #expect(paths(dir.path + "/link").credentialsFile == dir.path + "/link/.credentials.json")
        func service(_ claude: String) -> String {
            ClaudeCodeStorage(environment: ElbowroomEnvironment(["HOME": dir.path, "CLAUDE_CONFIG_DIR": claude])).keychainService()
        }
        #expect(service(dir.path + "/link") != service(real))
    }
}
