// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// Which session used a window: the state that attributes each rise of a window to the local
/// Claude Code sessions that spent in that time, kept in the cache (`CacheFile.attribution`) and
/// changed only under the cache's lock, by the status-line ingest (a session's cost, tokens and
/// the window numbers it carried) and by the fetcher (the server's numbers).
///
/// - Each session's spend since a window last rose is pending for that window. When an
///   observation shows the window higher than before (in the same window instance), the rise goes
///   to the sessions with pending spend, in proportion to their cost (to their tokens when no
///   cost moved), and their pending spend for that window is used up.
/// - A rise with no pending spend is `elsewhere` (another machine, claude.ai, the desktop app),
///   after `grace` seconds in which no session's spend came to take it —
///   unless no status line was ever seen (`unknown`: the data cannot say), or a Claude Code
///   process of this user that never sent a status line ran when the fetcher saw it (`local`:
///   a `claude -p`, a session without elbowroom's status line). A rise seen on a status line
///   with no spend is `local` too: those numbers came with a local session's own response.
/// - A window's reset starts its account afresh: the first numbers of a later window instance
///   are a rise from 0, and the tallies of the old one go. The very first numbers ever seen of a
///   window are not a rise (nobody watched before).
/// - Consecutive `elsewhere` rises of one window instance make one run (`Run`): the `elsewhere`
///   notification is about a run, once.
///
/// Lines, one per fact (cost in micro-dollars, percentages to two decimals, times Unix seconds):
///
/// ```
/// seen 1800000000
/// s 3f9c…-SESSION 1250000 48000 4242 1800000300 1 Opus%204 %2Fhome%2Fme%2Fcode%2Fapp
/// p five_hour 3f9c…-SESSION 250000 9000
/// w five_hour 1800007980 41.5 1800000300
/// t five_hour 1800007980 3f9c…-SESSION 12.5 3100000
/// r five_hour 1800007980 1800000000 1800000300 6 0
/// h five_hour 1800007980 1800000300 1800000480 2
/// ```
/// In the cache the lines are one string, separated by `|`. `seen`: the first status line; `s`: a session's cumulative cost and tokens, its Claude Code
/// process (`-` unknown), when last seen, whether the log names it (`AttributionLog`), model and project; `p`: a session's spend pending for a
/// window; `w`: a window's instance (reset time, `-` unknown), level and when it was set; `t`: points
/// and cost of the current instance per consumer; `r`: the current `elsewhere` run (from, to,
/// points, whether its notification was claimed); `h`: a rise held for its grace (from, when,
/// points). A line that does not read is dropped.
public struct AttributionState: Sendable, Equatable {
    public struct Session: Sendable, Equatable {
        public var id: String
        public var pid: Int32?
        /// Cumulative, micro-dollars.
        public var cost: Int64
        public var tokens: Int64
        public var at: Int64
        public var model: String
        public var project: String
        /// Whether the attribution log has an `i` line with this model and project.
        public var logged: Bool = false
    }

    struct Pending: Sendable, Equatable {
        var key: String
        var session: String
        var cost: Int64
        var tokens: Int64
    }

    public struct Window: Sendable, Equatable {
        public var key: String
        public var resetsAt: Int64?
        public var level: Double
        public var at: Int64
    }

    public struct Tally: Sendable, Equatable {
        public var key: String
        public var resetsAt: Int64?
        public var who: String
        public var points: Double
        public var cost: Int64
    }

    /// Consecutive `elsewhere` rises of one window instance.
    public struct Run: Sendable, Equatable {
        public var key: String
        public var resetsAt: Int64?
        public var from: Int64
        public var to: Int64
        public var points: Double
        public var claimed: Bool
    }

    public var firstStatusLine: Int64?
    public var sessions: [Session] = []
    var pending: [Pending] = []
    public var windows: [Window] = []
    public var tallies: [Tally] = []
    public var runs: [Run] = []
    /// Rises the fetcher saw with no spend waiting, within their grace.
    var held: [Held] = []

    struct Held: Sendable, Equatable {
        var key: String
        var resetsAt: Int64?
        var from: Int64
        var at: Int64
        var points: Double
    }

    /// How long a rise nobody's spend explains waits for a status line before it is `elsewhere`.
    public static let grace: Int64 = 300

    /// The most sessions kept (the most recently seen).
    public static let maxSessions = 8
    /// The most consumers tallied per window instance (the largest kept).
    static let maxTallies = 8
    public static let elsewhere = "elsewhere"
    public static let unknown = "unknown"
    public static let local = "local"

