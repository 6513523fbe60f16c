import ElbowroomCore

/// `serve --listen ADDR:PORT`: an IPv4 address (`127.0.0.1:9478`, `0.0.0.0:9478`) or an IPv6
/// one in brackets (`[::1]:9478`). No host names: what is bound is what was written. Or
/// `unix:/PATH`: a Unix socket only its owner can connect to (mode 0600), for a machine other
/// users share (a loopback port is open to all of them).
struct ListenAddress: Equatable, CustomStringConvertible {
    /// The default: loopback only, on the documented port.
    static let defaultPort: UInt16 = 9478
    static let loopback = ListenAddress(host: "127.0.0.1", port: defaultPort, isIPv6: false)

    var host: String
    var port: UInt16
    var isIPv6: Bool
    /// `unix:/PATH`: the socket's path (`host` and `port` unused).
    var unixPath: String? = nil

    var description: String {
        if let unixPath { return "unix:" + unixPath }
        return isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// The most a Unix socket's path may have (`sockaddr_un.sun_path`, its NUL included).
    static let unixPathLimit = 107

    static func parse(_ text: String) throws(UsageError) -> ListenAddress {
        let usage = UsageError("--listen takes ADDR:PORT (127.0.0.1:\(defaultPort), 0.0.0.0:\(defaultPort), [::1]:\(defaultPort)) or unix:/PATH, not '\(SafeText.clean(text, lines: .join))'")
        if text.hasPrefix("unix:") {
            let path = String(text.dropFirst(5))
            guard path.hasPrefix("/"), path.utf8.count <= unixPathLimit, !path.utf8.contains(0), !path.hasSuffix("/") else {
                throw UsageError("--listen unix:/PATH takes an absolute path of at most \(unixPathLimit) bytes, not '\(SafeText.clean(text, lines: .join))'")
            }
            return ListenAddress(host: "localhost", port: 0, isIPv6: false, unixPath: path)
        }
        guard let colon = text.lastIndex(of: ":") else { throw usage }
        var host = String(text[..<colon])
        let portText = text[text.index(after: colon)...]
        guard let port = UInt16(portText), !portText.isEmpty else { throw usage }
        var v6 = false
        if host.hasPrefix("["), host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
            v6 = true
        }
        let address = ListenAddress(host: host, port: port, isIPv6: v6)
        guard !host.isEmpty, address.withSockaddr({ _, _ in true }) == true else { throw usage }
        return address
    }

    /// Calls `body` with the socket address, or returns `nil` when `host` is not an address.
    func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T? {
        if let unixPath {
            var addr = sockaddr_un()
            addr.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(unixPath.utf8)
            guard bytes.count <= Self.unixPathLimit else { return nil }
            withUnsafeMutableBytes(of: &addr.sun_path) { raw in
                for (i, b) in bytes.enumerated() { raw[i] = b }
                raw[bytes.count] = 0
            }
            return withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
        }
        if isIPv6 {
            var addr = sockaddr_in6()
            addr.sin6_family = sa_family_t(AF_INET6)
            addr.sin6_port = port.bigEndian
            guard inet_pton(AF_INET6, host, &addr.sin6_addr) == 1 else { return nil }
            return withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &addr.sin_addr) == 1 else { return nil }
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    /// Whether only this machine can reach it (any spelling of `::1`, such as `0:0:0:0:0:0:0:1`).
    var isLoopback: Bool {
        if unixPath != nil { return true }
        guard let bytes = HostCheck.addressBytes(host, ipv6: isIPv6) else { return false }
        return isIPv6 ? bytes == HostCheck.loopback6 : bytes.first == 127
    }
}
