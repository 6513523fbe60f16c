#if canImport(Glibc)
import Glibc
private let systemConnect = Glibc.connect
private let systemSend = Glibc.send
#elseif canImport(Darwin)
import Darwin
private let systemConnect = Darwin.connect
private let systemSend = Darwin.send
#endif

/// A client connection to a message bus over a Unix socket: SASL EXTERNAL (our uid), `Hello`,
/// then messages both ways. One thread: `call` waits for its reply and keeps whatever else
/// arrives meanwhile for `next`. Its descriptor is close-on-exec (programs it starts never get
/// the bus connection).
public final class DBusConnection {
    public let fd: Int32
    /// The name the bus gave us (`:1.42`).
    public private(set) var uniqueName = ""
    private var lastSerial: UInt32 = 0
    private var input: [UInt8] = []
    private var held: [DBusMessage] = []
    public private(set) var isOpen = true

    /// The longest a bus call waits for its reply.
    public static let callTimeout: Double = 25

    /// Connects to the first of `addresses` that answers, authenticates and says Hello.
    public init(addresses: [DBusAddress]) throws(DBusError) {
        guard !addresses.isEmpty else {
            throw .connection("no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set, and there is no $XDG_RUNTIME_DIR/bus)")
        }
        var lastError = DBusError.connection("cannot connect")
        var connected: Int32 = -1
        for address in addresses {
            do {
                connected = try Self.connect(address)
                break
            } catch {
                lastError = error
            }
        }
        guard connected >= 0 else { throw lastError }
        fd = connected
        do {
            try authenticate()
            let reply = try call(.methodCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                             interface: "org.freedesktop.DBus", member: "Hello"))
            uniqueName = reply.body.first?.string ?? ""
        } catch {
            close(fd)
            isOpen = false
            throw error
        }
    }

    deinit { if isOpen { close(fd) } }

    static func connect(_ address: DBusAddress) throws(DBusError) -> Int32 {
        #if canImport(Glibc)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let fd = socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw .connection("socket: \(String(cString: strerror(errno)))") }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let (name, abstract): (String, Bool) = switch address {
        case .path(let p): (p, false)
        case .abstract(let a): (a, true)
        }
        let bytes = (abstract ? [0] : []) + Array(name.utf8)
        let capacity = MemoryLayout.size(ofValue: addr.sun_path)
        guard bytes.count < capacity else {
            close(fd)
            throw .connection("the bus address is too long")
        }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        // An abstract name's length is the address length: no terminating NUL counted.
        let length = socklen_t(MemoryLayout.offset(of: \sockaddr_un.sun_path)! + bytes.count + (abstract ? 0 : 1))
        let status = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { systemConnect(fd, $0, length) }
        }
        guard status == 0 else {
            let why = String(cString: strerror(errno))
            close(fd)
            throw .connection("cannot connect to the session bus at \(abstract ? "@" : "")\(name): \(why)")
        }
        return fd
    }

    /// SASL EXTERNAL: the server checks our uid against the socket's credentials.
    func authenticate() throws(DBusError) {
        let uid = String(getuid())
        let hex = uid.utf8.map { b in
            let digits = Array("0123456789abcdef".utf8)
            return String(decoding: [digits[Int(b >> 4)], digits[Int(b & 15)]], as: UTF8.self)
        }.joined()
        try writeAll([0] + Array("AUTH EXTERNAL \(hex)\r\n".utf8))
        let answer = try readLine()
        guard answer.hasPrefix("OK ") else {
            throw .connection("the session bus refused us (\(answer.prefix(80)))")
        }
        try writeAll(Array("BEGIN\r\n".utf8))
    }

    func readLine() throws(DBusError) -> String {
        var line: [UInt8] = []
        while line.count < 4096 {
            guard try fill(timeout: Self.callTimeout) else { throw .timeout("authentication") }
            if let end = input.firstIndex(of: 10) {
                line += input[..<end]
                input.removeSubrange(...end)
                return String(decoding: line, as: UTF8.self).trimmingSuffix("\r")
            }
        }
        throw .connection("authentication line too long")
    }

    func writeAll(_ bytes: [UInt8]) throws(DBusError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { systemSend(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&p, 1, 1000)
                    continue
                }
                isOpen = false
                throw .connection("the session bus connection closed (\(String(cString: strerror(errno))))")
            }
            offset += n
        }
    }

    /// Reads what is there (waiting up to `timeout` seconds for something); false on timeout.
    /// A signal cuts the wait short (also false).
    func fill(timeout: Double) throws(DBusError) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&p, 1, Int32(max(0, min(timeout, 86400)) * 1000))
        if ready < 0 && errno != EINTR { throw .connection("poll: \(String(cString: strerror(errno)))") }
        guard ready > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n < 0 && (errno == EINTR || errno == EAGAIN) { return false }
        guard n > 0 else {
            isOpen = false
            throw .connection("the session bus closed the connection")
        }
        input += buffer[0..<n]
        return true
    }

    /// A whole message from the bytes read so far, if there is one.
    func takeMessage() throws(DBusError) -> DBusMessage? {
        guard let length = try DBusMessage.length(ofMessageIn: input[...]), input.count >= length else { return nil }
        let bytes = Array(input[0..<length])
        input.removeSubrange(0..<length)
        return try DBusMessage.decode(bytes)
    }

    /// Sends `message`; returns the serial it went with.
    @discardableResult
    public func send(_ message: DBusMessage) throws(DBusError) -> UInt32 {
        lastSerial = lastSerial == UInt32.max ? 1 : lastSerial + 1
        try writeAll(message.encoded(serial: lastSerial))
        return lastSerial
    }

    /// Sends a method call and waits for its return; an error answer is thrown.
    public func call(_ message: DBusMessage, timeout: Double = DBusConnection.callTimeout) throws(DBusError) -> DBusMessage {
        let serial = try send(message)
        let deadline = Self.monotonic() + timeout
        while true {
            while let m = try takeMessage() {
                if (m.kind == .methodReturn || m.kind == .error) && m.replySerial == serial {
                    if m.kind == .error { throw m.errorDescription }
                    return m
                }
                held.append(m)
            }
            let left = deadline - Self.monotonic()
            guard left > 0 else { throw .timeout(message.member ?? "a call") }
            _ = try fill(timeout: left)
        }
    }

    /// The next message, waiting up to `timeout` seconds; `nil` when none came (or a signal
    /// interrupted the wait).
    public func next(timeout: Double) throws(DBusError) -> DBusMessage? {
        if !held.isEmpty { return held.removeFirst() }
        if let m = try takeMessage() { return m }
        guard try fill(timeout: timeout) else { return nil }
        return try takeMessage()
    }

    /// A message already read and not yet handed out, without waiting.
    public var hasPending: Bool { !held.isEmpty || ((try? DBusMessage.length(ofMessageIn: input[...])).flatMap { $0 } ?? Int.max) <= input.count }

    public static func monotonic() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    // The bus's own calls.

    /// `RequestName` with DO_NOT_QUEUE; whether we own it now.
    public func requestName(_ name: String) throws(DBusError) -> Bool {
        let reply = try call(.methodCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                         interface: "org.freedesktop.DBus", member: "RequestName",
                                         body: [.string(name), .uint32(4)]))
        let code = reply.body.first?.int ?? 0
        return code == 1 || code == 4
    }

    public func addMatch(_ rule: String) throws(DBusError) {
        _ = try call(.methodCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                 interface: "org.freedesktop.DBus", member: "AddMatch", body: [.string(rule)]))
    }

    public func nameHasOwner(_ name: String) throws(DBusError) -> Bool {
        let reply = try call(.methodCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                         interface: "org.freedesktop.DBus", member: "NameHasOwner", body: [.string(name)]))
        return reply.body.first?.bool ?? false
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
