import Foundation
import Testing
@testable import ElbowroomCore
import ElbowroomTestSupport

/// The history as series of points (`UsageHistory`): what a render picks of it is what filtering
/// every sample picked before, from a digest and from the whole history alike, and its numbers
/// and rates are the same bits.
@Suite struct UsageHistoryTests {
    static let newest: Int64 = 1_800_000_000

    static func window(_ key: String, used: Double = 50, resetsAt: Int64?, observed: Int64 = newest) -> UsageWindow {
        UsageWindow(key: key, used: used, resetsAt: resetsAt.map { Date(timeIntervalSince1970: Double($0)) },
                    observedAt: Date(timeIntervalSince1970: Double(observed)))
    }

    static func digest(_ text: String) -> UsageHistory? {
        HistoryDigest.parse(Data(text.utf8))
    }

    /// What `instance(of:)` gave when the history was a list of samples: every sample of the
    /// window's key and instance observed no later than it, then its own observation.
    static func reference(_ samples: [HistorySample], _ window: UsageWindow) -> [HistoryPoint] {
        let reset = window.resetsAt.map { EpochTime.seconds($0) }
        let observed = EpochTime.seconds(window.observedAt)
        var series = samples.filter {
            $0.key == window.key && $0.at <= observed && $0.belongs(toInstanceResettingAt: reset)
        }.map(HistoryPoint.init)
        if series.last?.at != observed { series.append(HistoryPoint(at: observed, used: window.used)) }
        return series
    }

    // MARK: - Digests

