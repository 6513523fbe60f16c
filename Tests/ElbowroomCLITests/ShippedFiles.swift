import Foundation

/// Files the release ships from the repository (man pages, completion scripts), found from this
/// source file's path.
enum ShippedFiles {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func read(_ relativePath: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(relativePath), encoding: .utf8)
    }

    static func path(_ relativePath: String) -> String {
        root.appendingPathComponent(relativePath).path
    }
}
