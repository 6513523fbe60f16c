import ElbowroomCore

/// Wakes the tray when a file in a cache directory is written or renamed into place (inotify),
/// so a fetch's result shows at once rather than at the next tick. A directory that does not
/// exist yet is looked for again each time the loop drains; without inotify (`fd` nil) the loop
/// ticks instead.
final class CacheDirectoryWatch {
    private(set) var fd: Int32?
    private var pending: [String]

    /// The file names that matter (the caches); other files there (locks, history) are ignored.
    private let names: [String]

    init(directories: [String], names: [String]) {
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

    /// Whether every directory is watched (else the loop ticks faster while a fetch runs).
    var isWatching: Bool { fd != nil && pending.isEmpty }

    private func addPending() {
        #if os(Linux)
        guard let fd else { return }
        pending.removeAll { directory in
            inotify_add_watch(fd, directory, UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_DELETE | IN_CREATE)) >= 0
        }
        #endif
    }

    /// Reads the events that woke us; whether one of them was about a cache file.
    @discardableResult
    func drain() -> Bool {
        var relevant = false
        if let fd {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                guard n > 0 else { break }
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
}
