import Foundation
import Testing
import ElbowroomCore
import ElbowroomTestSupport
@testable import ElbowroomCLI

/// `serve --listen unix:/PATH`: a socket only its owner can connect to, for a shared machine.
@Suite(.serialized) struct ServeUnixSocketTests {
    static func request(_ path: String, _ raw: String) throws -> String {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #expect(fd >= 0)
        defer { close(fd) }
        let address = ListenAddress(host: "localhost", port: 0, isIPv6: false, unixPath: path)
        let ok = address.withSockaddr { connect(fd, $0, $1) } ?? -1
        try #require(ok == 0, "connect: \(String(cString: strerror(errno)))")
        RawHTTP.send(fd, raw)
        return RawHTTP.readAll(fd).text
    }

    @Test func itAnswersOnASocketOnlyItsOwnerCanOpenAndRemovesItWhenItStops() throws {
        let e = try EndToEnd()
        try e.seedCache(fiveHour: 63, age: 5)
        let path = e.sandbox.root + "/serve.sock"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: e.elbowroom)
        process.arguments = ["serve", "--offline", "--listen", "unix:" + path]
        process.environment = e.sandbox.environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate(); process.waitUntilExit() } }
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: path) && Date() < deadline { usleep(20_000) }
        var info = stat()
        try #require(lstat(path, &info) == 0, "no socket at \(path)")
        #expect(info.st_mode & S_IFMT == S_IFSOCK)
        #expect(info.st_mode & 0o777 == 0o600, "mode \(String(info.st_mode & 0o777, radix: 8))")
        let answer = try Self.request(path, "GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        #expect(answer.hasPrefix("HTTP/1.1 200 OK") && answer.contains("elbowroom_window_left_percent{window=\"five_hour\"} 37"), "\(answer)")
        let rebound = try Self.request(path, "GET /metrics HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
        #expect(rebound.hasPrefix("HTTP/1.1 421"), "the Host rule holds here too")
        // A second serve on the same path is refused: the first is live.
        let second = try e.run(["serve", "--offline", "--listen", "unix:" + path])
        #expect(second.status == 1 && second.stderr.contains("another server is listening there"), "\(second.stderr)")
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: path), "the socket is removed when serve stops")
        // Something else at the path is never removed.
        try "mine\n".write(toFile: path, atomically: false, encoding: .utf8)
        let refused = try e.run(["serve", "--offline", "--listen", "unix:" + path])
        #expect(refused.status == 1 && refused.stderr.contains("something else is there"), "\(refused.stderr)")
        #expect((try? String(contentsOfFile: path, encoding: .utf8)) == "mine\n")
        let _ = errors
    }

    @Test func aUnixPathMustBeAbsoluteAndFit() throws {
        #expect(try ListenAddress.parse("unix:/run/user/1000/elbowroom.sock").unixPath == "/run/user/1000/elbowroom.sock")
        #expect(try ListenAddress.parse("unix:/x.sock").isLoopback)
        for bad in ["unix:relative.sock", "unix:", "unix:/" + String(repeating: "a", count: 200)] {
            #expect(throws: UsageError.self, "\(bad)") { try ListenAddress.parse(bad) }
        }
    }
}