    public init() {}

    // MARK: - What a status line brings

    /// One status line's session: its id, Claude Code's process, cumulative cost and tokens, model
    /// and project (`workspace.project_dir`, else `cwd`).
    public struct SessionReport: Sendable, Equatable {
        public var id: String
        public var pid: Int32?
        public var cost: Int64
        public var tokens: Int64
        public var model: String
        public var project: String

        /// `nil` without a usable session id, or with neither cost nor tokens.
        public init?(id: String?, pid: Int32?, costUSD: Double?, tokens: Int64?, model: String?, project: String?) {
            guard let id, let clean = AttributionState.word(id), costUSD != nil || tokens != nil else { return nil }
            self.id = clean
            self.pid = pid.flatMap { $0 > 0 ? $0 : nil }
            cost = AttributionState.micros(costUSD ?? 0)
            self.tokens = min(max(tokens ?? 0, 0), 1 << 50)
            self.model = AttributionState.text(model ?? "", max: 64)
            self.project = AttributionState.text(project ?? "", max: 160)
        }

        public init(id: String, pid: Int32? = nil, cost: Int64, tokens: Int64, model: String = "", project: String = "") {
            self.id = id
            self.pid = pid
            self.cost = cost
            self.tokens = tokens
            self.model = model
            self.project = project
        }
    }

    /// Whether a status line with `report` would change nothing the state knows of its session —
    /// a render asks this of the cache's lines before it takes any lock: a byte comparison of
    /// each line's start, no parse.
    public static func knows(_ report: SessionReport, in text: String?) -> Bool {
        guard var text else { return false }
        var prefix = ByteWriter(capacity: 96)
        prefix.byte(0x7C)
        prefix.text("s ")
        prefix.text(report.id)
        prefix.byte(0x20)
        prefix.integer(report.cost)
        prefix.byte(0x20)
        prefix.integer(report.tokens)
        prefix.byte(0x20)
        let want = prefix.bytes
        // Every line but the first starts after a `|`; the first, as if after one.
        return text.withUTF8 { bytes in
            var start = 0
            while start < bytes.count {
                var i = 1
                while i < want.count, start + i - 1 < bytes.count, bytes[start + i - 1] == want[i] { i += 1 }
                if i == want.count { return true }
                while start < bytes.count, bytes[start] != 0x7C { start += 1 }
                start += 1
            }
            return false
        }
    }

    // MARK: - Observing

    /// One rise of one window and who it went to.
    public struct Rise: Sendable, Equatable {
        public var at: Int64
        public var key: String
        public var resetsAt: Int64?
        /// When the window's level was set before this rise (the interval's start).
        public var from: Int64
        public var points: Double
        public var shares: [Share]
    }

    public struct Share: Sendable, Equatable {
        public var who: String
        public var points: Double
        /// Micro-dollars of the consumer's spend this rise used up (0 for elsewhere and the like).
        public var cost: Int64
    }

