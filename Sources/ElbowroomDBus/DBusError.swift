/// What went wrong talking to the bus, or the error a peer answered with.
public enum DBusError: Error, CustomStringConvertible {
    /// Bytes that are not a D-Bus message (or value).
    case malformed(String)
    /// No bus to talk to, or the connection failed or closed.
    case connection(String)
    /// A method call answered with an error (its name and message).
    case remote(name: String, message: String)
    /// No reply within the time allowed.
    case timeout(String)

    public var description: String {
        switch self {
        case .malformed(let why): "malformed D-Bus data: \(why)"
        case .connection(let why): why
        case .remote(let name, let message): message.isEmpty ? name : "\(name): \(message)"
        case .timeout(let what): "no reply to \(what)"
        }
    }
}
