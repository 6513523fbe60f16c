import ElbowroomCore

/// Set by the signal handlers `serve` installs: the write end of its wake-up pipe.
nonisolated(unsafe) var serveWakeFD: Int32 = -1

/// A small HTTP/1.1 server on one thread: `poll` over the listening socket, a wake-up pipe and
/// every connection, all non-blocking. A client cannot hold it: each connection has a deadline
/// for its request (and for taking its answer), a request head is capped in bytes, and at most
/// `maxConnections` are open at once (a new one then replaces the one that has waited longest
/// for its request). Answers are computed by `respond`, which must not block.
final class HTTPServer {
    struct Limits {
        /// Connections open at once (lowered to what RLIMIT_NOFILE allows). When all are taken, a
        /// new one replaces the connection that has waited longest for its request (a slow client's).
        var maxConnections = 4096
        /// Bytes a request head may have.
        var requestBytes = 8192
        /// Seconds a connection has to send a whole request head (from its accept, or from
        /// its previous answer), and to take an answer.
        var deadline: Double = 5
        /// Requests one connection may make before it is closed.
        var requestsPerConnection = 10_000
    }

    final class Connection {
        let fd: Int32
        var input: [UInt8] = []
        var output: [UInt8] = []
        var written = 0
        var deadline: Double
        var closeAfterWrite = false
        var served = 0
        var closed = false
        init(fd: Int32, deadline: Double) {
            self.fd = fd
            self.deadline = deadline
        }
        var writing: Bool { written < output.count }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let listener: Int32
    let limits: Limits
    let respond: (HTTPRequestHead) -> HTTPResponse
    /// Which `Host` values are answered, checked before `respond` sees a request.
    let hosts: HostCheck
    private var connections: [Connection] = []
    /// The port bound (useful with port 0); 0 on a Unix socket.
    let port: UInt16
    /// `--listen unix:/PATH`: removed when the server goes.
    let socketPath: String?

    /// `allowHosts`: names answered besides loopback's and the address bound (`HostCheck`).
    init(address: ListenAddress, allowHosts: [String] = [], limits: Limits = Limits(),
         respond: @escaping (HTTPRequestHead) -> HTTPResponse) throws(Failure) {
        var limits = limits
        limits.maxConnections = min(limits.maxConnections, Self.raiseFileLimit() - 32)
        self.limits = limits
        self.respond = respond
        let unixPath = address.unixPath
        let fd = socket(unixPath != nil ? AF_UNIX : address.isIPv6 ? AF_INET6 : AF_INET, Self.streamSocket, 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(Self.errorText())") }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        var one: Int32 = 1
        if unixPath == nil {
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        if address.isIPv6 { setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<Int32>.size)) }
        if let unixPath {
            do { try Self.clearStaleSocket(unixPath) } catch { close(fd); throw error }
        }
        // A Unix socket is made 0600 from its first moment: only its owner may connect.
        let mask = unixPath != nil ? umask(0o177) : 0
        let bound = address.withSockaddr { bind(fd, $0, $1) } ?? -1
        let why = Self.errorText()
        if unixPath != nil { umask(mask) }
        guard bound == 0, listen(fd, 4096) == 0 else {
            let why = bound == 0 ? Self.errorText() : why
            close(fd)
            throw Failure(description: "cannot listen on \(address): \(why)")
        }
        Self.setNonBlocking(fd)
        listener = fd
        socketPath = unixPath
        port = unixPath != nil ? 0 : Self.boundPort(fd, ipv6: address.isIPv6)
        hosts = HostCheck(address: address, port: port, allowed: allowHosts)
    }

    deinit {
        for c in connections where !c.closed { close(c.fd) }
        close(listener)
        if let socketPath { unlink(socketPath) }
    }

    /// Before binding a Unix socket: a socket of ours left by a server that is gone (nobody
    /// accepts on it) is removed; anything else at the path is an error (a live server's socket,
    /// a file, another user's socket), never removed.
    static func clearStaleSocket(_ path: String) throws(Failure) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK, info.st_uid == geteuid() else {
            throw Failure(description: "cannot listen on unix:\(path): something else is there (not a socket of yours); remove it or pick another path")
        }
        let probe = socket(AF_UNIX, streamSocket, 0)
        guard probe >= 0 else { return }
        defer { close(probe) }
        let address = ListenAddress(host: "localhost", port: 0, isIPv6: false, unixPath: path)
        let connected = address.withSockaddr { connect(probe, $0, $1) } ?? -1
        if connected == 0 {
            throw Failure(description: "cannot listen on unix:\(path): another server is listening there")
        }
        unlink(path)
    }