    /// Takes in one observation at `at`: a status line (`report`, maybe, and its windows) or the
    /// fetcher's reading (`fromStatusLine: false`). `silentLocalClaude` is asked only for a rise
    /// the fetcher saw with no spend to give it to. Returns the rises, for the attribution log.
    ///
    /// A rise the fetcher sees with nobody's spend waiting is held for `grace` seconds before it
    /// counts as elsewhere: a session's status line comes when its answer is complete, and the
    /// fetcher may read the server's number while the answer still streams. Spend that arrives
    /// meanwhile takes the held rise; when the grace has passed (at the next observation), it is
    /// `elsewhere`, or `local` when a Claude Code without a status line runs.
    public mutating func observe(_ report: SessionReport?, windows observed: [UsageWindow], at: Int64,
                                 fromStatusLine: Bool, silentLocalClaude: () -> Bool = { false }) -> [Rise] {
        if fromStatusLine, firstStatusLine == nil { firstStatusLine = at }
        if let report { take(report, at: at, windowKeys: observed.map(\.key)) }
        var rises: [Rise] = []
        var localAnswer: Bool?
        func silent() -> Bool {
            if localAnswer == nil { localAnswer = silentLocalClaude() }
            return localAnswer!
        }
        // Held rises whose grace is over: to spend that came since, else elsewhere (or local).
        for h in held where at - h.at >= Self.grace {
            held.removeAll { $0 == h }
            var shares = share(h.points, key: h.key)
            if shares.isEmpty { shares = [Share(who: silent() ? Self.local : Self.elsewhere, points: h.points, cost: 0)] }
            rises.append(settle(Rise(at: h.at, key: h.key, resetsAt: h.resetsAt, from: h.from, points: h.points, shares: shares)))
        }
        for w in observed where HistoryFile.isStorableKey(w.key) {
            let used = (min(max(w.used, 0), 100) * 100).rounded() / 100
            let reset = w.resetsAt.map { Int64($0.timeIntervalSince1970.rounded(.down)) }
            guard let i = windows.firstIndex(where: { $0.key == w.key }) else {
                windows.append(Window(key: w.key, resetsAt: reset, level: used, at: at))
                continue
            }
            var window = windows[i]
            var rise: Double
            if HistorySample.sameInstance(window.resetsAt, reset) {
                rise = used - window.level
                guard rise >= 0.005 else { continue }
            } else if (reset ?? Int64.min) > (window.resetsAt ?? Int64.min) {
                // A later window instance: its account starts afresh, from 0.
                tallies.removeAll { $0.key == w.key }
                runs.removeAll { $0.key == w.key }
                held.removeAll { $0.key == w.key }
                window.resetsAt = reset
                rise = used
            } else {
                continue  // an older instance's numbers (a status line replaying them)
            }
            var from = window.at
            window.level = used
            window.at = at
            windows[i] = window
            guard rise >= 0.005 else { continue }
            if let h = held.firstIndex(where: { $0.key == w.key }) {
                // One interval from the held rise's start: whoever spends takes both.
                rise += held[h].points
                from = held[h].from
                held.remove(at: h)
            }
            var shares = share(rise, key: w.key)
            if shares.isEmpty {
                if firstStatusLine.map({ $0 > at }) ?? true {
                    shares = [Share(who: Self.unknown, points: rise, cost: 0)]
                } else if fromStatusLine || silent() {
                    shares = [Share(who: Self.local, points: rise, cost: 0)]
                } else {
                    held.append(Held(key: w.key, resetsAt: reset, from: from, at: at, points: rise))
                    continue
                }
            }
            rises.append(settle(Rise(at: at, key: w.key, resetsAt: reset, from: from, points: rise, shares: shares)))
        }
        // Held rises the spend this observation brought can take now.
        for h in held where pending.contains(where: { $0.key == h.key && ($0.cost > 0 || $0.tokens > 0) }) {
            held.removeAll { $0 == h }
            let shares = share(h.points, key: h.key)
            rises.append(settle(Rise(at: h.at, key: h.key, resetsAt: h.resetsAt, from: h.from, points: h.points, shares: shares)))
        }
        return rises
    }

    /// Tallies a rise and carries the `elsewhere` run on; returns it.
    mutating func settle(_ rise: Rise) -> Rise {
        tally(rise.shares, key: rise.key, resetsAt: rise.resetsAt)
        run(rise.shares, key: rise.key, resetsAt: rise.resetsAt, from: rise.from, to: rise.at)
        return rise
    }

    /// A session's new cumulative numbers: what rose since it was last seen is pending for every
    /// window known (and those the same status line carries).
    mutating func take(_ report: SessionReport, at: Int64, windowKeys: [String]) {
        var costRise = report.cost
        var tokenRise = report.tokens
        var logged = false
        if let i = sessions.firstIndex(where: { $0.id == report.id }) {
            costRise = max(0, report.cost - sessions[i].cost)
            tokenRise = max(0, report.tokens - sessions[i].tokens)
            logged = sessions[i].logged && sessions[i].model == report.model && sessions[i].project == report.project
            sessions.remove(at: i)
        }
        sessions.append(Session(id: report.id, pid: report.pid, cost: report.cost, tokens: report.tokens, at: at,
                                model: report.model, project: report.project, logged: logged))
        if sessions.count > Self.maxSessions {
            let gone = sessions.removeFirst()
            pending.removeAll { $0.session == gone.id }
        }
        guard costRise > 0 || tokenRise > 0 else { return }
        var keys = windows.map(\.key)
        for key in windowKeys where !keys.contains(key) { keys.append(key) }
        for key in keys {
            if let p = pending.firstIndex(where: { $0.key == key && $0.session == report.id }) {
                pending[p].cost += costRise
                pending[p].tokens += tokenRise
            } else {
                pending.append(Pending(key: key, session: report.id, cost: costRise, tokens: tokenRise))
            }
        }
    }

