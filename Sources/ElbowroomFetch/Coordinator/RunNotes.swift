import Foundation

/// Things one fetch run learned that the fetch state should keep even when the fetch succeeds
/// (e.g. refreshed tokens that could not be saved), for `doctor` and `cache show`. Token-free.
public final class RunNotes: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []

    public init() {}

    public func append(_ note: String) {
        lock.lock()
        stored.append(note)
        lock.unlock()
    }

    /// The notes as one message, or `nil` for none.
    public var message: String? {
        lock.lock()
        defer { lock.unlock() }
        return stored.isEmpty ? nil : stored.joined(separator: "; ")
    }
}
