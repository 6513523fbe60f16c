/// Where a bus listens: the `unix:path=…` and `unix:abstract=…` forms of a D-Bus address
/// (`DBUS_SESSION_BUS_ADDRESS`), values percent-decoded; several addresses are tried in order.
public enum DBusAddress: Equatable {
    case path(String)
    case abstract(String)

    /// The addresses in `text` this client can connect to, in order (others, such as `tcp:`,
    /// are left out).
    public static func parse(_ text: String) -> [DBusAddress] {
        var out: [DBusAddress] = []
        for entry in text.split(separator: ";") {
            guard entry.hasPrefix("unix:") else { continue }
            for pair in entry.dropFirst(5).split(separator: ",") {
                guard let eq = pair.firstIndex(of: "=") else { continue }
                let key = pair[..<eq]
                let value = unescape(pair[pair.index(after: eq)...])
                if key == "path" { out.append(.path(value)) }
                if key == "abstract" { out.append(.abstract(value)) }
            }
        }
        return out
    }

    /// The session bus: `DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus` (where systemd
    /// puts it, and where sd-bus and GLib look too).
    public static func session(environment: [String: String]) -> [DBusAddress] {
        if let text = environment["DBUS_SESSION_BUS_ADDRESS"], !text.isEmpty { return parse(text) }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return [.path(runtime + "/bus")] }
        return []
    }

    static func unescape(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var i = text.utf8.startIndex
        let utf8 = text.utf8
        while i < utf8.endIndex {
            let b = utf8[i]
            if b == UInt8(ascii: "%"), let h = utf8.index(i, offsetBy: 2, limitedBy: utf8.endIndex), h < utf8.endIndex,
               let n = UInt8(String(decoding: utf8[utf8.index(after: i)...h], as: UTF8.self), radix: 16) {
                bytes.append(n)
                i = utf8.index(after: h)
            } else {
                bytes.append(b)
                i = utf8.index(after: i)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
