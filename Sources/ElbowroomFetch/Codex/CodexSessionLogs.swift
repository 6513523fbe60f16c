#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ElbowroomCore

/// Codex's token-free source (`codex_source = "logs"`): the rate limits Codex itself writes into
/// its session logs, `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`, as `token_count` events
/// (CODEX.md §5). No login is read and nothing is sent; the numbers are as fresh as Codex's last
/// answer, like Claude Code's status line.
enum CodexSessionLogs {
    /// Files looked at, newest by modification time first (a resumed session appends to its
    /// original day's file, so dates in paths do not order them).
    static let maxFiles = 24
    /// Day directories walked back from the newest.
    static let maxDays = 14
    /// Bytes read from the end of each file.
    static let tailBytes = 1 << 20

    /// The newest main limit (and the per-model ones seen after it) in the logs, or `nil`.
    static func reading(codexHome: String, now: Date) -> Reading? {
        for file in newestFiles(in: Paths.join(codexHome, "sessions")) {
            guard let data = tail(of: file) else { continue }
            if let reading = reading(fromLog: data, now: now) { return reading }
        }
        return nil
    }

    /// The `rollout-*.jsonl` files of the last `maxDays` day directories, newest first.
    static func newestFiles(in sessions: String) -> [String] {
        var days: [String] = []
        for year in names(in: sessions).sorted(by: >) {
            for month in names(in: Paths.join(sessions, year)).sorted(by: >) {
                for day in names(in: Paths.join(Paths.join(sessions, year), month)).sorted(by: >) {
                    days.append(Paths.join(Paths.join(Paths.join(sessions, year), month), day))
                    if days.count >= maxDays { break }
                }
                if days.count >= maxDays { break }
            }
            if days.count >= maxDays { break }
        }
        var files: [(path: String, modified: Date)] = []
        for dir in days {
            for name in names(in: dir) where name.hasPrefix("rollout-") && name.hasSuffix(".jsonl") {
                let path = Paths.join(dir, name)
                if let modified = FileSystem.modificationDate(of: path) { files.append((path, modified)) }
            }
        }
        return files.sorted { $0.modified > $1.modified }.prefix(maxFiles).map(\.path)
    }

    static func names(in dir: String) -> [String] { FileSystem.entries(of: dir) }


    /// The last `tailBytes` of a file (a session log can be many megabytes).
    /// Regular files only: a FIFO or device named like a log is never waited on.
    static func tail(of file: String) -> Data? {
        let fd = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let size = lseek(fd, 0, SEEK_END)
        guard size >= 0 else { return nil }
        let start = max(0, size - off_t(tailBytes))
        guard lseek(fd, start, SEEK_SET) == start else { return nil }
        var data = Data(count: Int(size - start))
        var got = 0
        let total = data.count
        data.withUnsafeMutableBytes { buffer in
            while got < total {
                let n = read(fd, buffer.baseAddress! + got, total - got)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                got += n
            }
        }
        return data.prefix(got)
    }

    struct Line: Decodable {
        var timestamp: String?
        var type: String?
        var payload: Payload?
    }

    struct Payload: Decodable {
        var type: String?
        var rate_limits: Limits?
        var keys: [String] = []

