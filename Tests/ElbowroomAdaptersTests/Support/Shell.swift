import Foundation

/// Runs real programs for the consumer tests.
enum Shell {
    static func which(_ program: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(program)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    @discardableResult
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws
        -> (status: Int32, stdout: Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { _, new in new }
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, data)
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("elbowroom-adapters-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Terminal output without escape sequences (CSI, charset selection, keypad modes, OSC).
    static func stripEscapes(_ text: String) -> String {
        var out = ""
        var scalars = Array(text.unicodeScalars)[...]
        while let c = scalars.popFirst() {
            guard c == "\u{1B}" else { out.unicodeScalars.append(c); continue }
            guard let kind = scalars.popFirst() else { break }
            switch kind {
            case "[":
                while let p = scalars.popFirst(), !(0x40...0x7E).contains(p.value) {}
            case "(", ")":
                _ = scalars.popFirst()
            case "]":
                while let p = scalars.popFirst(), p != "\u{07}" {}
            default: break
            }
        }
        return out
    }
}
