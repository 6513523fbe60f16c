// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The attribution log, `usage-<account>.attribution` beside the cache: every rise of a window
/// and who it went to (`AttributionState.observe`), and what each session was, appended under the
/// cache's lock — one short line per rise, nothing when only a session's cost moved. Read only
/// by the commands that ask (`history --by`, `history --daily`, `doctor`), never by a render.
///
/// ```
/// elbowroom-attribution 1
/// i 3f9c…-SESSION Opus 4<TAB>/home/me/code/app
/// 1800000300 five_hour 1800007980 1800000000 2.5 3f9c…-SESSION=2.5:250000
/// 1800000480 five_hour 1800007980 1800000300 6 elsewhere=6:0
/// ```
///
/// `i` lines name a session's model and project (written when first seen or changed). A rise
/// line: when, the window's key, its reset time (`-` unknown), when its level was set before
/// (the interval's start), the points it rose, then one `WHO=POINTS:MICRODOLLARS` per consumer —
/// a session id, `elsewhere`, `local` or `unknown`. Lines older than `horizon` go when the log
/// is maintained (`AttributionArchive`); before that, their days are kept in the daily summary.
public struct AttributionLog: Sendable {
    public static let header = "elbowroom-attribution 1"
    /// How long rise lines are kept (the daily summaries keep the rest).
    public static let horizon: Int64 = 8 * 86400
    /// Readers take at most this many bytes; a longer log is compacted at its next append.
    public static let readLimit = 4 << 20
    static let compactAbove = 2 << 20

    public let file: String

    public init(historyFile: String) {
        let base = historyFile.hasSuffix(".history") ? String(decoding: historyFile.utf8.dropLast(8), as: UTF8.self) : historyFile
        file = base + ".attribution"
    }

    public struct Info: Sendable, Equatable {
        public var model: String
        public var project: String
    }

    /// What the log holds: rises oldest first, and each session's model and project.
    public struct Contents: Sendable, Equatable {
        public var rises: [AttributionState.Rise] = []
        public var sessions: [(id: String, info: Info)] = []

        public func info(_ id: String) -> Info? { sessions.last { $0.id == id }?.info }

        public static func == (a: Contents, b: Contents) -> Bool {
            a.rises == b.rises && a.sessions.map(\.id) == b.sessions.map(\.id) && a.sessions.map(\.info) == b.sessions.map(\.info)
        }
    }

    // MARK: - Writing

    /// The lines for `rises`, with an `i` line before the first rise of each session whose model
    /// and project the log does not have yet (`Session.logged`, which this sets).
    public static func lines(for rises: [AttributionState.Rise], state: inout AttributionState) -> String {
        var out = ""
        for rise in rises {
            for share in rise.shares {
                guard let i = state.sessions.firstIndex(where: { $0.id == share.who }), !state.sessions[i].logged else { continue }
                state.sessions[i].logged = true
                out += infoLine(state.sessions[i])
            }
            out += line(rise)
        }
        return out
    }

    static func infoLine(_ s: AttributionState.Session) -> String {
        "i \(s.id) \(s.model)\t\(s.project)\n"
    }

    static func line(_ rise: AttributionState.Rise) -> String {
        var text = "\(rise.at) \(rise.key) \(rise.resetsAt.map { String($0) } ?? "-") \(rise.from) \(AttributionState.points(rise.points))"
        for s in rise.shares { text += " \(s.who)=\(AttributionState.points(s.points)):\(s.cost)" }
        return text + "\n"
    }

    /// Appends `text` (whole lines) with one `write(2)` on a file opened for appending, creating it
    /// (0600, with its header) when missing; a symlink or another user's file is refused. Returns
    /// the file's size after, so the caller can compact a log grown past `compactAbove`.
    @discardableResult
    public func append(_ text: String) throws -> Int {
        guard !text.isEmpty else { return 0 }
        try FileSystem.makeDirectory(FileSystem.directory(of: file), mode: 0o700)
        let fd = open(file, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0o600)
        guard fd >= 0 else { throw FileSystem.Failure("cannot open", file) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_uid == geteuid(), info.st_nlink == 1 else {
            throw FileSystem.Failure(description: "\(file) is not a private regular file of this user")
        }
        let body = info.st_size == 0 ? Self.header + "\n" + text : text
        var bytes = Array(body.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { raw in write(fd, raw.baseAddress! + offset, raw.count - offset) }
            if n < 0 { if errno == EINTR { continue }; throw FileSystem.Failure("cannot write", file) }
            offset += n
        }
        bytes.removeAll()
        return Int(info.st_size) + offset
    }

    // MARK: - Reading

    public func read() throws(FileSystem.Failure) -> Contents {
        guard let data = try FileSystem.readPrivate(file, limit: Self.readLimit) else { return Contents() }
        return Self.parse(String(decoding: data, as: UTF8.self))
    }

    public func load() -> Contents { (try? read()) ?? Contents() }

    public static func parse(_ text: String) -> Contents {
        var contents = Contents()
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true)[...]
        guard lines.first == Substring(header) else { return contents }
        lines = lines.dropFirst()
        for line in lines {
            if line.hasPrefix("i ") {
                let body = line.dropFirst(2)
                guard let space = body.firstIndex(of: " ") else { continue }
                let id = String(body[..<space])
                let rest = body[body.index(after: space)...]
                let parts = rest.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
                contents.sessions.append((id, Info(model: String(parts[0]), project: parts.count > 1 ? String(parts[1]) : "")))
                continue
            }
            if let rise = rise(line) { contents.rises.append(rise) }
        }
        return contents
    }

    static func rise(_ line: Substring) -> AttributionState.Rise? {
        let f = line.split(separator: " ")
        guard f.count >= 6, let at = Int64(f[0]), HistoryFile.isStorableKey(String(f[1])), let from = Int64(f[3]),
              let points = Double(f[4]), points.isFinite, points >= 0 else { return nil }
        let reset: Int64?
        if f[2] == "-" { reset = nil } else { guard let r = Int64(f[2]) else { return nil }; reset = r }
        var shares: [AttributionState.Share] = []
        for field in f[5...] {
            guard let eq = field.lastIndex(of: "="), let colon = field.lastIndex(of: ":"), eq < colon,
                  let p = Double(field[field.index(after: eq)..<colon]), p.isFinite, p >= 0,
                  let cost = Int64(field[field.index(after: colon)...]) else { return nil }
            shares.append(AttributionState.Share(who: String(field[..<eq]), points: p, cost: cost))
        }
        return AttributionState.Rise(at: at, key: String(f[1]), resetsAt: reset, from: from, points: points, shares: shares)
    }

    // MARK: - Compacting

    /// The log without rise lines older than `horizon` before `now`, and without `i` lines of
    /// sessions no kept rise names (the latest for each); replaced atomically. Call it under the
    /// cache's lock, which every append holds.
    public func compact(now: Int64) throws {
        let contents = try read()
        let cut = now - Self.horizon
        let kept = contents.rises.filter { $0.at >= cut }
        var out = Self.header + "\n"
        var named: [String] = []
        for rise in kept {
            for share in rise.shares where !named.contains(share.who) {
                named.append(share.who)
                if let info = contents.info(share.who) { out += "i \(share.who) \(info.model)\t\(info.project)\n" }
            }
        }
        for rise in kept { out += Self.line(rise) }
        try FileSystem.writeAtomically(Data(out.utf8), to: file, mode: 0o600, durable: false)
    }
}
