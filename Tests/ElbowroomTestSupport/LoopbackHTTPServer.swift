import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A request as the server saw it.
public struct RecordedRequest: Sendable, Equatable {
    public var method: String
    public var path: String
    /// In arrival order, names as sent.
    public var headers: [(name: String, value: String)]
    public var body: Data

    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Every byte of the request (request line, headers, body) as text, for "never contains" checks.
    public var allText: String {
        "\(method) \(path)\n" + headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n") + "\n"
            + String(decoding: body, as: UTF8.self)
    }

    public static func == (a: RecordedRequest, b: RecordedRequest) -> Bool {
        a.method == b.method && a.path == b.path && a.body == b.body
            && a.headers.map { "\($0.name)=\($0.value)" } == b.headers.map { "\($0.name)=\($0.value)" }
    }
}

/// How the server answers one request.
public enum ServerReply: Sendable {
    case respond(status: Int, headers: [(String, String)], body: Data)
    /// Never answer (until the server stops).
    case hang
    /// Close the connection without a byte.
    case drop
    /// Raw bytes, then close (for not-HTTP answers, or a response cut off mid-body).
    case raw(Data)
    /// A 200 whose body arrives one byte every `interval` seconds and never ends (until the
    /// server stops or the client goes away): an idle timeout never fires on it.
    case drip(interval: TimeInterval)
    /// `head` as given, then `chunk` again and again, as fast as the peer reads, until it
    /// closes or the server stops: an endless body.
    case flood(head: Data, chunk: Data)

    public static func json(_ status: Int = 200, _ text: String, headers: [(String, String)] = []) -> ServerReply {
        .respond(status: status, headers: [("Content-Type", "application/json")] + headers, body: Data(text.utf8))
    }

    public static func status(_ status: Int, headers: [(String, String)] = [], body: String = "") -> ServerReply {
        .respond(status: status, headers: headers, body: Data(body.utf8))
    }

    public static let rateLimitBody = #"{"error":{"type":"rate_limit_error","message":"Rate limited. Please try again later."}}"#

    /// 429 with an optional `Retry-After`.
    public static func rateLimited(retryAfter: String?) -> ServerReply {
        .json(429, rateLimitBody, headers: retryAfter.map { [("Retry-After", $0)] } ?? [])
    }

    /// 200 with a body that is not JSON.
    public static let garbage = ServerReply.respond(
        status: 200, headers: [("Content-Type", "application/json")], body: Data("<html>oops".utf8))

    /// 200 with a JSON body just over `bytes` (default 1 MiB + 1 KiB).
    public static func oversized(bytes: Int = (1 << 20) + 1024) -> ServerReply {
        var text = #"{"pad":""#
        text += String(repeating: "x", count: bytes)
        text += #""}"#
        return .respond(status: 200, headers: [("Content-Type", "application/json")], body: Data(text.utf8))
    }

    /// A 200 that promises a usage body and closes after half of it.
    public static let cutOffMidBody = ServerReply.raw(Data(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 400\r\nConnection: close\r\n\r\n{\"five_hour\":{\"utilization\":12,".utf8))

    /// 302 to `location` (a path on this server, so a followed redirect would be recorded).
    public static func redirect(to location: String) -> ServerReply {
        .status(302, headers: [("Location", location)])
    }
}

/// A tiny HTTP/1.1 server on 127.0.0.1 for tests: plain POSIX sockets, one thread per connection,
/// every request recorded, answers from a scriptable handler. One request per connection
/// (`Connection: close`), which is all the fetcher's transport needs here.
public final class LoopbackHTTPServer: @unchecked Sendable {
    public typealias Handler = @Sendable (RecordedRequest) -> ServerReply

    public private(set) var port: UInt16 = 0
    private let listenFD: Int32
    private let lock = NSCondition()
    private var handler: Handler
    private var recorded: [RecordedRequest] = []
    private var stopped = false
    private var openConnections: Set<Int32> = []
    private var accepted = 0

    /// Listening on `[::1]` rather than 127.0.0.1.
    public let ipv6: Bool

    public var baseURL: String { ipv6 ? "http://[::1]:\(port)" : "http://127.0.0.1:\(port)" }

    public init(ipv6: Bool = false, handler: @escaping Handler = { _ in .status(404) }) throws {
        self.handler = handler
        self.ipv6 = ipv6
        #if canImport(Glibc)
        listenFD = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        listenFD = socket(ipv6 ? AF_INET6 : AF_INET, SOCK_STREAM, 0)
        #endif
        guard listenFD >= 0 else { throw ServerError("socket failed") }
        _ = fcntl(listenFD, F_SETFD, FD_CLOEXEC)
        var yes: Int32 = 1
        setsockopt(listenFD, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let bound: Int32
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = 0
            address.sin6_addr = in6addr_loopback
            bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listenFD, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = 0
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listenFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        guard bound == 0, listen(listenFD, 128) == 0 else {
            close(listenFD)
            throw ServerError("bind/listen failed")
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listenFD, $0, &length) }
        }
        port = withUnsafePointer(to: &storage) { pointer in
            ipv6 ? pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
                 : pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    public struct ServerError: Error, CustomStringConvertible {
        public let description: String
        init(_ d: String) { description = d }
    }

    /// Replaces the handler.
    public func setHandler(_ handler: @escaping Handler) {
        lock.lock()
        self.handler = handler
        lock.unlock()
    }

    /// Every request so far.
    public var requests: [RecordedRequest] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    /// Every connection accepted so far, whether or not an HTTP request followed (a SOCKS
    /// handshake, a TLS hello): for "nothing ever connected here" checks.
    public var connectionCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return accepted
    }

