import ElbowroomCore
import ElbowroomDBus

/// Wakes a waiting loop (`tray`, `guard --until`) when a file in a cache directory is written,
/// renamed into place, made or removed (inotify), so a fetch's result shows at once rather than
/// at the next tick.
///
/// A directory that does not exist yet is looked for again each time the watch drains; until
/// every directory is watched (`isWatching`), or without inotify at all (`fd` nil, another
/// platform), the caller looks at the cache on its own schedule instead.
final class CacheDirectoryWatch {
    /// Why `wait` returned.
    enum Wake: Equatable {
        /// The other descriptor (`wait(seconds:alsoOn:)`) has something to read.
        case other
        /// A watched file changed.
        case cacheChanged
        /// The time passed (or there is nothing to wait on but the time).
        case timeout
    }

    private(set) var fd: Int32?
    private var pending: [String]

    /// The file names that matter (the caches); other files there (locks, history) are ignored.
    /// `nil`: every file does.
    private let names: [String]?

    init(directories: [String], names: [String]? = nil) {
        self.names = names
        var unique: [String] = []
        for d in directories where !unique.contains(d) { unique.append(d) }
        pending = unique
        #if os(Linux)
        let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        self.fd = fd >= 0 ? fd : nil
        #endif
        addPending()
    }

    deinit { if let fd { close(fd) } }

    /// Whether every directory is watched (else the caller looks at the cache more often).
    var isWatching: Bool { fd != nil && pending.isEmpty }

    private func addPending() {
        #if os(Linux)
        guard let fd else { return }
        pending.removeAll { directory in
            inotify_add_watch(fd, directory, UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_DELETE | IN_CREATE)) >= 0
        }
        #endif
    }

    /// Reads the events that woke us; whether one of them was about a file that matters.
    @discardableResult
    func drain() -> Bool {
        var relevant = false
        if let fd {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                guard n > 0 else { break }
                guard let names else {
                    relevant = true
                    continue
                }
                // struct inotify_event: wd, mask, cookie, len (4 bytes each), then len bytes of name.
                var offset = 0
                while offset + 16 <= n {
                    let length = Int(buffer[offset + 12]) | Int(buffer[offset + 13]) << 8
                        | Int(buffer[offset + 14]) << 16 | Int(buffer[offset + 15]) << 24
                    let end = min(n, offset + 16 + length)
                    let name = String(decoding: buffer[(offset + 16)..<end].prefix { $0 != 0 }, as: UTF8.self)
                    if names.contains(name) { relevant = true }
                    offset = end
                }
            }
        }
        if !pending.isEmpty { addPending() }
        return relevant
    }

    /// Sleeps until `seconds` pass, `other` (a bus, a signal's wake pipe; `-1`: none) has
    /// something to read, or a file that matters changed. Changes to other files are read and
    /// slept through.
    func wait(seconds: TimeInterval, alsoOn other: Int32 = -1) -> Wake {
        let deadline = DBusConnection.monotonic() + seconds
        while true {
            var fds: [pollfd] = []
            if other >= 0 { fds.append(pollfd(fd: other, events: Int16(POLLIN), revents: 0)) }
            if let fd { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
            let left = max(0, deadline - DBusConnection.monotonic())
            let ms = Int32(min(left * 1000, 3_600_000).rounded(.up))
            guard poll(&fds, nfds_t(fds.count), ms) > 0 else {
                if !pending.isEmpty { addPending() }
                return .timeout
            }
            if other >= 0, fds[0].revents != 0 { return .other }
            if drain() { return .cacheChanged }
        }
    }

}
