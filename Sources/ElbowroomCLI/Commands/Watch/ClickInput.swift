import ElbowroomCore
import ElbowroomAdapters

/// Click events on `watch`'s stdin (i3bar, i3blocks persist): one JSON object a line.
struct ClickInput {
    /// The longest line kept while it has no newline yet, in bytes: a runaway one is dropped.
    static let maxLine = 65536

    let fd: Int32
    private(set) var isOpen = true
    /// The bytes of a line not finished yet (bytes, not text: a stream of combining marks is one
    /// grapheme cluster however long, so only a byte count bounds it, and cheaply).
    private var pending: [UInt8] = []

    init(fd: Int32) { self.fd = fd }

    /// The bytes of an unfinished line held so far.
    var pendingBytes: Int { pending.count }

    /// Waits up to `timeout` for input (or just sleeps once the input has closed); returns the
    /// click events of the lines it completed. A signal cuts the wait short.
    mutating func wait(timeout: TimeInterval) -> [ClickEvent] {
        guard isOpen else {
            var request = timespec(tv_sec: Int(timeout), tv_nsec: Int((timeout - timeout.rounded(.down)) * 1e9))
            _ = nanosleep(&request, nil)
            return []
        }
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, Int32(timeout * 1000)) > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n <= 0 {
            if n == 0 || errno != EINTR { isOpen = false }
            return []
        }
        return take(buffer[0..<n])
    }

    /// Adds bytes read; returns the click events of the lines they complete.
    mutating func take(_ bytes: ArraySlice<UInt8>) -> [ClickEvent] {
        var events: [ClickEvent] = []
        var rest = bytes
        while let newline = rest.firstIndex(of: 10) {
            pending += rest[..<newline]
            if let event = ClickEventParser.parse(line: String(decoding: pending, as: UTF8.self)) { events.append(event) }
            pending.removeAll(keepingCapacity: true)
            rest = rest[(newline + 1)...]
        }
        pending += rest
        if pending.count > Self.maxLine { pending = [] }  // a runaway line without newline: drop it
        return events
    }
}
