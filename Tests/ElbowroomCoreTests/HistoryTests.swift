import Foundation
import Testing
import ElbowroomCore
import ElbowroomTestSupport

/// The usage history: its file format, how it is recorded with the cache, and what is kept.
@Suite struct HistoryFileTests {
    @Test func samplesRoundTripThroughTheLineFormat() {
        let samples = [
            HistorySample(at: 1_800_000_000, key: "five_hour", used: 37.5, resetsAt: 1_800_007_980),
            HistorySample(at: 1_800_000_000, key: "seven_day_oauth_apps", used: 0, resetsAt: nil),
            HistorySample(at: 1_800_000_060, key: "five_hour", used: 38.25, resetsAt: 1_800_007_980),
        ]
        let data = HistoryFile.encode(samples)
        #expect(String(decoding: data, as: UTF8.self) == """
            elbowroom-history 1
            1800000000 five_hour 37.5 1800007980
            1800000000 seven_day_oauth_apps 0 -
            1800000060 five_hour 38.25 1800007980

            """)
        #expect(HistoryFile.parse(data) == samples)
    }

    @Test func numbersAreWrittenAsTheParserReadsThem() {
        let cases: [(Double, String)] = [(0, "0"), (14, "14"), (37.5, "37.5"), (0.25, "0.25"), (0.05, "0.05"),
                                         (99.999, "100"), (14.000000000000002, "14"), (100, "100"), (250, "100"),
                                         (-3, "0"), (.nan, "0")]
        for (value, text) in cases { #expect(HistoryFile.percent(value) == text, "\(value)") }
        let samples = [HistorySample(at: 0, key: "k", used: 0.05, resetsAt: 9_999_999_999),
                       HistorySample(at: 999_999_999_999, key: "k", used: 100, resetsAt: 10)]
        #expect(HistoryFile.parse(HistoryFile.encode(samples)) == samples)
    }

    @Test func aForeignFileReadsAsEmptyAndABadLineIsSkipped() {
        #expect(HistoryFile.parse(Data("elbowroom-history 2\n1 five_hour 3 -\n".utf8)).isEmpty)
        #expect(HistoryFile.parse(Data("{\"samples\":[]}".utf8)).isEmpty)
        #expect(HistoryFile.parse(Data()).isEmpty)
        let mixed = """
            elbowroom-history 1
            1800000000 five_hour 37 1800007980
            1800000060 five hour 38 1800007980
            1800000120 five_hour 250 1800007980
            1800000180 five_hour 39 soon
            garbage
            1800000240 five_hour 40 1800007980 extra

            1800000300 five_hour 41 -
            """
        #expect(HistoryFile.parse(Data(mixed.utf8)).map(\.at) == [1_800_000_000, 1_800_000_300])
    }

    /// Keys are checked once per distinct spelling: a bad key is refused every time, a good one
    /// is the same key on every line, and a 13-digit number is not a time.
    @Test func keysAreCheckedEveryTimeTheyAreNew() {
        let text = """
            elbowroom-history 1
            1800000000 five_hour 37 1800007980
            1800000060 five/hour 38 1800007980
            1800000120 five/hour 38 1800007980
            1800000180 seven_day_sonnet 12.25 -
            1800000240 five_hour 37.5 1800007980
            1800000300 seven_day_sonnet 12.5 -
            1800000000000 five_hour 1 -
            1800000360 five_hour 38.125 1800007980
            """
        let samples = HistoryFile.parse(Data(text.utf8))
        #expect(samples.map(\.at) == [1_800_000_000, 1_800_000_180, 1_800_000_240, 1_800_000_300, 1_800_000_360])
        #expect(samples.map(\.key) == ["five_hour", "seven_day_sonnet", "five_hour", "seven_day_sonnet", "five_hour"])
        #expect(samples.map(\.used) == [37, 12.25, 37.5, 12.5, 38.13])
        #expect(samples.map(\.resetsAt) == [1_800_007_980, nil, 1_800_007_980, nil, 1_800_007_980])
    }

    @Test func keysThatCouldSplitALineAreNotRecorded() {
        #expect(HistoryFile.isStorableKey("seven_day_sonnet"))
        #expect(!HistoryFile.isStorableKey("two words"))
        #expect(!HistoryFile.isStorableKey("line\nbreak"))
        #expect(!HistoryFile.isStorableKey(""))
        let window = UsageWindow(key: "odd key", used: 5, resetsAt: nil, observedAt: Date(timeIntervalSince1970: 1))
        #expect(HistorySample(window) == nil)
    }
}

@Suite struct HistoryStoreTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func reading(_ used: [String: Double], at date: Date, resetsAt: Date? = t0.addingTimeInterval(10_800)) -> Reading {
        Reading(windows: used.map { UsageWindow(key: $0.key, used: $0.value, resetsAt: resetsAt, observedAt: date) },
                fetchedAt: date, source: .api)
    }

    @Test func recordingTheSameReadingTwiceAddsNothing() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let store = HistoryStore(paths: sandbox.paths)
        let r = Self.reading(["five_hour": 40, "seven_day": 10], at: Self.t0)
        #expect(try store.record(r))
        #expect(try !store.record(r))
        #expect(store.load().samples.count == 2)
        #expect(FileSystem.mode(of: store.file) == 0o600)
    }

    @Test func atMostOneSampleAMinutePerWindowTheLatestWins() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let store = HistoryStore(paths: sandbox.paths)
        try store.record(Self.reading(["five_hour": 40], at: Self.t0.addingTimeInterval(5)))
        try store.record(Self.reading(["five_hour": 41], at: Self.t0.addingTimeInterval(30)))
        try store.record(Self.reading(["five_hour": 42], at: Self.t0.addingTimeInterval(55)))
        #expect(store.load().samples.map(\.used) == [42])
        try store.record(Self.reading(["five_hour": 43], at: Self.t0.addingTimeInterval(65)))
        #expect(store.load().samples.map(\.used) == [42, 43])
    }

    @Test func aMergedReadingsOlderWindowsAreNotRecordedAgain() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let store = HistoryStore(paths: sandbox.paths)
        try store.record(Self.reading(["five_hour": 40, "seven_day_opus": 70], at: Self.t0))
        // The status line moves five_hour; the cached opus window keeps its old observation.
        let merged = Self.reading(["seven_day_opus": 70], at: Self.t0)
            .merging(Self.reading(["five_hour": 45], at: Self.t0.addingTimeInterval(300)))
        try store.record(merged)
        #expect(store.load().samples.map { "\($0.key) \($0.used)" } == ["five_hour 40.0", "seven_day_opus 70.0", "five_hour 45.0"])
    }

    @Test func aCacheUpdateThatChangesTheReadingRecordsItOtherwiseNot() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let cache = CacheStore(paths: sandbox.paths)
        let history = HistoryStore(paths: sandbox.paths)
        try cache.update { $0.reading = Self.reading(["five_hour": 40], at: Self.t0); return true }
        #expect(history.load().samples.count == 1)
        // A failed fetch records its attempt: the reading is the same, the history untouched.
        let before = FileSystem.modificationDate(of: history.file)
        try cache.update { $0.fetch.recordFailure(.network, message: "down", at: Self.t0.addingTimeInterval(200)); return true }
        #expect(FileSystem.modificationDate(of: history.file) == before)
        // A status-line ingest that moves a window is recorded in the same write.
        let ingest = Self.reading(["five_hour": 44], at: Self.t0.addingTimeInterval(240))
        try cache.update { $0.ingest(ingest) }
        #expect(history.load().samples.map(\.used) == [40, 44])
    }

    @Test func aHistoryThatCannotBeWrittenNeverFailsTheCacheWrite() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let cache = CacheStore(paths: sandbox.paths)
        try FileSystem.makeDirectory(sandbox.paths.historyFile, mode: 0o700)  // a directory in its way
        try cache.update { $0.reading = Self.reading(["five_hour": 40], at: Self.t0); return true }
        #expect(cache.load()?.reading?.window(key: "five_hour")?.used == 40)
    }
}

@Suite struct HistoryRetentionTests {
    static func series(from start: Int64, to end: Int64, every step: Int64, key: String = "five_hour") -> [HistorySample] {
        stride(from: start, through: end, by: Int(step)).map {
            HistorySample(at: $0, key: key, used: 1, resetsAt: 1_900_000_000)
        }
    }

    @Test func keepsMinutesForTwoHoursQuarterHoursForADayThreeHoursForEightDays() {
        let newest: Int64 = 1_800_000_000 - 1_800_000_000 % 10800
        let kept = HistoryRetention.apply(Self.series(from: newest - 10 * 86400, to: newest, every: 60), newest: newest)
        func count(_ from: Int64, _ to: Int64) -> Int { kept.filter { newest - $0.at >= from && newest - $0.at < to }.count }
        #expect(count(0, 7200) == 120)
        #expect(count(7201, 86400) == 88)
        #expect(count(86401, 8 * 86400 + 1) == 7 * 8)
        #expect(kept.allSatisfy { newest - $0.at <= 8 * 86400 })
        #expect(kept.map(\.at) == kept.map(\.at).sorted())
    }

    @Test func theLastNumberBeforeAResetSurvivesThinning() {
        let newest: Int64 = 1_800_000_000
        let before = HistorySample(at: newest - 5 * 3600 - 30, key: "five_hour", used: 97, resetsAt: newest - 5 * 3600)
        let after = HistorySample(at: newest - 5 * 3600 + 10, key: "five_hour", used: 1, resetsAt: newest)
        #expect(HistoryRetention.apply([before, after], newest: newest) == [before, after])
    }

    @Test func neverMoreThanTheCap() {
        let keys = (0..<40).map { "window_\($0)" }
        var samples: [HistorySample] = []
        for t in stride(from: Int64(0), to: 7200, by: 60) {
            for key in keys { samples.append(HistorySample(at: 1_800_000_000 + t, key: key, used: 1, resetsAt: nil)) }
        }
        let kept = HistoryRetention.apply(samples, newest: 1_800_007_140)
        #expect(samples.count > HistoryRetention.maxSamples)
        #expect(kept.count == HistoryRetention.maxSamples)
        #expect(kept.last == samples.last)
    }
}

@Suite struct BurnRateTests {
    static let reset: Int64 = 1_800_010_800

    static func samples(_ points: [(Int64, Double)], reset: Int64? = reset) -> [HistorySample] {
        points.map { HistorySample(at: 1_800_000_000 + $0.0, key: "five_hour", used: $0.1, resetsAt: reset) }
    }

    static func rate(_ samples: [HistorySample], now: Int64) -> Double? {
        BurnRate.percentPerHour(HistoryPoints(samples.map(HistoryPoint.init)), now: now)
    }

    @Test func aSteadyPercentAMinuteIsSixtyAnHour() throws {
        let s = Self.samples((0...30).map { (Int64($0) * 60, 40 + Double($0)) })
        let rate = try #require(Self.rate(s, now: 1_800_001_800))
        #expect(abs(rate - 60) < 1e-9)
    }

    @Test func noValueWithFewerThanThreeSamplesOrUnderTenMinutes() {
        #expect(Self.rate(Self.samples([(0, 1), (1200, 20)]), now: 1_800_001_200) == nil)
        #expect(Self.rate(Self.samples([(0, 1), (60, 2), (120, 3)]), now: 1_800_000_120 + 400) == nil)
        #expect(BurnRate.percentPerHour(HistoryPoints([]), now: 1_800_000_000) == nil)
    }

    @Test func aQuietStretchCountsAsQuietHoweverFewSamplesItLeft() throws {
        // Twenty minutes of burning, then forty quiet minutes with no sample at all (the status
        // line only writes when a number moves): the last hour averages a third of the burst.
        let s = Self.samples((0...20).map { (Int64($0) * 60, 40 + Double($0)) })
        let rate = try #require(Self.rate(s, now: 1_800_003_600))
        #expect(rate < 30 && rate > 5)
        // The same hour with flat fetches every three minutes reads the same.
        let withFetches = s + Self.samples(stride(from: 1380, through: 3600, by: 180).map { (Int64($0), 60) })
        #expect(abs(try #require(Self.rate(withFetches, now: 1_800_003_600)) - rate) < 1e-9)
    }

    @Test func aQuietHourAfterABusyOneNeverReadsFaster() throws {
        // An hour of burning, then an hour with no sample at all: the rate falls to 0 (the number
        // in force when the quiet hour began says nothing moved), never to the two-hour average.
        let s = Self.samples((0...60).map { (Int64($0) * 60, 10 + Double($0) / 2) })
        let busy = try #require(Self.rate(s, now: 1_800_003_600))
        #expect(abs(busy - 30) < 1e-9)
        let halfQuiet = try #require(Self.rate(s, now: 1_800_003_600 + 1800))
        #expect(halfQuiet < busy)
        #expect(try #require(Self.rate(s, now: 1_800_007_200 + 60)) == 0)
    }

    @Test func flatIsZeroAndNoiseNeverNegative() throws {
        let flat = Self.samples((0...20).map { (Int64($0) * 180, 50) })
        #expect(try #require(Self.rate(flat, now: 1_800_003_600)) == 0)
        let down = Self.samples((0...20).map { (Int64($0) * 60, 50 - Double($0) / 100) })
        #expect(try #require(Self.rate(down, now: 1_800_001_200)) == 0)
    }

    @Test func aResetNeverReadsAsNegativeBurn() throws {
        // The history holds the last window (up to 95 %) and the new one (from 2 %).
        let old = Self.samples((0...30).map { (i: Int) -> (Int64, Double) in (Int64(i) * 60, 65 + Double(i)) }, reset: 1_800_001_830)
        let new = Self.samples((31...60).map { (i: Int) -> (Int64, Double) in (Int64(i) * 60, 2 + Double(i - 31) / 2) })
        let history = UsageHistory(samples: old + new)
        let window = UsageWindow(key: "five_hour", used: 16.5, resetsAt: Date(timeIntervalSince1970: Double(Self.reset)),
                                 observedAt: Date(timeIntervalSince1970: 1_800_003_600))
        let instance = history.instance(of: window)
        #expect(instance.count == 30)
        let rate = try #require(BurnRate.percentPerHour(instance, now: 1_800_003_600))
        #expect(abs(rate - 30) < 1e-9)
    }
}

@Suite struct SparklineTests {
    @Test func drawsTheWindowSoFarOnAnAbsoluteScale() throws {
        let samples = (0...7).map { HistorySample(at: Int64($0) * 600, key: "five_hour", used: Double($0) * 100 / 7, resetsAt: nil) }
        let line = try #require(Sparkline(HistoryPoints(samples.map(HistoryPoint.init)), now: 4200))
        #expect(line.render(points: 8) == "▁▂▃▄▅▆▇█")
        #expect(line.render(points: 4) == "▁▃▅█")
        #expect(line.render(points: 1) == "█")
        #expect(line.render(points: 0) == "█")
    }

    @Test func eachPointIsTheLastNumberKnownThenAndNowExtendsIt() throws {
        let samples = [HistorySample(at: 0, key: "k", used: 0, resetsAt: nil), HistorySample(at: 60, key: "k", used: 100, resetsAt: nil)]
        let line = try #require(Sparkline(HistoryPoints(samples.map(HistoryPoint.init)), now: 600))
        #expect(line.render(points: 3) == "▁██")
    }

    @Test func oneSampleIsNoHistory() {
        #expect(Sparkline(HistoryPoints([HistoryPoint(at: 0, used: 50)]), now: 10) == nil)
    }
}

@Suite struct RateInTheViewTests {
    static let now = Date(timeIntervalSince1970: 1_800_003_600)
    static let reset = now.addingTimeInterval(3 * 3600)

    static func cache(used: Double) -> CacheFile {
        let w = UsageWindow(key: "five_hour", used: used, resetsAt: reset, observedAt: now)
        return CacheFile(account: "t", reading: Reading(windows: [w], fetchedAt: now, source: .api))
    }

    /// The last hour went from 40 % to 70 %: 30 %/h.
    static let history = UsageHistory(samples: (0...60).map {
        HistorySample(at: 1_800_000_000 + Int64($0) * 60, key: "five_hour", used: 40 + Double($0) / 2,
                      resetsAt: Int64(reset.timeIntervalSince1970))
    })

    @Test func paceAndEtaUseTheRateWhenTheHistoryGivesOne() throws {
        let w = try #require(UsageView(cache: Self.cache(used: 70), now: Self.now, config: Config(), history: Self.history).windows.first)
        #expect(abs(try #require(w.rate) - 30) < 1e-9)
        #expect(abs(try #require(w.eta) - 3600) < 1e-6)  // 30 % left at 30 %/h
        #expect(abs(try #require(w.pace) - 160) < 1e-9)   // 70 + 3 h × 30
        #expect(w.spark != nil)
    }

    @Test func withoutHistoryTheyUseTheWindowsAverage() throws {
        let w = try #require(UsageView(cache: Self.cache(used: 70), now: Self.now, config: Config()).windows.first)
        #expect(w.rate == nil && w.spark == nil)
        // Two hours into the window at 70 %: 35 %/h on average; 30 % left lasts 51m26s.
        #expect(abs(try #require(w.pace) - 175) < 1e-9)
        #expect(abs(try #require(w.eta) - 30 / 35 * 3600) < 1e-6)
    }

    @Test func anEtaThatHasPassedHasNoValue() throws {
        // Observed two hours into the window at 70 % (35 %/h on average: out 51 minutes later),
        // then nothing new for an hour: the projected moment has passed, so no eta, not "0s".
        let w = UsageWindow(key: "five_hour", used: 70, resetsAt: Self.reset, observedAt: Self.now)
        let cache = CacheFile(account: "t", reading: Reading(windows: [w], fetchedAt: Self.now, source: .api))
        let soon = try #require(UsageView(cache: cache, now: Self.now.addingTimeInterval(1800), config: Config()).windows.first)
        let expected: TimeInterval = 30.0 / 35.0 * 3600.0 - 1800.0
        let eta = try #require(soon.eta)
        #expect(abs(eta - expected) < 1e-6)
        let later = try #require(UsageView(cache: cache, now: Self.now.addingTimeInterval(3600), config: Config()).windows.first)
        #expect(later.eta == nil)
        #expect(later.pace != nil)
    }

    @Test func aRateOfZeroNeverRunsOut() throws {
        let flat = UsageHistory(samples: (0...20).map {
            HistorySample(at: 1_800_000_000 + Int64($0) * 180, key: "five_hour", used: 70,
                          resetsAt: Int64(Self.reset.timeIntervalSince1970))
        })
        let w = try #require(UsageView(cache: Self.cache(used: 70), now: Self.now, config: Config(), history: flat).windows.first)
        #expect(w.rate == 0)
        #expect(w.eta == nil)
        #expect(w.pace == 70)
    }
}