    @Test func aDigestIsOneSeriesAWindowWithItsKeyAndResetOnce() throws {
        let history = try #require(Self.digest("""
            elbowroom-digest 1
            five_hour 1800010800 1800000000 120:10 60:11.5 0:12.25
            seven_day_oauth_apps - 1800000000 0:0

            """))
        #expect(history.series == [HistorySeries(key: "five_hour", resetsAt: 1_800_010_800, start: 0, end: 3),
                                   HistorySeries(key: "seven_day_oauth_apps", resetsAt: nil, start: 3, end: 4)])
        #expect(history.points == [HistoryPoint(at: Self.newest - 120, used: 10), HistoryPoint(at: Self.newest - 60, used: 11.5),
                                   HistoryPoint(at: Self.newest, used: 12.25), HistoryPoint(at: Self.newest, used: 0)])
        #expect(history.samples.map(\.key) == ["five_hour", "five_hour", "five_hour", "seven_day_oauth_apps"])
        // The series of a window observed at its last point is handed out as it lies.
        let instance = history.instance(of: Self.window("five_hour", used: 12.25, resetsAt: 1_800_010_800))
        #expect(instance.array == Array(history.points[0..<3]))
        #expect(instance.numbers.startIndex == 0 && instance.numbers.count == 6, "not copied")
    }

    @Test func aWindowOfUnknownResetReadsOnlyTheSeriesOfUnknownReset() throws {
        let history = try #require(Self.digest("""
            elbowroom-digest 1
            seven_day_opus - 1800000000 600:1 0:2
            seven_day_opus 1800259200 1800000000 600:7 0:8

            """))
        #expect(history.instance(of: Self.window("seven_day_opus", used: 2, resetsAt: nil)).array.map(\.used) == [1, 2])
        #expect(history.instance(of: Self.window("seven_day_opus", used: 8, resetsAt: 1_800_259_200)).array.map(\.used) == [7, 8])
        // A reset nothing in the history has: the window's own observation alone.
        #expect(history.instance(of: Self.window("seven_day_opus", used: 9, resetsAt: 1_800_300_000)).array.map(\.used) == [9])
    }

    @Test func anInstanceIsChosenByItsResetTimeWithinAMinute() throws {
        let history = try #require(Self.digest("""
            elbowroom-digest 1
            five_hour 1800010800 1800000000 600:1 0:2

            """))
        for reset: Int64 in [1_800_010_740, 1_800_010_800, 1_800_010_860] {
            #expect(history.instance(of: Self.window("five_hour", used: 2, resetsAt: reset)).array.map(\.used) == [1, 2], "\(reset)")
        }
        for reset: Int64 in [1_800_010_739, 1_800_010_861] {
            #expect(history.instance(of: Self.window("five_hour", used: 3, resetsAt: reset)).array.map(\.used) == [3], "\(reset)")
        }
        #expect(history.instance(of: Self.window("five_hour", used: 3, resetsAt: nil)).array.map(\.used) == [3])
        #expect(history.instance(of: Self.window("seven_day", used: 3, resetsAt: 1_800_010_800)).array.map(\.used) == [3])
    }

    @Test func aDigestThatListsAWindowTwiceReadsAsTheSamplesDid() throws {
        let text = """
            elbowroom-digest 1
            five_hour 1800010800 1800000000 300:10 240:11
            five_hour 1800010800 1800000000 120:12
            seven_day 1800259200 1800000000 0:5
            five_hour 1800010830 1800000000 60:13 0:14
            five_hour 1800020000 1800000000 0:99

            """
        let history = try #require(Self.digest(text))
        // The first two lines are one run: one series.
        #expect(history.series.map(\.key) == ["five_hour", "seven_day", "five_hour", "five_hour"])
        #expect(history.series(at: 0).end == 3)
        let samples = history.samples
        for window in [Self.window("five_hour", used: 14, resetsAt: 1_800_010_800),
                       Self.window("five_hour", used: 14, resetsAt: 1_800_010_830),
                       Self.window("five_hour", used: 15, resetsAt: 1_800_010_800, observed: Self.newest + 60),
                       Self.window("five_hour", used: 12, resetsAt: 1_800_010_800, observed: Self.newest - 120),
                       Self.window("five_hour", used: 99, resetsAt: 1_800_020_000)] {
            #expect(history.instance(of: window).array == Self.reference(samples, window))
        }
        #expect(history.instance(of: Self.window("five_hour", used: 14, resetsAt: 1_800_010_800)).array.map(\.used) == [10, 11, 12, 13, 14])
    }

    @Test func aMalformedDigestIsUnusableWhole() {
        let good = "elbowroom-digest 1\nseven_day 1800259200 1800000000 60:4 0:5\n"
        #expect(Self.digest(good) != nil)
        for line in ["five_hour - 500 0:1 x", "five_hour - 500 0:37.", "five_hour - 500 0:1.1234567",
                     "five_hour - 500 0:1  60:2", "five_hour - 500 :1", "five_hour - 500 0:", "five_hour -5 500 0:1",
                     "five_hour 12 0:1", "five/hour - 500 0:1", String(repeating: "k", count: 65) + " - 500 0:1",
                     "five_hour - 1234567890123 0:1", "five_hour - 500 0:100.01", "five_hour - 500 0:-1",
                     "five_hour - 500 0:1 ", " five_hour - 500 0:1", "five_hour - 5000000000000 1234567890123:1",
                     "five_hour - 500 0:1234567890123", "five_hour - 500 0:0001234567890123", "five_hour - 500 0:1\r",
                     "five_hour - 500 60:1 0:2 0:3 1:4"] {
            #expect(Self.digest(good + line + "\n") == nil, "\(line.debugDescription)")
        }
        #expect(Self.digest(good + String(repeating: "k", count: 64) + " - 500 0:1.123456\n") != nil)
        #expect(Self.digest(good + "five_hour - 999999999999 999999999999:000000000100 0:0.5\n")?.points.last == HistoryPoint(at: 999_999_999_999, used: 0.5))
        #expect(Self.digest(good + "five_hour - 500\n")?.samples.count == 2, "a line of no points adds none")
        #expect(Self.digest(good + "five_hour - 500 0:1") == nil, "cut short")
    }

    @Test func aRenderReadsTheHistoryWhenTheDigestHasAMalformedLine() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let store = HistoryStore(paths: sandbox.paths)
        let samples = [HistorySample(at: Self.newest - 60, key: "five_hour", used: 11, resetsAt: 1_800_010_800),
                       HistorySample(at: Self.newest - 60, key: "seven_day", used: 3, resetsAt: nil),
                       HistorySample(at: Self.newest, key: "five_hour", used: 12, resetsAt: 1_800_010_800)]
        try FileSystem.makeDirectory(FileSystem.directory(of: store.file), mode: 0o700)
        try FileSystem.writeAtomically(HistoryFile.encode(samples), to: store.file, mode: 0o600)
        try FileSystem.writeAtomically(Data("elbowroom-digest 1\nfive_hour 1800010800 1800000000 0:99\nfive_hour - x\n".utf8),
                                       to: store.digestFile, mode: 0o600)
        let history = try store.readForRender()
        #expect(history.samples == samples)
        #expect(history.instance(of: Self.window("five_hour", used: 12, resetsAt: 1_800_010_800)).array.map(\.used) == [11, 12])
    }

    @Test func theDigestPathReplacesTheHistorysSuffix() {
        #expect(HistoryStore(file: "/c/usage-ab.history").digestFile == "/c/usage-ab.digest")
        #expect(HistoryStore(file: "/c/usage-ab").digestFile == "/c/usage-ab.digest")
        #expect(HistoryStore(file: ".history").digestFile == ".digest")
        #expect(HistoryStore(file: "").digestFile == ".digest")
        #expect(HistoryStore(file: "/ü/é.history").digestFile == "/ü/é.digest")
    }

    /// `HistoryStore(paths:)` writes the history's path from the cache file's: the same path
    /// `Paths.historyFile` spells, for a Claude, a Codex and a plugin account.
    @Test func theHistoryLiesBesideTheCacheWhereThePathsSay() throws {
        for variables in [[:], ["ELBOWROOM_PROVIDER": "codex"], ["ELBOWROOM_PROVIDER": "plug", "ELBOWROOM_ACCOUNT": "ü b"]] {
            let sandbox = try Sandbox()
            defer { sandbox.cleanup() }
            sandbox.extra = variables
            let store = HistoryStore(paths: sandbox.paths)
            #expect(store.file == sandbox.paths.historyFile)
            #expect(store.digestFile == HistoryStore(file: sandbox.paths.historyFile).digestFile)
            #expect(store.digestFile.hasSuffix(".digest") && sandbox.paths.cacheFile.hasSuffix(".json"))
        }
    }

    // MARK: - The same as the samples

    /// Histories of a few windows with resets that jitter within a minute and beyond it, unknown
    /// resets, samples out of order and ties, against the filter over every sample.
    @Test func everyInstanceIsWhatFilteringTheSamplesGave() throws {
        var random = Generator(seed: 36)
        for round in 0..<400 {
            var samples: [HistorySample] = []
            let keys = ["five_hour", "seven_day", "seven_day_sonnet_and_more"]
            let resets: [Int64?] = [nil, 1_800_010_800, 1_800_010_830, 1_800_010_861, 1_800_010_900, 1_800_020_000]
            var t = Self.newest - 7200
            for _ in 0..<random.below(60) {
                t += Int64(random.below(4) == 0 ? -30 : random.below(300))
                samples.append(HistorySample(at: t, key: keys[random.below(keys.count)],
                                             used: Double(random.below(10_001)) / 100, resetsAt: resets[random.below(resets.count)]))
            }
            let history = UsageHistory(samples: samples)
            #expect(history.samples == samples)
            #expect(history == UsageHistory(samples: history.samples))
            for key in keys {
                for reset in resets {
                    let observed = t + Int64(random.below(3) - 1) * Int64(random.below(600))
                    let window = Self.window(key, used: Double(random.below(10_001)) / 100, resetsAt: reset, observed: observed)
                    #expect(history.instance(of: window).array == Self.reference(samples, window), "round \(round)")
                }
            }
        }
    }

    /// A percent of at most two decimals is read as the integer of its hundredths divided by 100:
    /// the same double as summing its scaled digits and rounding, as it was read before.
    @Test func percentsReadAsBefore() {
        func reference(_ text: String) -> Double? {
            let bytes = Array(text.utf8)
            var i = 0
            var whole: Int64 = 0
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { whole = whole * 10 + Int64(bytes[i] - 0x30); i += 1 }
            guard i > 0, i <= 12 else { return nil }
            var used = Double(whole)
            guard i < bytes.count, bytes[i] == 0x2E else { return whole <= 100 ? used : nil }
            i += 1
            var scale = 0.1
            let first = i
            while i < bytes.count, i - first < 6, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                used += Double(bytes[i] - 0x30) * scale
                scale /= 10
                i += 1
            }
            guard i > first, used <= 100 else { return nil }
            return (used * 100).rounded() / 100
        }
        func read(_ text: String) -> Double? {
            Array(text.utf8).withUnsafeBufferPointer { b in
                var c = ByteCursor(b)
                return c.percent()
            }
        }
        var spellings: [String] = []
        for hundredths in 0...10_100 {
            let whole = hundredths / 100, fraction = hundredths % 100
            spellings.append(HistoryFile.percent(Double(hundredths) / 100))
            spellings.append("\(whole).\(fraction / 10)\(fraction % 10)")
            if fraction % 10 == 0 { spellings.append("\(whole).\(fraction / 10)") }
            spellings.append("\(whole).\(fraction / 10)\(fraction % 10)\(hundredths % 7)")
            spellings.append("\(whole).\(fraction / 10)\(fraction % 10)5")
            spellings.append("\(whole).\(fraction / 10)\(fraction % 10)4999")
        }
        spellings += ["100", "101", "100.", "100.0", "100.00", "100.001", "0.005", "0.015", "99.995", "007.5", "1e2"]
        var differ: [String] = []
        for text in spellings where read(text)?.bitPattern != reference(text)?.bitPattern { differ.append(text) }
        #expect(differ.isEmpty, "\(differ.prefix(10))")
        #expect(read("37.5") == 37.5 && read("0.25") == 0.25 && read("100.01") == nil)
    }

    /// `BurnRate.slope` writes the count, sum and sum of squares of the step times out: the same
    /// bits as adding them up step by step.
    @Test func burnRatesAreTheBitsTheStepByStepSumsGave() {
        func reference(_ points: [HistoryPoint], now: Int64) -> Double? {
            guard let newest = points.last, points.count >= BurnRate.minimumSamples else { return nil }
            let end = max(now, newest.at)
            let start = end - BurnRate.horizon
            let inside = points.firstIndex { $0.at >= start } ?? points.count
            let used = Array(points[(inside > 0 ? inside - 1 : 0)...])
            let from = max(start, used[0].at)
            guard end - from >= BurnRate.minimumSpan else { return nil }
            var index = 0
            var n = 0.0, sumT = 0.0, sumU = 0.0, sumTT = 0.0, sumTU = 0.0
            var t = from
            while t <= end {
                while index + 1 < used.count && used[index + 1].at <= t { index += 1 }
                let x = Double(t - from)
                let y = used[index].used
                n += 1
                sumT += x
                sumU += y
                sumTT += x * x
                sumTU += x * y
                t += 60
            }
            let denominator = n * sumTT - sumT * sumT
            guard n >= 2, denominator > 0 else { return nil }
            let slope = (n * sumTU - sumT * sumU) / denominator
            return slope.isFinite ? max(0, slope * 3600) : nil
        }
        var random = Generator(seed: 7)
        var rates = 0
        for _ in 0..<2000 {
            var points: [HistoryPoint] = []
            var t = Self.newest - Int64(random.below(3 * 3600))
            var used = Double(random.below(5000)) / 100
            for _ in 0..<random.below(80) {
                // Mostly forward, now and then back (a history file edited by hand).
                t += Int64(random.below(400)) - (random.below(20) == 0 ? 500 : 0)
                used = min(100, used + Double(random.below(300)) / 100)
                points.append(HistoryPoint(at: t, used: random.below(9) == 0 ? used + 1e-7 : used))
            }
            let now = t + Int64(random.below(5000))
            let rate = BurnRate.percentPerHour(HistoryPoints(points), now: now)
            #expect(rate?.bitPattern == reference(points, now: now)?.bitPattern)
            if rate != nil { rates += 1 }
            // From the middle of an array too (a digest's series is a slice of its points).
            let padded = [HistoryPoint(at: 0, used: 99)] + points + [HistoryPoint(at: 0, used: 1)]
            #expect(BurnRate.percentPerHour(HistoryPoints(numbers: HistoryPoints(padded).numbers[2..<(2 * padded.count - 2)]), now: now)?.bitPattern
                    == rate?.bitPattern)
        }
        #expect(rates > 500)
    }

    @Test func aSparklineOfASliceDrawsItsOwnPoints() throws {
        let points = [HistoryPoint(at: 0, used: 100)] + (0...7).map { HistoryPoint(at: Int64($0) * 600, used: Double($0) * 100 / 7) }
            + [HistoryPoint(at: 9000, used: 100)]
        let line = try #require(Sparkline(HistoryPoints(numbers: HistoryPoints(points).numbers[2..<18]), now: 4200))
        #expect(line.render(points: 8) == "▁▂▃▄▅▆▇█")
        #expect(line.render(points: 4) == "▁▃▅█")
    }

    /// A glyph's level is `(percent / 100 * 7).rounded()`, as it was worked out before.
    @Test func sparklineLevelsAreTheRoundedScale() {
        var values: [Double] = [0, 100, -1, 101, .nan, .infinity, -.infinity, -0.0, .leastNonzeroMagnitude]
        for k in 0...7 {
            let half = (Double(k) + 0.5) / 7 * 100
            values += [half, half.nextUp, half.nextDown, Double(k) / 7 * 100]
        }
        for hundredths in 0...10_000 { values.append(Double(hundredths) / 100) }
        var random = Generator(seed: 11)
        for _ in 0..<10_000 { values.append(Double(random.below(1 << 30)) / Double(1 << 30) * 100) }
        for value in values {
            let clamped = value.isFinite ? min(max(value, 0), 100) : 0
            #expect(Sparkline.level(value) == Int((clamped / 100 * 7).rounded()), "\(value)")
        }
    }

    struct Generator {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func below(_ n: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15  // SplitMix64
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(max(1, n)))
        }
    }
}
