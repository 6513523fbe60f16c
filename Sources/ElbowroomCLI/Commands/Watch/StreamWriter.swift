import ElbowroomCore

extension WatchCommand {
    /// Writes whole lines to the bar. On a descriptor it waits for room with `poll` (never
    /// spinning, whether the descriptor blocks or not), gives up on a frame the pipe cannot take
    /// at all (`busy`: the bar stopped reading), and never leaves half a line: once a line is
    /// started it is finished, unless we are told to stop or the reader goes.
    struct StreamWriter {
        var sink: any OutputSink

        enum Result { case written, busy, gone }

        /// Whether the output is a pipe or socket whose reader has closed it.
        func readerHasGone() -> Bool {
            guard let fd = (sink as? FileDescriptorSink)?.fd else { return false }
            var p = pollfd(fd: fd, events: 0, revents: 0)
            return poll(&p, 1, 0) > 0 && p.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0
        }

        /// - Parameter waiting: wait for room for the first byte too, rather than answer `busy`.
        func write(_ text: String, waiting: Bool = false, stop: () -> Bool) -> Result {
            guard let fd = (sink as? FileDescriptorSink)?.fd else { return sink.write(text) ? .written : .gone }
            let bytes = Array(text.utf8)
            var offset = 0
            while offset < bytes.count {
                var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                let mayWait = waiting || offset > 0
                let ready = poll(&p, 1, mayWait ? 1000 : 0)
                if ready < 0 && errno != EINTR { return .gone }
                if stop() { return .gone }
                if p.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 { return .gone }
                if ready <= 0 {
                    if !mayWait { return .busy }
                    continue
                }
                // At most a pipe buffer's worth: after POLLOUT that much never blocks.
                let n = bytes.withUnsafeBytes { raw in
                    #if canImport(Glibc)
                    Glibc.write(fd, raw.baseAddress! + offset, min(raw.count - offset, 4096))
                    #else
                    Darwin.write(fd, raw.baseAddress! + offset, min(raw.count - offset, 4096))
                    #endif
                }
                if n < 0 {
                    if errno == EINTR { continue }
                    guard errno == EAGAIN else { return .gone }
                    if !mayWait { return .busy }
                    usleep(10_000)  // poll said there was room and there was not: do not spin
                    continue
                }
                offset += n
            }
            return .written
        }
    }
}
