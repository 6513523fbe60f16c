// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// A year of history: one line per window per day (UTC), kept in `usage-<account>.daily` beside
/// the cache for `keepDays` days, within `maxBytes`. Written from the 8-day detail (the usage
/// history and the attribution log) once a day is over (`DailyArchive.maintain`); read only by
/// the commands that ask (`history --daily`, a `--since` past 8 days, `history --by`), never by a
/// render.
///
/// ```
/// elbowroom-daily 1
/// i 20468 3f9c1d2e Opus 4<TAB>~/code/app
/// 20468 five_hour 87 42.5 1768500000,1768518000 s:3f9c1d2e=30:2100000 x:elsewhere=12.5:0 m:Opus%204=30:2100000 p:~/code/app=30:2100000
/// ```
///
/// A day line: the day (days since 1970-01-01), the window's key, its peak percent used that day,
/// the points it rose that day, the reset times of its instances that ended that day (`-` none),
/// then who used the points: `s:` a session (its id's first 8 characters), `m:` a model, `p:` a
/// project, `x:` `elsewhere`, `local` or `unknown`, each `NAME=POINTS:MICRODOLLARS` (names
/// percent-encoded). At most `maxEach` sessions, models and projects a line; the rest as `other`.
/// `i` lines give a session of that day its model and project.
public struct DailySummary: Sendable, Equatable {
    public var day: Int64
    public var key: String
    public var peak: Double
    public var points: Double
    public var resets: [Int64]
    public var entries: [Entry]

    public struct Entry: Sendable, Equatable {
        /// `s`, `m`, `p` or `x`.
        public var kind: Character
        public var name: String
        public var points: Double
        public var cost: Int64
    }

    public static let header = "elbowroom-daily 1"
    public static let keepDays: Int64 = 450
    public static let maxBytes = 512 << 10
    static let maxEach = 3

    public var dayStart: Int64 { day * 86400 }

    /// Days since 1970 of a Unix time.
    public static func day(of t: Int64) -> Int64 { t >= 0 ? t / 86400 : (t - 86399) / 86400 }

    /// `2027-01-15`.
    public static func date(_ day: Int64) -> String {
        String(ISO8601.format(Date(timeIntervalSince1970: Double(day * 86400))).prefix(10))
    }

    // MARK: - Computing

    /// The summaries of `day` for every window that has samples or rises in it, and the model and
    /// project of each session named.
    public static func compute(day: Int64, samples: [HistorySample], log: AttributionLog.Contents)
        -> (days: [DailySummary], sessions: [(id: String, info: AttributionLog.Info)]) {
        let start = day * 86400, end = start + 86400
        var keys: [String] = []
        for s in samples where s.at >= start && s.at < end && !keys.contains(s.key) { keys.append(s.key) }
        for r in log.rises where r.at >= start && r.at < end && !keys.contains(r.key) { keys.append(r.key) }
        var out: [DailySummary] = []
        var named: [(id: String, info: AttributionLog.Info)] = []
        for key in keys {
            let mine = samples.filter { $0.key == key && $0.at >= start && $0.at < end }
            var resets: [Int64] = []
            for s in samples where s.key == key {
                if let r = s.resetsAt, r >= start, r < end, r <= (samples.last?.at ?? 0),
                   !resets.contains(where: { abs($0 - r) <= 60 }) { resets.append(r) }
            }
            let rises = log.rises.filter { $0.key == key && $0.at >= start && $0.at < end }
            var entries: [Entry] = []
            func add(_ kind: Character, _ name: String, _ points: Double, _ cost: Int64) {
                if let i = entries.firstIndex(where: { $0.kind == kind && $0.name == name }) {
                    entries[i].points += points
                    entries[i].cost += cost
                } else {
                    entries.append(Entry(kind: kind, name: name, points: points, cost: cost))
                }
            }
            for rise in rises {
                for share in rise.shares {
                    if let info = log.info(share.who) ?? (AttributionReport.isWord(share.who) ? nil : AttributionLog.Info(model: "", project: "")) {
                        let id = String(share.who.prefix(8))
                        add("s", id, share.points, share.cost)
                        add("m", info.model.isEmpty ? "-" : info.model, share.points, share.cost)
                        add("p", AttributionReport.projectName(info.project), share.points, share.cost)
                        if !named.contains(where: { $0.id == id }) { named.append((id, info)) }
                    } else {
                        add("x", share.who, share.points, share.cost)
                    }
                }
            }
            var kept: [Entry] = []
            for kind: Character in ["s", "m", "p"] {
                let all = entries.filter { $0.kind == kind }.sorted { $0.points > $1.points }
                kept += all.prefix(maxEach)
                let rest = all.dropFirst(maxEach)
                if !rest.isEmpty {
                    kept.append(Entry(kind: kind, name: "other", points: rest.reduce(0) { $0 + $1.points },
                                      cost: rest.reduce(0) { $0 + $1.cost }))
                }
            }
            kept += entries.filter { $0.kind == "x" }
            out.append(DailySummary(day: day, key: key, peak: mine.map(\.used).max() ?? 0,
                                    points: rises.reduce(0) { $0 + $1.points }, resets: resets.sorted(), entries: kept))
        }
        let used = out.flatMap { $0.entries.filter { $0.kind == "s" }.map(\.name) }
        return (out, named.filter { used.contains($0.id) })
    }