    /// `rise` shared by the spend pending for `key` (which it uses up); empty when none is.
    mutating func share(_ rise: Double, key: String) -> [Share] {
        let mine = pending.filter { $0.key == key }
        pending.removeAll { $0.key == key }
        let cost = mine.reduce(Int64(0)) { $0 + $1.cost }
        let tokens = mine.reduce(Int64(0)) { $0 + $1.tokens }
        guard cost > 0 || tokens > 0 else { return [] }
        return mine.compactMap { p in
            let part = cost > 0 ? Double(p.cost) / Double(cost) : Double(p.tokens) / Double(tokens)
            return part > 0 ? Share(who: p.session, points: rise * part, cost: p.cost) : nil
        }
    }

    mutating func tally(_ shares: [Share], key: String, resetsAt: Int64?) {
        for s in shares {
            if let i = tallies.firstIndex(where: { $0.key == key && $0.who == s.who }) {
                tallies[i].points += s.points
                tallies[i].cost += s.cost
            } else {
                tallies.append(Tally(key: key, resetsAt: resetsAt, who: s.who, points: s.points, cost: s.cost))
            }
        }
        let mine = tallies.filter { $0.key == key }
        if mine.count > Self.maxTallies {
            let kept = mine.sorted { $0.points > $1.points }.prefix(Self.maxTallies)
            tallies.removeAll { t in t.key == key && !kept.contains(t) }
        }
    }

    mutating func run(_ shares: [Share], key: String, resetsAt: Int64?, from: Int64, to: Int64) {
        let elsewhere = shares.count == 1 && shares[0].who == Self.elsewhere
        let i = runs.firstIndex { $0.key == key }
        guard elsewhere else {
            if let i { runs.remove(at: i) }
            return
        }
        if let i, HistorySample.sameInstance(runs[i].resetsAt, resetsAt) {
            runs[i].to = to
            runs[i].points += shares[0].points
        } else {
            if let i { runs.remove(at: i) }
            runs.append(Run(key: key, resetsAt: resetsAt, from: from, to: to, points: shares[0].points, claimed: false))
        }
    }

    // MARK: - Reading it

    public func session(_ id: String) -> Session? { sessions.first { $0.id == id } }

    /// The consumer with the most points in `key`'s current instance (`resetsAt`), and its share
    /// of the instance's attributed points.
    public func top(key: String, resetsAt: Int64?) -> (who: String, share: Double)? {
        let mine = tallies.filter { $0.key == key && HistorySample.sameInstance($0.resetsAt, resetsAt) }
        let total = mine.reduce(0) { $0 + $1.points }
        guard total > 0, let best = mine.max(by: { $0.points < $1.points }) else { return nil }
        return (best.who, best.points / total * 100)
    }

    /// How a consumer reads to a person: a session by its project's last directory (its id's
    /// first 8 characters without one), the others by their word.
    public func label(_ who: String) -> String {
        guard let s = session(who) else {
            return who == Self.elsewhere || who == Self.unknown || who == Self.local ? who : String(who.prefix(8))
        }
        let base = s.project.split(separator: "/").last.map(String.init) ?? ""
        return base.isEmpty ? String(s.id.prefix(8)) : base
    }

    /// The process ids of sessions that sent a status line: Claude Code processes that are not
    /// silent.
    public var reportingPIDs: [Int32] { sessions.compactMap(\.pid) }

    // MARK: - Lines

    public init(lines: [String]?) {
        for line in lines ?? [] { read(line) }
    }

    /// From the lines in one string (`CacheFile.attribution`), separated by `|`.
    public init(text: String?) {
        for line in (text ?? "").split(separator: "|") { read(String(line)) }
    }

    /// The lines in one string, as the cache keeps them: separated by `|`, which no line has, and
    /// with nothing JSON escapes (a render reads the cache, and an escape costs its reader a
    /// slower path).
    public var text: String { lines.joined(separator: "|") }

