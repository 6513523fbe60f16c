/// What has been notified, per window instance, kept in the cache (`CacheFile.notified`) and
/// changed only under the cache's lock, so however many bars, prompts and timers run, each
/// crossing is claimed — and notified — once.
///
/// One line per window: `KEY RESETS KIND,KIND…`, e.g. `five_hour 1800007980 warn,critical`
/// (`-` for an unknown reset time, nothing after the space when nothing was claimed yet). A line
/// that does not parse is dropped, which at worst repeats a notification.
public struct NotifyLedger: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var key: String
        /// The reset time of the window instance the claims belong to, Unix seconds.
        public var resetsAt: Int64?
        public var claimed: [NotifyKind]

        public func has(_ kind: NotifyKind) -> Bool { claimed.contains(kind) }

        mutating func claim(_ kind: NotifyKind) {
            if !claimed.contains(kind) {
                claimed.append(kind)
                claimed.sort()
            }
        }
    }

    public var entries: [Entry]

    public init(entries: [Entry] = []) {
        self.entries = entries
    }

    public init(lines: [String]?) {
        entries = (lines ?? []).compactMap(Self.entry)
    }

    public func entry(forKey key: String) -> Entry? {
        entries.first { $0.key == key }
    }

    public var lines: [String] {
        entries.map { e in
            "\(e.key) \(e.resetsAt.map { String($0) } ?? "-") " + e.claimed.map(\.rawValue).joined(separator: ",")
        }
    }

    static func entry(_ line: String) -> Entry? {
        let fields = line.split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count == 3, HistoryFile.isStorableKey(String(fields[0])) else { return nil }
        let reset: Int64?
        if fields[1] == "-" {
            reset = nil
        } else {
            guard let value = Int64(fields[1]) else { return nil }
            reset = value
        }
        var claimed: [NotifyKind] = []
        for word in fields[2].split(separator: ",") {
            guard let kind = NotifyKind(rawValue: String(word)) else { return nil }
            if !claimed.contains(kind) { claimed.append(kind) }
        }
        return Entry(key: String(fields[0]), resetsAt: reset, claimed: claimed.sorted())
    }
}
