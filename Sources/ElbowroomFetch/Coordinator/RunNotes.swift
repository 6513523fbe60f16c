import ElbowroomCore

/// Things one fetch run learned that the fetch state should keep even when the fetch succeeds
/// (e.g. refreshed tokens that could not be saved), for `doctor` and `cache show`. Token-free.
public final class RunNotes: @unchecked Sendable {
    private let lock = ThreadLock()
    private var stored: [String] = []

    public init() {}

    public func append(_ note: String) {
        lock.withLock { stored.append(note) }
    }

    /// The notes as one message, or `nil` for none.
    public var message: String? {
        lock.withLock { stored.isEmpty ? nil : stored.joined(separator: "; ") }
    }
}