    // MARK: - File format

    public struct File: Sendable {
        public var days: [DailySummary] = []
        /// Per day, a session's (first 8 characters of its id) model and project.
        public var sessions: [(day: Int64, id: String, info: AttributionLog.Info)] = []

        public init() {}

        public func info(day: Int64, id: String) -> AttributionLog.Info? {
            sessions.last { $0.day == day && $0.id == id }?.info
        }

        public var storedDays: [Int64] {
            var out: [Int64] = []
            for d in days where out.last != d.day && !out.contains(d.day) { out.append(d.day) }
            return out
        }

        public func encoded() -> Data {
            var text = DailySummary.header + "\n"
            for day in storedDays.sorted() {
                for s in sessions where s.day == day {
                    text += "i \(day) \(s.id) \(s.info.model)\t\(s.info.project)\n"
                }
                for d in days where d.day == day { text += d.line + "\n" }
            }
            return Data(text.utf8)
        }

        public static func parse(_ text: String) -> File {
            var file = File()
            var lines = text.split(separator: "\n", omittingEmptySubsequences: true)[...]
            guard lines.first == Substring(DailySummary.header) else { return file }
            lines = lines.dropFirst()
            for line in lines {
                if line.hasPrefix("i ") {
                    let parts = line.dropFirst(2).split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
                    let head = parts[0].split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
                    guard head.count == 3, let day = Int64(head[0]) else { continue }
                    file.sessions.append((day, String(head[1]),
                                          AttributionLog.Info(model: String(head[2]), project: parts.count > 1 ? String(parts[1]) : "")))
                } else if let d = DailySummary(line: line) {
                    file.days.append(d)
                }
            }
            return file
        }
    }

    var line: String {
        var text = "\(day) \(key) \(HistoryFile.percent(peak)) \(AttributionState.points(points)) "
        text += resets.isEmpty ? "-" : resets.map { String($0) }.joined(separator: ",")
        for e in entries {
            text += " \(e.kind):\(Self.encode(e.name))=\(AttributionState.points(e.points)):\(e.cost)"
        }
        return text
    }

    init(day: Int64, key: String, peak: Double, points: Double, resets: [Int64], entries: [Entry]) {
        self.day = day
        self.key = key
        self.peak = peak
        self.points = points
        self.resets = resets
        self.entries = entries
    }

    init?(line: Substring) {
        let f = line.split(separator: " ")
        guard f.count >= 5, let day = Int64(f[0]), HistoryFile.isStorableKey(String(f[1])),
              let peak = Double(f[2]), let points = Double(f[3]) else { return nil }
        var resets: [Int64] = []
        if f[4] != "-" {
            for r in f[4].split(separator: ",") {
                guard let value = Int64(r) else { return nil }
                resets.append(value)
            }
        }
        var entries: [Entry] = []
        for field in f[5...] {
            guard field.count > 2, let kind = field.first, "smpx".contains(kind), field.dropFirst().first == ":",
                  let eq = field.lastIndex(of: "="), let colon = field.lastIndex(of: ":"), eq < colon,
                  let p = Double(field[field.index(after: eq)..<colon]), let cost = Int64(field[field.index(after: colon)...])
            else { return nil }
            let name = Self.decode(String(field[field.index(field.startIndex, offsetBy: 2)..<eq]))
            entries.append(Entry(kind: kind, name: name, points: p, cost: cost))
        }
        self.init(day: day, key: String(f[1]), peak: peak, points: points, resets: resets, entries: entries)
    }

    /// Names percent-encoded where they would break a field: `%`, space, `=`, `:`, controls.
    static func encode(_ name: String) -> String { encodeUTF8(name) }

    private static func encodeUTF8(_ name: String) -> String {
        var bytes: [UInt8] = []
        for b in name.utf8 {
            if b <= 0x20 || b == 0x25 || b == 0x3D || b == 0x3A || b == 0x7F {
                bytes += Array(("%" + String(b, radix: 16, uppercase: true).leftPadded(to: 2)).utf8)
            } else {
                bytes.append(b)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func decode(_ text: String) -> String {
        var bytes: [UInt8] = []
        var i = text.utf8.startIndex
        let u = text.utf8
        while i < u.endIndex {
            if u[i] == 0x25, let a = u.index(i, offsetBy: 1, limitedBy: u.endIndex), a < u.endIndex,
               let b = u.index(i, offsetBy: 2, limitedBy: u.endIndex), b < u.endIndex,
               let value = UInt8(String(decoding: [u[a], u[b]], as: UTF8.self), radix: 16) {
                bytes.append(value)
                i = u.index(after: b)
            } else {
                bytes.append(u[i])
                i = u.index(after: i)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension String {
    fileprivate func leftPadded(to n: Int) -> String {
        count >= n ? self : String(repeating: "0", count: n - count) + self
    }
}
