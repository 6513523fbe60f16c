import Foundation
import Testing
import ElbowroomTestSupport

/// A running `elbowroom serve --listen 127.0.0.1:0` and the port it took.
final class ServeProcess: @unchecked Sendable {
    let process = Process()
    let port: UInt16
    private let errors = Pipe()
    private(set) var stderrSoFar = ""

    init(elbowroom: String, environment: [String: String], arguments: [String] = [], listen: String = "127.0.0.1:0") throws {
        process.executableURL = URL(fileURLWithPath: elbowroom)
        process.arguments = ["serve", "--listen", listen] + arguments
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        var port: UInt16 = 0
        let deadline = Date().addingTimeInterval(10)
        while port == 0 && Date() < deadline {
            let data = errors.fileHandleForReading.availableData
            if data.isEmpty { break }
            stderrSoFar += String(decoding: data, as: UTF8.self)
            if let range = stderrSoFar.range(of: #"listening on http://[^ ]*:(\d+)/"#, options: .regularExpression) {
                let text = stderrSoFar[range].dropLast()
                port = UInt16(text[text.index(after: text.lastIndex(of: ":")!)...]) ?? 0
            }
        }
        self.port = port
        if port == 0 { process.terminate() }
        try #require(port != 0, "serve did not say where it listens: \(stderrSoFar)")
    }

    /// Sends SIGTERM and waits (bounded); the exit status, or nil when it did not stop.
    func stop(within seconds: TimeInterval = 5) -> (status: Int32, stderr: String)? {
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        guard !process.isRunning else {
            kill(process.processIdentifier, SIGKILL)
            return nil
        }
        let rest = errors.fileHandleForReading.readDataToEndOfFile()
        return (process.terminationStatus, stderrSoFar + String(decoding: rest, as: UTF8.self))
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
    }
}

/// Plain blocking sockets to loopback: what a scraper, a slow client or a broken one sends.
enum RawHTTP {
    struct Failure: Error, CustomStringConvertible { var description: String }

    static func connect(port: UInt16, receiveTimeout: TimeInterval = 5) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket") }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let ok = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard ok == 0 else { close(fd); throw Failure(description: "connect: \(String(cString: strerror(errno)))") }
        var tv = timeval(tv_sec: Int(receiveTimeout), tv_usec: Int((receiveTimeout - receiveTimeout.rounded(.down)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    static func send(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads until the peer closes (or the receive timeout passes: then `timedOut`).
    static func readAll(_ fd: Int32) -> (text: String, timedOut: Bool) {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n > 0 { out += buffer[0..<n]; continue }
            return (String(decoding: out, as: UTF8.self), n < 0)
        }
    }

    /// One request on its own connection (`Connection: close`): status line, headers and body.
    static func request(port: UInt16, _ raw: String) throws -> (status: Int, head: String, body: String) {
        let fd = try connect(port: port)
        defer { close(fd) }
        send(fd, raw)
        let (text, _) = readAll(fd)
        let parts = text.components(separatedBy: "\r\n\r\n")
        let status = Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0
        return (status, parts[0], parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    static func get(port: UInt16, _ path: String) throws -> (status: Int, head: String, body: String) {
        try request(port: port, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    }
}
