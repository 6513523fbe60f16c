import Foundation
import Testing
import ElbowroomCore
import ElbowroomTestSupport

/// The digest a render reads instead of the whole history: it must give every render the same
/// `rate` and `spark` the history would, from a few dozen samples per window.
@Suite struct HistoryDigestTests {
    static let newest: Int64 = 1_800_000_000
    static let fiveHourReset: Int64 = newest + 3 * 3600
    static let weekReset: Int64 = newest + 3 * 86400

    /// Eight days as recorded: a sample a minute, whole percents as the API reports them, a
    /// five-hour window that burns in bursts and resets, and a weekly one that creeps.
    static func realHistory() -> [HistorySample] {
        var samples: [HistorySample] = []
        var five = 0.0, week = 0.0
        var fiveReset: Int64 = 0, weekReset: Int64 = 0
        for t in stride(from: newest - 8 * 86400, through: newest, by: 60) {
            let currentFive = Self.fiveHourReset - (Self.fiveHourReset - t) / 18000 * 18000
            let currentWeek = Self.weekReset - (Self.weekReset - t) / (7 * 86400) * (7 * 86400)
            if currentFive != fiveReset { (five, fiveReset) = (0, currentFive) }
            if currentWeek != weekReset { (week, weekReset) = (0, currentWeek) }
            // Forty minutes of work, then twenty of pause.
            if (t / 60) % 60 < 40 {
                five = min(100, five + 0.37)
                week = min(100, week + 0.02)
            }
            samples.append(HistorySample(at: t, key: "five_hour", used: five.rounded(.down), resetsAt: fiveReset))
            samples.append(HistorySample(at: t, key: "seven_day", used: week.rounded(.down), resetsAt: weekReset))
        }
        return HistoryRetention.apply(samples, newest: newest)
    }

    static func window(_ key: String, _ series: [HistorySample]) -> UsageWindow {
        let last = series.last { $0.key == key }!
        return UsageWindow(key: key, used: last.used, resetsAt: last.resetsAt.map { Date(timeIntervalSince1970: Double($0)) },
                           observedAt: Date(timeIntervalSince1970: Double(last.at)))
    }

    static func digest(_ samples: [HistorySample]) throws -> UsageHistory {
        try #require(HistoryDigest.parse(HistoryDigest.encode(HistoryDigest.reduce(samples))))
    }

