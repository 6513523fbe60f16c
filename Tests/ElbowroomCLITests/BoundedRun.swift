import Foundation
import ElbowroomTestSupport

/// One run of a built executable that was not allowed to hang.
struct BoundedRun {
    var status: Int32
    var stdout: String
    var stderr: String
    var seconds: TimeInterval
    /// Killed at the deadline.
    var timedOut: Bool
    /// Ended by a signal it did not ask for (a trap, a crash), not by `exit`.
    var crashed: Bool
}

extension BoundedRun {
    /// Runs `executable` with exactly `environment`, and kills it if it has not exited after
    /// `seconds`, so a regression that hangs fails the test instead of hanging the suite.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String],
                    seconds: TimeInterval, directory: String? = nil, stdin: String? = nil) throws -> BoundedRun {
        let started = Date()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        try process.run()
        if let stdin {
            // (`try?`: a program that has exited already, a usage error reading no stdin, has closed the pipe.)
            try? input.fileHandleForWriting.write(contentsOf: Data(stdin.utf8))
            try? input.fileHandleForWriting.close()
        }
        let exited = Eventually.within(seconds) { !process.isRunning }
        if !exited { kill(process.processIdentifier, SIGKILL) }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return BoundedRun(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                          stderr: String(decoding: stderr, as: UTF8.self), seconds: Date().timeIntervalSince(started),
                          timedOut: !exited, crashed: exited && process.terminationReason == .uncaughtSignal)
    }
}

extension EndToEnd {
    /// Runs the built `elbowroom` (or `executable`), bounded (`BoundedRun.run`).
    func runBounded(_ arguments: [String], seconds: TimeInterval = 5, environment: [String: String]? = nil,
                    directory: String? = nil, executable: String? = nil, stdin: String? = nil) throws -> BoundedRun {
        try BoundedRun.run(executable ?? elbowroom, arguments, environment: environment ?? sandbox.environment,
                           seconds: seconds, directory: directory, stdin: stdin)
    }
}

/// A process run with a deadline: `nil` when it had to be killed (something blocked it). Output
/// goes to files, not pipes, so a grandchild left running (a daemon the child started) cannot
/// keep the test waiting for end-of-file.
func runBounded(_ path: String, _ arguments: [String], environment: [String: String], stdin: String? = nil,
                seconds: TimeInterval) throws -> EndToEnd.Run? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.environment = environment
    let base = NSTemporaryDirectory() + "/elbowroom-run-\(UUID().uuidString)"
    let outPath = base + ".out", errPath = base + ".err"
    defer { unlink(outPath); unlink(errPath) }
    _ = FileManager.default.createFile(atPath: outPath, contents: nil)
    _ = FileManager.default.createFile(atPath: errPath, contents: nil)
    let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
    let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
    let input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = stdin == nil ? FileHandle.nullDevice : input
    let started = Date()
    try process.run()
    try out.close()
    try err.close()
    if let stdin {
        // (`try?`: a program that has exited already, a usage error reading no stdin, has closed the pipe.)
        try? input.fileHandleForWriting.write(contentsOf: Data(stdin.utf8))
        try input.fileHandleForWriting.close()
    }
    guard Eventually.within(seconds, { !process.isRunning }) else {
        process.terminate()
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return nil
    }
    process.waitUntilExit()
    return EndToEnd.Run(status: process.terminationStatus,
                        stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
                        stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "",
                        seconds: Date().timeIntervalSince(started))
}
