import Foundation

/// A fresh directory under the system temp dir, removed when the test ends.
final class TempDirectory {
    let path: String
    init() {
        path = NSTemporaryDirectory() + "elbowroom-core-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}