    public func requests(path: String) -> [RecordedRequest] {
        requests.filter { $0.path == path || $0.path.hasPrefix(path + "?") }
    }

    /// Stops accepting, wakes hanging handlers and closes every connection.
    ///
    /// Descriptor numbers are reused at once in a process where other tests open sockets, so
    /// this only ever touches descriptors that are still ours: connections are shut down under
    /// the lock (a handler removes its descriptor under the same lock before closing it), and the
    /// listening socket is closed by the accept loop itself once `accept` has returned.
    public func stop() {
        lock.lock()
        if stopped { lock.unlock(); return }
        stopped = true
        for fd in openConnections { shutdown(fd, Int32(SHUT_RDWR)) }
        lock.broadcast()
        lock.unlock()
        shutdown(listenFD, Int32(SHUT_RDWR))
    }

    private func acceptLoop() {
        defer { close(listenFD) }
        while true {
            let fd = accept(listenFD, nil, nil)
            if fd < 0 {
                if errno == EINTR { continue }
                return
            }
            // Children that other tests start must not inherit (and hold open) our connections.
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            lock.lock()
            if stopped { lock.unlock(); close(fd); return }
            accepted += 1
            openConnections.insert(fd)
            #if canImport(Darwin)
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
            #endif
            lock.unlock()
            let thread = Thread { [self] in serve(fd) }
            thread.start()
        }
    }

    private func serve(_ fd: Int32) {
        defer {
            lock.lock()
            openConnections.remove(fd)
            lock.unlock()
            close(fd)
        }
        guard let request = readRequest(fd) else { return }
        lock.lock()
        recorded.append(request)
        let handler = self.handler
        lock.unlock()
        switch handler(request) {
        case .hang:
            lock.lock()
            while !stopped { lock.wait() }
            lock.unlock()
        case .drop:
            return
        case .raw(let data):
            writeAll(fd, data)
        case .drip(let interval):
            writeAll(fd, Data("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\nConnection: close\r\n\r\n{".utf8))
            while true {
                lock.lock()
                let done = stopped
                lock.unlock()
                if done { return }
                usleep(useconds_t(interval * 1_000_000))
                guard writeAll(fd, Data(" ".utf8)) else { return }
            }
        case .flood(let head, let chunk):
            guard writeAll(fd, head) else { return }
            while true {
                lock.lock()
                let done = stopped
                lock.unlock()
                if done { return }
                guard writeAll(fd, chunk) else { return }
            }
        case .respond(let status, let headers, let body):
            var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
            var names = Set<String>()
            for (name, value) in headers {
                head += "\(name): \(value)\r\n"
                names.insert(name.lowercased())
            }
            if !names.contains("content-length") { head += "Content-Length: \(body.count)\r\n" }
            head += "Connection: close\r\n\r\n"
            writeAll(fd, Data(head.utf8) + body)
        }
    }

    private func readRequest(_ fd: Int32) -> RecordedRequest? {
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 65536)
        let separator = Data("\r\n\r\n".utf8)
        var headerEnd: Range<Data.Index>?
        while headerEnd == nil {
            let n = read(fd, &chunk, chunk.count)
            if n <= 0 { return nil }
            buffer.append(contentsOf: chunk[0..<n])
            headerEnd = buffer.range(of: separator)
            if buffer.count > 1 << 20 { return nil }
        }
        let headText = String(decoding: buffer[..<headerEnd!.lowerBound], as: UTF8.self)
        var lines = headText.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [(name: String, value: String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append((String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
        }
        let length = headers.first { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value) } ?? 0
        var body = Data(buffer[headerEnd!.upperBound...])
        while body.count < length {
            let n = read(fd, &chunk, chunk.count)
            if n <= 0 { break }
            body.append(contentsOf: chunk[0..<n])
        }
        return RecordedRequest(method: String(requestLine[0]), path: String(requestLine[1]), headers: headers, body: body)
    }

    /// Writes every byte; `false` once the peer is gone.
    @discardableResult
    private func writeAll(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                #if canImport(Glibc)
                let n = send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                #else
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                #endif
                if n <= 0 { if errno == EINTR { continue }; return false }
                offset += n
            }
            return true
        }
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 302: return "Found"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        default: return "Status"
        }
    }
}