        enum CodingKeys: String, CodingKey { case type, rate_limits }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            type = try? c.decodeIfPresent(String.self, forKey: .type)
            rate_limits = try? c.decodeIfPresent(Limits.self, forKey: .rate_limits)
            keys = (try? decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)) ?? []
        }
    }

    /// Keys of a `token_count` event's payload elbowroom knows (CODEX.md §5).
    static let knownPayloadKeys: Set<String> = ["type", "info", "rate_limits"]

    /// Keys of a `rate_limits` snapshot elbowroom knows (CODEX.md §5); any other is drift.
    static let knownKeys: Set<String> = [
        "limit_id", "limit_name", "primary", "secondary", "tertiary", "credits", "plan_type",
        "rate_limit_reached_type", "individual_limit", "spend_control_reached", "spend_control",
    ]

    struct Limits: Decodable {
        var limit_id: String?
        var limit_name: String?
        var primary: LogWindow?
        var secondary: LogWindow?
        var tertiary: LogWindow?
        var plan_type: String?
        var rate_limit_reached_type: CodexCredit.ReachedType?
        var individual_limit: CodexCredit.CreditLimit?
        var spend_control_reached: Bool?
        var keys: [String] = []

        enum CodingKeys: String, CodingKey {
            case limit_id, limit_name, primary, secondary, tertiary, plan_type, rate_limit_reached_type
            case individual_limit, spend_control_reached
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            limit_id = try? c.decodeIfPresent(String.self, forKey: .limit_id)
            limit_name = try? c.decodeIfPresent(String.self, forKey: .limit_name)
            primary = try? c.decodeIfPresent(LogWindow.self, forKey: .primary)
            secondary = try? c.decodeIfPresent(LogWindow.self, forKey: .secondary)
            tertiary = try? c.decodeIfPresent(LogWindow.self, forKey: .tertiary)
            plan_type = try? c.decodeIfPresent(String.self, forKey: .plan_type)
            rate_limit_reached_type = try? c.decodeIfPresent(CodexCredit.ReachedType.self, forKey: .rate_limit_reached_type)
            individual_limit = try? c.decodeIfPresent(CodexCredit.CreditLimit.self, forKey: .individual_limit)
            spend_control_reached = try? c.decodeIfPresent(Bool.self, forKey: .spend_control_reached)
            keys = (try? decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)) ?? []
        }
    }

    struct LogWindow: Decodable {
        var used_percent: Double?
        var window_minutes: Double?
        var resets_at: Double?
        var resets_in_seconds: Double?
        /// An RFC 3339 `resets_at` that is no real time.
        var unreadableReset = false

        enum CodingKeys: String, CodingKey { case used_percent, window_minutes, resets_at, resets_in_seconds }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            used_percent = try? c.decodeIfPresent(Double.self, forKey: .used_percent)
            window_minutes = try? c.decodeIfPresent(Double.self, forKey: .window_minutes)
            resets_in_seconds = try? c.decodeIfPresent(Double.self, forKey: .resets_in_seconds)
            // Unix seconds, or (a few days in October 2025) an RFC 3339 string.
            if let seconds = try? c.decodeIfPresent(Double.self, forKey: .resets_at) {
                resets_at = seconds
            } else if let text = try? c.decodeIfPresent(String.self, forKey: .resets_at) {
                // A real time within the bound, kept as seconds (never then read as milliseconds).
                if let date = ISO8601.parse(text), EpochTime.isSane(date) { resets_at = date.timeIntervalSince1970 } else { unreadableReset = true }
            }
        }

        /// As `CodexUsage` bounds it; minutes become seconds only when they are a length at all.
        var window: CodexUsage.Window {
            let seconds = window_minutes.map { $0.isFinite && abs($0) < 1e12 ? $0 * 60 : .infinity }
            return CodexUsage.Window(usedPercent: used_percent, seconds: seconds, resetAt: resets_at,
                                     resetIn: resets_at == nil ? resets_in_seconds : nil)
        }
    }

    /// The last `token_count` event with rate limits in a log's text: the newest main limit
    /// (`limit_id` `codex` or null), and the per-model ones from the lines after it (the newest
    /// of each). Unparsable lines (half written) are skipped. The reading's source is
    /// `session_log`: the numbers came from a file Codex wrote, not from any API.
    static func reading(fromLog data: Data, now: Date) -> Reading? {
        let decoder = JSONDecoder()
        var main: (limits: Limits, at: Date, payloadKeys: [String])?
        var others: [Limits] = []
        for line in data.split(separator: 0x0A).reversed() {
            guard line.count > 2, line.first == 0x7B,
                  let parsed = try? decoder.decode(Line.self, from: Data(line)),
                  parsed.type == "event_msg", parsed.payload?.type == "token_count",
                  let limits = parsed.payload?.rate_limits else { continue }
            // A line stamped more than an hour after this clock (a machine whose clock is ahead)
            // is not believed, nor one stamped at no real time.
            let at = parsed.timestamp.flatMap(ISO8601.parse) ?? now
            guard EpochTime.isSane(at), at <= now.addingTimeInterval(3600) else { continue }
            if limits.limit_id == nil || limits.limit_id == "codex" {
                main = (limits, at, parsed.payload?.keys ?? [])
                break
            }
            if !others.contains(where: { $0.limit_id == limits.limit_id }) { others.append(limits) }
        }
        guard let main else { return nil }
        var notes: [String] = []
        func slots(_ l: Limits) -> [CodexUsage.Window?] {
            for (name, w) in [("primary", l.primary), ("secondary", l.secondary), ("tertiary", l.tertiary)] where w?.unreadableReset == true {
                notes.append("rate_limits.\(name): resets_at is no time; left out")
            }
            func usable(_ w: LogWindow?) -> CodexUsage.Window? { w?.unreadableReset == true ? nil : w?.window }
            return [usable(l.primary), usable(l.secondary), usable(l.tertiary)]
        }
        var limits = [CodexUsage.Limit(feature: nil, name: nil, slots: slots(main.limits))]
        for other in others {
            limits.append(CodexUsage.Limit(feature: other.limit_id, name: other.limit_name, slots: slots(other)))
        }
        var windows = CodexUsage.windows(limits, observedAt: main.at, notes: &notes)
        var control: CodexCredit.SpendControl?
        if let individual = main.limits.individual_limit, individual.carriesData {
            control = CodexCredit.SpendControl(reached: main.limits.spend_control_reached, limits: [("individual_limit", individual)])
        } else if main.limits.spend_control_reached != nil {
            control = CodexCredit.SpendControl(reached: main.limits.spend_control_reached, limits: [])
        }
        windows += CodexCredit.windows(control, reached: main.limits.rate_limit_reached_type?.type, observedAt: main.at, notes: &notes)
        // A window whose reset has passed is shown as reset by the view; one stamped more than an
        // hour after this clock (a log from a machine whose clock is ahead) is not believed.
        windows = windows.filter { $0.observedAt <= now.addingTimeInterval(3600) }
        let unknown = main.payloadKeys.filter { !knownPayloadKeys.contains($0) }.sorted()
            + main.limits.keys.filter { !knownKeys.contains($0) }.sorted().map { "rate_limits." + $0 }
        return Reading(windows: windows, plan: main.limits.plan_type, fetchedAt: main.at, source: .sessionLog,
                       notes: notes, unknownKeys: Array(unknown.prefix(32)))
    }
}
