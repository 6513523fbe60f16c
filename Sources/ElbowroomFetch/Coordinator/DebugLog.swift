#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ElbowroomCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Step-by-step log for `--verbose` / `ELBOWROOM_DEBUG=1`, on stderr. Every token the fetch side
/// handles is registered here, and every line (and the final error line) is scrubbed of them: the
/// messages are written token-free, this is the second guard.
public final class DebugLog: @unchecked Sendable {
    public let enabled: Bool
    private let sink: @Sendable (String) -> Void
    private let lock = ThreadLock()
    private var secrets: [String] = []

    public init(enabled: Bool, sink: @escaping @Sendable (String) -> Void = DebugLog.standardError) {
        self.enabled = enabled
        self.sink = sink
    }

    public static let standardError: @Sendable (String) -> Void = { line in
        writeStandardError(line + "\n")
    }

    /// All of `text` on fd 2, unbuffered (a line is never held back in a buffer).
    static func writeStandardError(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Registers a secret to scrub from every line.
    public func secret(_ value: String?) {
        guard let value, value.count >= 8 else { return }
        lock.withLock {
            if !secrets.contains(value) { secrets.append(value) }
        }
    }

    public func redact(_ text: String) -> String {
        let known = lock.withLock { secrets }
        var result = text
        for secret in known where result.contains(secret) {
            result = result.replacing(secret, with: "<redacted>")
        }
        return result
    }

    public func callAsFunction(_ message: @autoclosure () -> String) {
        guard enabled else { return }
        sink("elbowroom-fetch: " + redact(message()))
    }
}