    mutating func read(_ line: String) {
        let f = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        func reset(_ s: String) -> Int64?? { s == "-" ? .some(nil) : Int64(s).map { .some($0) } }
        switch f.first {
        case "seen" where f.count == 2:
            firstStatusLine = Int64(f[1])
        case "s" where f.count == 9:
            guard let cost = Int64(f[2]), let tokens = Int64(f[3]), let at = Int64(f[5]) else { return }
            sessions.append(Session(id: f[1], pid: Int32(f[4]), cost: cost, tokens: tokens, at: at,
                                    model: Self.unfield(f[7]), project: Self.unfield(f[8]), logged: f[6] == "1"))
        case "p" where f.count == 5:
            guard let cost = Int64(f[3]), let tokens = Int64(f[4]) else { return }
            pending.append(Pending(key: f[1], session: f[2], cost: cost, tokens: tokens))
        case "w" where f.count == 5:
            guard let r = reset(f[2]), let level = Double(f[3]), let at = Int64(f[4]) else { return }
            windows.append(Window(key: f[1], resetsAt: r, level: level, at: at))
        case "t" where f.count == 6:
            guard let r = reset(f[2]), let points = Double(f[4]), let cost = Int64(f[5]) else { return }
            tallies.append(Tally(key: f[1], resetsAt: r, who: f[3], points: points, cost: cost))
        case "h" where f.count == 6:
            guard let r = reset(f[2]), let from = Int64(f[3]), let at = Int64(f[4]), let points = Double(f[5]) else { return }
            held.append(Held(key: f[1], resetsAt: r, from: from, at: at, points: points))
        case "r" where f.count == 7:
            guard let r = reset(f[2]), let from = Int64(f[3]), let to = Int64(f[4]), let points = Double(f[5]) else { return }
            runs.append(Run(key: f[1], resetsAt: r, from: from, to: to, points: points, claimed: f[6] == "1"))
        default:
            return
        }
    }

    public var lines: [String] {
        var out: [String] = []
        func reset(_ r: Int64?) -> String { r.map { String($0) } ?? "-" }
        if let firstStatusLine { out.append("seen \(firstStatusLine)") }
        for s in sessions {
            out.append("s \(s.id) \(s.cost) \(s.tokens) \(s.pid.map { String($0) } ?? "-") \(s.at) \(s.logged ? 1 : 0) "
                + Self.field(s.model) + " " + Self.field(s.project))
        }
        for p in pending { out.append("p \(p.key) \(p.session) \(p.cost) \(p.tokens)") }
        for w in windows { out.append("w \(w.key) \(reset(w.resetsAt)) \(HistoryFile.percent(w.level)) \(w.at)") }
        for t in tallies {
            out.append("t \(t.key) \(reset(t.resetsAt)) \(t.who) \(Self.points(t.points)) \(t.cost)")
        }
        for h in held {
            out.append("h \(h.key) \(reset(h.resetsAt)) \(h.from) \(h.at) \(Self.points(h.points))")
        }
        for r in runs {
            out.append("r \(r.key) \(reset(r.resetsAt)) \(r.from) \(r.to) \(Self.points(r.points)) \(r.claimed ? 1 : 0)")
        }
        return out
    }

    // MARK: - Words and numbers

    /// Points to two decimals, unbounded above (a tally over a long range may pass 100).
    public static func points(_ value: Double) -> String {
        let hundredths = Int64((max(value.isFinite ? value : 0, 0) * 100).rounded())
        let whole = hundredths / 100, fraction = hundredths % 100
        if fraction == 0 { return String(whole) }
        return fraction % 10 == 0 ? "\(whole).\(fraction / 10)" : "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// Text as one field of a line: `-` when empty, else percent-encoded where it would break the
    /// line or make JSON escape it (space and controls, `"`, `%`, `/`, `\\`, `|`, DEL).
    static func field(_ text: String) -> String {
        guard !text.isEmpty else { return "-" }
        var bytes: [UInt8] = []
        let hex = Array("0123456789ABCDEF".utf8)
        for b in text.utf8 {
            if b <= 0x20 || b == 0x22 || b == 0x25 || b == 0x2F || b == 0x5C || b == 0x7C || b == 0x7F {
                bytes += [0x25, hex[Int(b >> 4)], hex[Int(b & 15)]]
            } else {
                bytes.append(b)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func unfield(_ text: String) -> String {
        text == "-" ? "" : DailySummary.decode(text)
    }

    /// Dollars as micro-dollars, within 0 … 10⁹ dollars.
    public static func micros(_ usd: Double) -> Int64 {
        guard usd.isFinite else { return 0 }
        return Int64((min(max(usd, 0), 1e9) * 1_000_000).rounded())
    }

    /// A session id as it can be stored: the bytes history keys may have, 1 to 64 of them.
    static func word(_ id: String) -> String? {
        let bytes = id.utf8.filter(HistoryFile.isKeyByte)
        guard !bytes.isEmpty, bytes.count <= 64 else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Text from the status line as the state keeps it: one line, no tab, no controls, at most `max` bytes.
    static func text(_ text: String, max: Int) -> String {
        SafeText.clean(SafeText.prefix(text, maxBytes: max), lines: .join)
    }
}