    /// Serves until `stopFD` becomes readable (a byte from a signal handler).
    func run(stopFD: Int32) {
        var fds: [pollfd] = []
        while true {
            fds.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0))
            fds.append(pollfd(fd: listener, events: Int16(POLLIN), revents: 0))
            var next = Self.now() + 1
            for c in connections {
                fds.append(pollfd(fd: c.fd, events: Int16(c.writing ? POLLOUT : POLLIN), revents: 0))
                next = min(next, c.deadline)
            }
            let wait = Int32(max(0, min(1000, (next - Self.now()) * 1000)).rounded(.up))
            let ready = poll(&fds, nfds_t(fds.count), wait)
            if ready < 0 && errno != EINTR { return }
            if fds[0].revents != 0 { return }
            PosixSpawner.reapFinishedChildren()
            let now = Self.now()
            for (i, c) in connections.enumerated() {
                let events = fds[i + 2].revents
                if events == 0 { continue }
                if events & Int16(POLLNVAL) != 0 { drop(c); continue }
                if c.writing { flush(c, now: now) } else { read(c, now: now) }
            }
            for c in connections where !c.closed && c.deadline <= now { drop(c) }
            connections.removeAll { $0.closed }
            if fds[1].revents != 0 { acceptAll(now: now) }
        }
    }

    /// Takes every waiting connection. Past `maxConnections`, each new one replaces the open
    /// connection that has waited longest for a request (slow clients cannot fill the server
    /// and keep the others out for their whole deadline); when every one is being answered, the
    /// new one is closed.
    private func acceptAll(now: Double) {
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 { return }
            if connections.count >= limits.maxConnections {
                var victim: Int?
                for (i, c) in connections.enumerated() where !c.writing && c.deadline < (victim.map { connections[$0].deadline } ?? .infinity) {
                    victim = i
                }
                guard let victim else { close(fd); continue }
                drop(connections[victim])
                connections.remove(at: victim)
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            Self.setNonBlocking(fd)
            connections.append(Connection(fd: fd, deadline: now + limits.deadline))
        }
    }

    private func read(_ c: Connection, now: Double) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = recv(c.fd, &buffer, buffer.count, 0)
        if n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) { drop(c); return }
        guard n > 0 else { return }
        c.input.append(contentsOf: buffer[0..<n])
        answer(c, now: now)
    }

    /// Answers the request at the front of `c.input`, if a whole head is there.
    private func answer(_ c: Connection, now: Double) {
        switch HTTPRequestHead.parse(c.input, limit: limits.requestBytes) {
        case .incomplete:
            return
        case .refuse(let status):
            c.input = []
            let body = status == 431 ? "request head too large\n" : status == 505 ? "HTTP/1.0 or HTTP/1.1 only\n" : "malformed request\n"
            reply(c, HTTPResponse(status: status, body: body).bytes(keepAlive: false), close: true, now: now)
        case .request(let head, let consumed):
            c.input.removeFirst(consumed)
            c.served += 1
            // Before any route: a name that is not this server's is a page rebinding its name.
            guard hosts.allows(head.host) else {
                c.input = []
                let refused = HTTPResponse(status: 421, body: "misdirected request: this server answers Host localhost, 127.0.0.1 or [::1] (see --allow-host)\n")
                reply(c, refused.bytes(keepAlive: false, head: head.method == "HEAD"), close: true, now: now)
                return
            }
            let keep = head.keepAlive && c.served < limits.requestsPerConnection
            reply(c, respond(head).bytes(keepAlive: keep, head: head.method == "HEAD"), close: !keep, now: now)
        }
    }

    private func reply(_ c: Connection, _ bytes: [UInt8], close: Bool, now: Double) {
        c.output = bytes
        c.written = 0
        c.closeAfterWrite = close
        c.deadline = now + limits.deadline
        flush(c, now: now)
    }

    private func flush(_ c: Connection, now: Double) {
        while c.writing {
            let n = c.output.withUnsafeBytes { raw in
                send(c.fd, raw.baseAddress! + c.written, c.output.count - c.written, Self.noSignal)
            }
            if n < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return }
                drop(c)
                return
            }
            c.written += n
        }
        c.output = []
        c.written = 0
        if c.closeAfterWrite {
            shutdown(c.fd, Int32(SHUT_WR))
            drop(c)
            return
        }
        // The next request: its own deadline; one already sent behind this one is answered now.
        c.deadline = now + limits.deadline
        if !c.input.isEmpty { answer(c, now: now) }
    }

    private func drop(_ c: Connection) {
        guard !c.closed else { return }
        c.closed = true
        close(c.fd)
    }

    // MARK: - System

    #if os(Linux)
    static let streamSocket = Int32(SOCK_STREAM.rawValue)
    /// A peer gone mid-answer is an error from `send`, not SIGPIPE (which `serve` also ignores).
    static let noSignal = Int32(MSG_NOSIGNAL)
    static let openFiles = Int32(RLIMIT_NOFILE.rawValue)
    #else
    static let streamSocket = SOCK_STREAM
    static let noSignal: Int32 = 0
    static let openFiles = RLIMIT_NOFILE
    #endif

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func setNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    static func errorText() -> String { String(cString: strerror(errno)) }

    /// Raises the soft limit on open files to the hard one (at most 4096); returns the soft limit.
    static func raiseFileLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(openFiles, &limit) == 0 else { return 1024 }
        let wanted = min(limit.rlim_max, 4096)
        if limit.rlim_cur < wanted {
            limit.rlim_cur = wanted
            _ = setrlimit(openFiles, &limit)
            _ = getrlimit(openFiles, &limit)
        }
        return Int(limit.rlim_cur)
    }

    static func boundPort(_ fd: Int32, ipv6: Bool) -> UInt16 {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard ok == 0 else { return 0 }
        return withUnsafePointer(to: &storage) { pointer in
            ipv6 ? pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
                 : pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
    }
}
