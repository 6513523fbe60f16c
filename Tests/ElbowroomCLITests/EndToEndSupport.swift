import Foundation
import ElbowroomCore
import ElbowroomTestSupport
import Testing

/// Runs the built `elbowroom` / `elbowroom-fetch` against a loopback stand-in for Anthropic, in a
/// sandboxed HOME. Reset times are relative to the real clock, since these are real processes.
final class EndToEnd: @unchecked Sendable {
    let sandbox = try! Sandbox()
    let server: LoopbackHTTPServer
    let anthropic = FakeAnthropic(validAccessToken: "sk-ant-oat01-E2E-ACCESS-0123456789",
                                  validRefreshToken: "sk-ant-ort01-E2E-REFRESH-0123456789")
    let elbowroom: String
    let fetcher: String

    init(usage: ServerReply? = nil) throws {
        elbowroom = try #require(BuiltExecutable.path("elbowroom"), "build the package first")
        fetcher = try #require(BuiltExecutable.path("elbowroom-fetch"))
        server = try LoopbackHTTPServer()
        anthropic.configure { $0.usageReply = usage ?? .json(200, Self.usageBody(fiveHour: 63, sevenDay: 41)) }
        server.setHandler(anthropic.handler)
        sandbox.extra = [
            "ELBOWROOM_API_URL": server.baseURL,
            "ELBOWROOM_TOKEN_URL": server.baseURL + FakeAnthropic.tokenPath,
            "ELBOWROOM_FETCH": fetcher,
        ]
        try sandbox.writeCredentials(accessToken: anthropic.validAccessToken, refreshToken: anthropic.validRefreshToken,
                                     expiresAt: Date().addingTimeInterval(8 * 3600))
        // Keep stray background fetchers short-lived.
        try sandbox.writeConfig("timeout = 3\n")
    }

    deinit {
        server.stop()
        sandbox.cleanup()
    }

    /// A usage body whose windows reset in the future of the real clock.
    static func usageBody(fiveHour: Double, sevenDay: Double) -> String {
        let five = ISO8601.format(Date().addingTimeInterval(2 * 3600))
        let seven = ISO8601.format(Date().addingTimeInterval(3 * 86400))
        return #"{"five_hour":{"utilization":\#(fiveHour),"resets_at":"\#(five)"},"seven_day":{"utilization":\#(sevenDay),"resets_at":"\#(seven)"},"seven_day_opus":null}"#
    }

    var usageRequests: Int { server.requests(path: FakeAnthropic.usagePath).count }

    /// A cache with these windows (API key, percent used), each resetting in an hour, whose data
    /// is `age` seconds old.
    func seedCache(windows: [(String, Double)], age: TimeInterval) throws {
        try SeededCache.save(windows, age: age, paths: sandbox.paths)
    }

    /// A cache with the session window alone.
    func seedCache(fiveHour: Double, age: TimeInterval) throws {
        try seedCache(windows: [("five_hour", fiveHour)], age: age)
    }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
        var seconds: TimeInterval
    }

    /// Runs `elbowroom` with `stdin` and waits for it.
    func run(_ arguments: [String], stdin: String? = nil) throws -> Run {
        let started = Date()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: elbowroom)
        process.arguments = arguments
        process.environment = sandbox.environment
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        try process.run()
        if let stdin {
            // (`try?`: a program that has exited already, a usage error reading no stdin, has closed the pipe.)
            try? input.fileHandleForWriting.write(contentsOf: Data(stdin.utf8))
            try input.fileHandleForWriting.close()
        }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                   stderr: String(decoding: stderr, as: UTF8.self), seconds: Date().timeIntervalSince(started))
    }

    /// A shell-quoted `KEY=VALUE …` prefix carrying the sandbox environment into a tmux pane.
    var envPrefix: String {
        sandbox.environment.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quote($0.value))" }.joined(separator: " ")
    }

    static func quote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
