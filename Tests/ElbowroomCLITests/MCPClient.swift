import Foundation
import Testing

/// A protocol-level MCP client for the tests: starts the built `elbowroom mcp`, writes lines to
/// its stdin and reads the lines it answers (each within a deadline, so a server that hangs
/// fails the test instead of hanging the suite).
final class MCPClient: @unchecked Sendable {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private var buffer: [UInt8] = []
    private var nextID = 1

    init(executable: String, environment: [String: String], arguments: [String] = ["mcp"]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        signal(SIGPIPE, SIG_IGN)
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Writes `bytes` and a newline (none when `newline` is false).
    func send(raw bytes: [UInt8], newline: Bool = true) {
        let data = Data(bytes + (newline ? [0x0A] : []))
        try? input.fileHandleForWriting.write(contentsOf: data)
    }

    func send(_ line: String) { send(raw: Array(line.utf8)) }

    func send(_ object: [String: Any]) throws {
        send(raw: Array(try JSONSerialization.data(withJSONObject: object)))
    }

    /// The next line the server writes, or `nil` when none comes within `seconds`.
    func receiveLine(seconds: TimeInterval = 10) -> String? {
        let fd = output.fileHandleForReading.fileDescriptor
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return nil }
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 1, Int32(left * 1000) + 1) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = read(fd, &chunk, chunk.count)
            if n <= 0 { return nil }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }

    /// The next answer as JSON (an object, or an array for a batch).
    func receive(seconds: TimeInterval = 10) throws -> Any {
        let line = try #require(receiveLine(seconds: seconds), "no answer within \(seconds) s")
        return try JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed])
    }

    /// Sends a request with a fresh id and returns its answer (which must carry that id).
    @discardableResult
    func request(_ method: String, _ params: [String: Any]? = nil) throws -> [String: Any] {
        let id = nextID
        nextID += 1
        var message: [String: Any] = ["jsonrpc": "2.0", "id": id, "method": method]
        if let params { message["params"] = params }
        try send(message)
        let answer = try #require(try receive() as? [String: Any])
        #expect(answer["jsonrpc"] as? String == "2.0")
        #expect(answer["id"] as? Int == id, "answer to \(method) carries id \(String(describing: answer["id"]))")
        return answer
    }

    /// `initialize` then `notifications/initialized`, as a client opens a session.
    @discardableResult
    func open(version: String = "2025-06-18") throws -> [String: Any] {
        let answer = try request("initialize", ["protocolVersion": version, "capabilities": [:] as [String: Any],
                                                "clientInfo": ["name": "elbowroom-tests", "version": "1"]])
        try send(["jsonrpc": "2.0", "method": "notifications/initialized"])
        return answer
    }

    /// Closes stdin and waits (bounded) for the server to exit; its status, or `nil` if it did not.
    func close(seconds: TimeInterval = 5) -> Int32? {
        try? input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    var stderrText: String {
        String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self)
    }
}

extension Dictionary where Key == String, Value == Any {
    /// `answer["result"]` as an object.
    var result: [String: Any]? { self["result"] as? [String: Any] }
    /// `answer["error"]["code"]`.
    var errorCode: Int? { (self["error"] as? [String: Any])?["code"] as? Int }
}
