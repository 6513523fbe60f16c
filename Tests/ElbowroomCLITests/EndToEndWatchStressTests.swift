import Foundation
import ElbowroomCore
import ElbowroomTestSupport
import Testing

/// `elbowroom watch` under what bars and desktops do to it: signal storms, stdin or stdout
/// closed, a bar that stops reading. No crash, no spin (CPU time is read from /proc), no fetch
/// per signal, and it exits when it should.
@Suite struct EndToEndWatchStressTests {
    /// A template that changes every second (`{age}`), so a live watch keeps printing.
    static let arguments = ["watch", "-a", "i3bar", "--interval", "0.2", "-t", "{5h.left}% {age}"]

    /// Seconds of CPU (user + system) `pid` has used, from /proc.
    static func cpuSeconds(_ pid: Int32) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let fields = stat.split(separator: ")").last?.split(separator: " "),
              fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return .infinity }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Starts `watch` through `/bin/sh` so the test can hand it closed descriptors (`<&-`,
    /// `>&-`); `exec` keeps the pid.
    static func start(_ e: EndToEnd, redirections: String = "", stdin: FileHandle?, stdout: FileHandle?) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec \"$0\" \"$@\" \(redirections)", e.elbowroom] + arguments
        process.environment = e.sandbox.environment
        process.standardInput = stdin ?? FileHandle.nullDevice
        process.standardOutput = stdout ?? FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Reads a pipe in the background, line by line.
    final class Reader: @unchecked Sendable {
        let pipe = Pipe()
        private let lock = NSLock()
        private var buffer = ""
        init() {
            pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                guard let self, !data.isEmpty else { return }
                self.lock.withLock { self.buffer += String(decoding: data, as: UTF8.self) }
            }
        }
        var text: String { lock.withLock { buffer } }
        var lineCount: Int { text.filter { $0 == "\n" }.count }
        func stop() { pipe.fileHandleForReading.readabilityHandler = nil }
    }

    static func exitStatus(_ process: Process, within seconds: TimeInterval) -> Int32? {
        Eventually.within(seconds) { !process.isRunning } ? process.terminationStatus : nil
    }

    @Test func aSignalStormMakesAtMostTwoFetchesAndNoSpin() throws {
        let e = try EndToEnd()
        try e.seedCache(fiveHour: 37, age: 5)  // fresh: only the signals ask for fetches
        let reader = Reader()
        defer { reader.stop() }
        let watch = try Self.start(e, stdin: nil, stdout: reader.pipe.fileHandleForWriting)
        defer { if watch.isRunning { watch.terminate() } }
        let pid = watch.processIdentifier
        #expect(Eventually.within(5) { reader.lineCount >= 3 })
        let cpuBefore = Self.cpuSeconds(pid)
        for i in 0..<500 {
            kill(pid, SIGUSR1)
            if i % 3 == 0 { kill(pid, SIGUSR2) }  // i3bar's stop signal ...
            if i % 3 == 1 { kill(pid, SIGCONT) }  // ... and its continue signal
            usleep(1000)
        }
        kill(pid, SIGCONT)
        // The first request fetches at once; the other 499 collapse into one, 5 s later.
        #expect(Eventually.within(5) { e.usageRequests == 1 })
        #expect(Eventually.within(8) { e.usageRequests == 2 })
        usleep(1_000_000)
        #expect(e.usageRequests == 2)
        // Still printing: the age moves every second.
        let lines = reader.lineCount
        #expect(Eventually.within(3) { reader.lineCount > lines + 1 })
        let cpu = Self.cpuSeconds(pid) - cpuBefore
        #expect(cpu < 1.5, "watch used \(cpu) s of CPU in ~10 s")
        kill(pid, SIGTERM)
        #expect(Self.exitStatus(watch, within: 3) == 0)
    }

    @Test(arguments: ["<&-", "stdin at end of file"])
    func aClosedStdinKeepsItGoing(redirection: String) throws {
        let e = try EndToEnd()
        try e.seedCache(fiveHour: 37, age: 5)
        let reader = Reader()
        defer { reader.stop() }
        let input = Pipe()
        try input.fileHandleForWriting.close()
        let watch = try Self.start(e, redirections: redirection.hasPrefix("<") ? redirection : "",
                                   stdin: input.fileHandleForReading, stdout: reader.pipe.fileHandleForWriting)
        defer { if watch.isRunning { watch.terminate() } }
        #expect(Eventually.within(5) { reader.lineCount >= 3 })
        let cpuBefore = Self.cpuSeconds(watch.processIdentifier)
        let lines = reader.lineCount
        #expect(Eventually.within(4) { reader.lineCount >= lines + 2 }, "no new line: \(reader.text)")
        #expect(watch.isRunning)
        #expect(Self.cpuSeconds(watch.processIdentifier) - cpuBefore < 0.5)
        kill(watch.processIdentifier, SIGTERM)
        #expect(Self.exitStatus(watch, within: 3) == 0)
    }

    @Test func aClosedStdoutEndsItAtOnce() throws {
        let e = try EndToEnd()
        try e.seedCache(fiveHour: 37, age: 5)
        let watch = try Self.start(e, redirections: ">&-", stdin: nil, stdout: nil)
        defer { if watch.isRunning { watch.terminate() } }
        #expect(Self.exitStatus(watch, within: 3) == 0)
        // Nothing it opened took descriptor 1's place: the cache is as it was.
        #expect(CacheStore(paths: e.sandbox.paths).load()?.reading?.window(key: "five_hour")?.used == 37)
    }

    /// A bar that stops reading: the pipe fills — before the header, or mid-stream. Blocking or
    /// not (some bars set O_NONBLOCK on their end), watch waits without spinning, still ends on
    /// SIGTERM, and never writes half a line: once the bar reads again, whole frames follow.
    @Test(arguments: [(true, false), (false, false), (false, true)])
    func aBarThatStopsReadingIsWaitedForWithoutSpinning(fillBeforeStart: Bool, nonBlocking: Bool) throws {
        let e = try EndToEnd()
        try e.seedCache(fiveHour: 37, age: 5)
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        var received = [UInt8]()
        func drain(untilLines count: Int) {
            var chunk = [UInt8](repeating: 0, count: 65536)
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline && received.filter({ $0 == UInt8(ascii: "\n") }).count < count {
                let n = read(fds[0], &chunk, chunk.count)
                if n > 0 { received += chunk[0..<n] } else { usleep(20_000) }
            }
        }
        /// Fills the pipe with 0x01 bytes (they appear in no frame), through our copy of the
        /// write end — the same open file, so O_NONBLOCK set here is set for watch too.
        func fill() -> Int {
            _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
            let filler = [UInt8](repeating: 1, count: 4096)
            var filled = 0
            while true {
                let n = write(fds[1], filler, filler.count)
                if n <= 0 { break }
                filled += n
            }
            if !nonBlocking { _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) & ~O_NONBLOCK) }
            return filled
        }
        if fillBeforeStart { #expect(fill() >= 4096) }
        let watch = try Self.start(e, stdin: nil, stdout: FileHandle(fileDescriptor: fds[1], closeOnDealloc: false))
        defer { if watch.isRunning { watch.terminate() } }
        let pid = watch.processIdentifier
        if !fillBeforeStart {
            drain(untilLines: 3)
            #expect(fill() >= 4096)
        }
        usleep(500_000)
        let cpuBefore = Self.cpuSeconds(pid)
        for _ in 0..<50 { kill(pid, SIGUSR1); usleep(2000) }
        usleep(2_000_000)
        #expect(watch.isRunning, "a full pipe is not a reader that went away")
        let cpu = Self.cpuSeconds(pid) - cpuBefore
        #expect(cpu < 0.5, "watch used \(cpu) s of CPU while the pipe was full")

        // The bar reads again: whole lines follow (the age moved on meanwhile).
        let before = received.filter { $0 == UInt8(ascii: "\n") }.count
        drain(untilLines: max(before + 2, 4))
        let text = String(decoding: received.filter { $0 != 1 }, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count >= 4, "\(text)")
        #expect(lines.first == #"{"version":1,"click_events":true,"stop_signal":12,"cont_signal":18}"#)
        #expect(lines.dropFirst(2).dropLast().allSatisfy { $0.hasPrefix("[{") && $0.hasSuffix("}],") }, "\(text)")

        // And SIGTERM ends it while the pipe is full again (after the age moved: a frame waits).
        _ = fill()
        usleep(1_500_000)
        kill(pid, SIGTERM)
        #expect(Self.exitStatus(watch, within: 3) == 0)
    }
}
