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
        #expect(digest.allSatisfy { $0.at <= Int64(Self.now.timeIntervalSince1970) }, "the digest forgot it too")
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
        #expect(paths(dir.path + "/link").keychainService != plain.keychainService)
    }
}
