import Foundation

/// Step-by-step log for `--verbose` / `ELBOWROOM_DEBUG=1`, on stderr. Every token the fetch side
/// handles is registered here, and every line (and the final error line) is scrubbed of them: the
/// messages are written token-free, this is the second guard.
public final class DebugLog: @unchecked Sendable {
    public let enabled: Bool
    private let sink: @Sendable (String) -> Void
    private let lock = NSLock()
    private var secrets: [String] = []

    public init(enabled: Bool, sink: @escaping @Sendable (String) -> Void = DebugLog.standardError) {
        self.enabled = enabled
        self.sink = sink
    }

    public static let standardError: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Registers a secret to scrub from every line.
    public func secret(_ value: String?) {
        guard let value, value.count >= 8 else { return }
        lock.lock()
        if !secrets.contains(value) { secrets.append(value) }
        lock.unlock()
    }

    public func redact(_ text: String) -> String {
        lock.lock()
        let known = secrets
        lock.unlock()
        var result = text
        for secret in known where result.contains(secret) {
            result = result.replacingOccurrences(of: secret, with: "<redacted>")
        }
        return result
    }

    public func callAsFunction(_ message: @autoclosure () -> String) {
        guard enabled else { return }
        sink("elbowroom-fetch: " + redact(message()))
    }
}
