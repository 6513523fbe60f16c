import ElbowroomCore

/// Which `Host` values `serve` answers: the one check every request passes before any route
/// (`HTTPServer.answer`), so every path, those added later included, follows it.
///
/// A web page can reach a loopback port through DNS rebinding: its own name first resolves to
/// the attacker, then to 127.0.0.1, and the browser, still on the page's origin, lets it read the
/// answers. Such a request always carries the page's name in `Host`, so naming the server by
/// what it is decides it:
///
/// - always: `localhost`, `127.0.0.1` and `[::1]` (any spelling of that address, such as
///   `[0:0:0:0:0:0:0:1]`), and the address bound (`127.0.0.2`, `192.168.1.5`);
/// - on a wildcard bind (`0.0.0.0`, `[::]`): any address literal too (an address is not a name
///   and cannot be rebound; a page reaching one by address is of another origin and cannot read
///   the answer);
/// - every name given with `--allow-host` (for a name other machines use to reach this one).
///
/// With the port bound or no port; a name is compared without case, exactly otherwise (no
/// trailing dot, no other loopback name). Anything else gets 421 Misdirected Request. A
/// request without `Host` is HTTP/1.0 (HTTP/1.1 requires one: `HTTPRequestHead` answers 400),
/// which no browser sends, so it is answered.
struct HostCheck: Equatable {
    /// The address bound, as `inet_pton` reads it (4 or 16 bytes).
    var bound: [UInt8]
    var port: UInt16
    /// Lowercased names from `--allow-host`: `NAME` (with the bound port or none) or `NAME:PORT`.
    var allowed: [String]

    init(address: ListenAddress, port: UInt16, allowed: [String] = []) {
        bound = Self.addressBytes(address.host, ipv6: address.isIPv6) ?? []
        self.port = port
        self.allowed = allowed.map(Self.asciiLowercased)
    }

    /// Names `--allow-host` refuses: not a host name or address, or with a scheme or path.
    static func validAllowEntry(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 255 else { return false }
        return text.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                || b == UInt8(ascii: ".") || b == UInt8(ascii: "-") || b == UInt8(ascii: ":")
                || b == UInt8(ascii: "[") || b == UInt8(ascii: "]") || b == UInt8(ascii: "_")
        }
    }

    var wildcard: Bool { !bound.isEmpty && bound.allSatisfy { $0 == 0 } }

    /// Whether a request with this `Host` value (nil: none) is answered.
    func allows(_ host: String?) -> Bool {
        guard let host else { return true }
        let value = Self.asciiLowercased(host)
        if allowed.contains(value) { return true }
        guard let (name, portText) = Self.split(value) else { return false }
        if let portText {
            guard !portText.isEmpty, portText.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  UInt16(portText) == port else { return false }
        }
        if name == "localhost" { return true }
        if allowed.contains(name) { return true }
        let literal: [UInt8]?
        if name.hasPrefix("[") {
            literal = Self.addressBytes(String(name.dropFirst().dropLast()), ipv6: true)
        } else {
            literal = Self.addressBytes(name, ipv6: false)
        }
        guard let literal else { return false }
        if literal == Self.loopback4 || literal == Self.loopback6 || literal == bound { return true }
        return wildcard
    }

    /// Only A-Z: Unicode case mapping turns some letters into ASCII ones (K, the Kelvin sign).
    static func asciiLowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    static let loopback4: [UInt8] = [127, 0, 0, 1]
    static let loopback6: [UInt8] = Array(repeating: 0, count: 15) + [1]

    /// `host[:port]` or `[v6][:port]`; nil when it is neither.
    static func split(_ value: String) -> (name: String, port: String?)? {
        if value.hasPrefix("[") {
            guard let close = value.firstIndex(of: "]") else { return nil }
            let name = String(value[...close])
            let rest = value[value.index(after: close)...]
            if rest.isEmpty { return (name, nil) }
            guard rest.hasPrefix(":") else { return nil }
            return (name, String(rest.dropFirst()))
        }
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        switch parts.count {
        case 1: return parts[0].isEmpty ? nil : (value, nil)
        case 2: return parts[0].isEmpty ? nil : (String(parts[0]), String(parts[1]))
        default: return nil
        }
    }

    static func addressBytes(_ text: String, ipv6: Bool) -> [UInt8]? {
        guard !text.contains("%") else { return nil }
        if ipv6 {
            var a = in6_addr()
            guard inet_pton(AF_INET6, text, &a) == 1 else { return nil }
            return withUnsafeBytes(of: &a) { Array($0) }
        }
        var a = in_addr()
        guard inet_pton(AF_INET, text, &a) == 1 else { return nil }
        return withUnsafeBytes(of: &a) { Array($0) }
    }
}