    /// The history as renders between now and two hours later see it, against the digest.
    static func expectSameViews(_ full: UsageHistory, _ digest: UsageHistory, keys: [String],
                                sparkExact: Bool = true) throws {
        for key in keys {
            let w = Self.window(key, full.samples)
            let whole = full.instance(of: w)
            let small = digest.instance(of: w)
            for later in [Int64(0), 59, 300, 1799, 3600, 7300] {
                let now = newest + later
                #expect(BurnRate.percentPerHour(small, now: now) == BurnRate.percentPerHour(whole, now: now),
                        "\(key) rate at +\(later)s")
                let a = try #require(Sparkline(whole, now: now))
                let b = try #require(Sparkline(small, now: now))
                for points in [1, 2, 5, 8, 12, 24, 40] where sparkExact {
                    #expect(a.render(points: points) == b.render(points: points), "\(key) spark(\(points)) at +\(later)s")
                }
            }
        }
    }

    /// The room a digest's points get is its colons, counted eight bytes at a time: the same
    /// count as a byte at a time, wherever the colons fall and whatever the other bytes are
    /// (every byte value, colons at each position of a word, lengths that are not a multiple of 8).
    @Test func colonsAreCountedAsBytesAre() {
        var generator = SystemRandomNumberGenerator()
        var cases: [[UInt8]] = [[], [0x3A], Array(repeating: 0x3A, count: 17), Array(0...255), Array(0...255).map { $0 ^ 0x3A }]
        for length in 0..<40 {
            cases.append((0..<length).map { _ in [0x3A, 0x3B, 0x39, 0xBA, 0x00, 0xFF, 0x20][Int.random(in: 0..<7, using: &generator)] })
        }
        for bytes in cases {
            let expected = bytes.filter { $0 == 0x3A }.count
            #expect(bytes.withUnsafeBufferPointer { HistoryDigest.colonCount($0) } == expected, "\(bytes)")
        }
    }

    @Test func aRealAccountsDigestReadsExactlyAsItsHistory() throws {
        let samples = Self.realHistory()
        let digest = try Self.digest(samples)
        #expect(samples.count > 500)
        #expect(digest.samples.count < 200, "\(digest.samples.count) samples")
        try Self.expectSameViews(UsageHistory(samples: samples), digest, keys: ["five_hour", "seven_day"])
        let rate = try #require(BurnRate.percentPerHour(digest.instance(of: Self.window("five_hour", samples)), now: Self.newest))
        #expect(rate > 5, "a burning window has a rate")
    }

    /// A render reads the series of the windows it shows alone: the others' lines are stepped
    /// over, and the one read is the same as read with the rest.
    @Test func onlyTheWindowsAskedForAreRead() throws {
        let samples = Self.realHistory()
        let encoded = HistoryDigest.encode(HistoryDigest.reduce(samples))
        let all = try #require(HistoryDigest.parse(encoded))
        let week = try #require(HistoryDigest.parse(encoded, windows: ["seven_day", "seven_day_opus"]))
        #expect(Set(all.samples.map(\.key)) == ["five_hour", "seven_day"])
        #expect(Set(week.samples.map(\.key)) == ["seven_day"])
        #expect(week.samples == all.samples.filter { $0.key == "seven_day" })
        try Self.expectSameViews(all, week, keys: ["seven_day"])
        let none = try #require(HistoryDigest.parse(encoded, windows: []))
        #expect(none.samples.isEmpty)
        // A line of a window read that is not a digest's still makes the digest unusable; one
        // stepped over is not looked at.
        #expect(HistoryDigest.parse(encoded + Data("seven_day x\n".utf8), windows: ["seven_day"]) == nil)
        #expect(HistoryDigest.parse(encoded + Data("five_hour x\n".utf8), windows: ["seven_day"])?.samples == week.samples)
    }

    @Test func aNumberThatMovesEverySampleKeepsTheLastHourWholeAndThinsTheRest() throws {
        // Fractional and moving every minute, for three days of a weekly window: no repeats to drop.
        var moving: [HistorySample] = []
        for t in stride(from: Self.newest - 3 * 86400, through: Self.newest, by: 60) {
            let used = Double(t - (Self.newest - 3 * 86400)) / 5000
            moving.append(HistorySample(at: t, key: "seven_day", used: (used * 100).rounded() / 100, resetsAt: Self.weekReset))
        }
        let samples = HistoryRetention.apply(moving, newest: Self.newest)
        let digest = try Self.digest(samples)
        #expect(digest.samples.count <= HistoryDigest.maxSamples)
        #expect(digest.samples.filter { $0.at >= Self.newest - 3600 }.count == 61)
        #expect(digest.samples.first == samples.first)
        try Self.expectSameViews(UsageHistory(samples: samples), digest, keys: ["seven_day"], sparkExact: false)
    }

    @Test func aFlatWindowKeepsThreeSamplesSoItsRateReadsZeroNotNothing() throws {
        let samples = stride(from: Self.newest - 1800, through: Self.newest, by: 60).map {
            HistorySample(at: $0, key: "seven_day_opus", used: 4, resetsAt: Self.weekReset)
        }
        let digest = try Self.digest(samples)
        #expect(digest.samples.count == 3)
        #expect(digest.samples.first == samples.first && digest.samples.last == samples.last)
        let rate = BurnRate.percentPerHour(digest.instance(of: Self.window("seven_day_opus", samples)), now: Self.newest)
        #expect(rate == 0)
    }

    @Test func onlyEachWindowsCurrentInstanceIsKept() throws {
        let before = HistorySample(at: Self.newest - 600, key: "five_hour", used: 97, resetsAt: Self.newest - 300)
        let after = [HistorySample(at: Self.newest - 200, key: "five_hour", used: 1, resetsAt: Self.newest + 17_700),
                     HistorySample(at: Self.newest, key: "five_hour", used: 2, resetsAt: Self.newest + 17_700)]
        let idle = HistorySample(at: Self.newest, key: "seven_day_oauth_apps", used: 0, resetsAt: nil)
        #expect(HistoryDigest.reduce([before] + after + [idle]) == [after, [idle]])
    }

    @Test func theFormatRoundTripsAndAnythingElseIsUnusable() throws {
        let series = [[HistorySample(at: Self.newest - 60, key: "five_hour", used: 37, resetsAt: Self.fiveHourReset),
                       HistorySample(at: Self.newest, key: "five_hour", used: 37.5, resetsAt: Self.fiveHourReset)],
                      [HistorySample(at: Self.newest, key: "seven_day_oauth_apps", used: 0, resetsAt: nil)]]
        let data = HistoryDigest.encode(series)
        #expect(String(decoding: data, as: UTF8.self) == """
            elbowroom-digest 1
            five_hour 1800010800 1800000000 60:37 0:37.5
            seven_day_oauth_apps - 1800000000 0:0

            """)
        #expect(HistoryDigest.parse(data)?.samples == series.flatMap { $0 })
        for bad in ["elbowroom-digest 2\nfive_hour - 5 0:1\n", "elbowroom-history 1\n", "",
                    "elbowroom-digest 1\nfive_hour - 5 0:1",  // cut short
                    "elbowroom-digest 1\nfive_hour - 5 9:1\n",  // older than the epoch
                    "elbowroom-digest 1\nfive_hour - 500 0:1 60:2\n",  // out of order
                    "elbowroom-digest 1\nfive_hour - 500 0:101\n",
                    "elbowroom-digest 1\nfive hour - 500 0:1\n"] {
            #expect(HistoryDigest.parse(Data(bad.utf8)) == nil, "\(bad.debugDescription)")
        }
        #expect(HistoryDigest.parse(Data("elbowroom-digest 1\n".utf8)) == UsageHistory())
    }

    @Test func recordingWritesTheDigestAndRendersReadIt() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let store = HistoryStore(paths: sandbox.paths)
        #expect(store.digestFile.hasSuffix(".digest") && store.digestFile != store.file)
        let t0 = Date(timeIntervalSince1970: Double(Self.newest))
        for (minute, used) in [40.0, 41, 41, 41, 43].enumerated() {
            let at = t0.addingTimeInterval(Double(minute) * 60)
            try store.record(Reading(windows: [UsageWindow(key: "five_hour", used: used, resetsAt: t0.addingTimeInterval(9000), observedAt: at)],
                                     fetchedAt: at, source: .api))
        }
        #expect(FileSystem.mode(of: store.digestFile) == 0o600)
        #expect(store.load().samples.map(\.used) == [40, 41, 41, 41, 43])
        #expect(try store.readForRender().samples.map(\.used) == [40, 41, 43])
        // What a render reads is the digest, not the history beside it.
        try HistoryFile.encode([HistorySample(at: 1, key: "five_hour", used: 99, resetsAt: nil)])
            .write(to: URL(fileURLWithPath: store.file))
        #expect(try store.readForRender().samples.map(\.used) == [40, 41, 43])
    }

    @Test func withoutAUsableDigestARenderReadsTheHistory() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let store = HistoryStore(paths: sandbox.paths)
        let samples = [HistorySample(at: Self.newest, key: "five_hour", used: 12, resetsAt: nil)]
        try FileSystem.makeDirectory(FileSystem.directory(of: store.file), mode: 0o700)
        try FileSystem.writeAtomically(HistoryFile.encode(samples), to: store.file, mode: 0o600)
        #expect(try store.readForRender().samples == samples, "a history from before digests")
        try FileSystem.writeAtomically(Data("elbowroom-digest 9\n".utf8), to: store.digestFile, mode: 0o600)
        #expect(try store.readForRender().samples == samples, "a digest of another version")
        #expect(symlink(store.file, store.digestFile + ".link") == 0)
        try FileManager.default.removeItem(atPath: store.digestFile)
        #expect(rename(store.digestFile + ".link", store.digestFile) == 0)
        #expect(try store.readForRender().samples == samples, "a symlink is not followed")
    }

    @Test func aDigestThatCannotBeWrittenNeverHidesTheNewerHistory() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let store = HistoryStore(paths: sandbox.paths)
        try FileSystem.makeDirectory(store.digestFile, mode: 0o700)  // a directory in its way
        let at = Date(timeIntervalSince1970: Double(Self.newest))
        let reading = Reading(windows: [UsageWindow(key: "five_hour", used: 40, resetsAt: nil, observedAt: at)],
                              fetchedAt: at, source: .api)
        #expect(throws: (any Error).self) { try store.record(reading) }
        #expect(store.load().samples.map(\.used) == [40])
        #expect(try store.readForRender().samples.map(\.used) == [40])
    }
}
