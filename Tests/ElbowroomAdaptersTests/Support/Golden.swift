import Foundation
import Testing

/// Golden files under `Tests/ElbowroomAdaptersTests/Golden/<adapter>/<case>.txt`, compared byte for
/// byte; `ELBOWROOM_RECORD_GOLDEN=1 swift test --filter ElbowroomAdaptersTests` rewrites them.
enum Golden {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Golden")

    static var recording: Bool { ProcessInfo.processInfo.environment["ELBOWROOM_RECORD_GOLDEN"] == "1" }

    static func check(_ actual: String, adapter: String, name: String,
                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = directory.appendingPathComponent(adapter).appendingPathComponent(name + ".txt")
        if recording {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: url)
            return
        }
        guard let expected = try? Data(contentsOf: url) else {
            Issue.record("missing golden file \(url.path); record with ELBOWROOM_RECORD_GOLDEN=1", sourceLocation: sourceLocation)
            return
        }
        #expect(Array(actual.utf8) == Array(expected),
                "\(adapter)/\(name) differs from its golden file:\n\(String(decoding: expected, as: UTF8.self).debugDescription)\nactual:\n\(actual.debugDescription)",
                sourceLocation: sourceLocation)
    }
}
