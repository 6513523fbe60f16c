import Foundation
import Testing
@testable import ElbowroomCore

/// `PosixSpawner.run`'s timeout covers the child's whole life, not just its stdout.
@Suite struct SpawnerTimeoutTests {
    static func script(_ body: String, in dir: TempDirectory) throws -> String {
        let path = dir.path + "/child"
        try FileSystem.writeAtomically(Data("#!/bin/sh\n\(body)\n".utf8), to: path, mode: 0o755)
        return path
    }

    /// Whether `pid` is gone (or a zombie nobody reaped yet: dead all the same).
    static func isDead(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
        return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
    }

    /// A child gets stdin, stdout and stderr and no other descriptor of ours, even one opened
    /// without `O_CLOEXEC` (a plugin or helper must not hold the fetcher's files; a file being
    /// written that a child holds open could not be run).
    @Test func aChildInheritsNoDescriptorButItsStdio() throws {
        let dir = TempDirectory()
        let leaked = open(dir.path + "/open-for-writing", O_WRONLY | O_CREAT, 0o600)  // no O_CLOEXEC
        #expect(leaked > 2)
        defer { close(leaked) }
        let path = try Self.script("cd /proc/self/fd && for fd in *; do [ -e \"$fd\" ] && readlink \"$fd\" | grep -q open-for-writing && echo \"leaked $fd\"; done; echo done", in: dir)
        let result = try PosixSpawner().run(path: path, arguments: [], environment: [:], stdin: Data(), timeout: 10)
        #expect(String(decoding: result.stdout, as: UTF8.self) == "done\n")
    }

    @Test func aChildThatClosesStdoutAndLingersIsKilledWithItsGroupAtTheDeadline() throws {
        let dir = TempDirectory()
        let pidFile = dir.path + "/pids"
        // The shell closes stdout at once, then waits on a child of its own.
        let path = try Self.script("exec >&-; sleep 10 & echo \"$$ $!\" > \(pidFile); wait", in: dir)
        let started = Date()
        #expect(throws: PosixSpawner.TimedOut.self) {
            _ = try PosixSpawner().run(path: path, arguments: [], environment: [:], stdin: Data("x".utf8), timeout: 1)
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed >= 1 && elapsed < 2.5, "\(elapsed)")
        let pids = try String(contentsOfFile: pidFile, encoding: .utf8).split(whereSeparator: \.isWhitespace).compactMap { Int32($0) }
        #expect(pids.count == 2)
        for pid in pids {
            var dead = false
            for _ in 0..<100 where !dead {
                dead = Self.isDead(pid)
                if !dead { usleep(10_000) }
            }
            #expect(dead, "pid \(pid) still running")
        }
    }

    @Test func aChildThatExitsRightAfterClosingStdoutIsNotAtimeout() throws {
        let dir = TempDirectory()
        let path = try Self.script("echo hello; exec >&-; sleep 0.2; exit 3", in: dir)
        let result = try PosixSpawner().run(path: path, arguments: [], environment: [:], stdin: Data(), timeout: 2)
        #expect(result.status == 3)
        #expect(String(decoding: result.stdout, as: UTF8.self) == "hello\n")
    }

    @Test func theTimeoutSaysWhatTookTooLong() {
        #expect(PosixSpawner.TimedOut(path: "/p", seconds: 2).description == "/p did not finish within 2s")
        #expect(PosixSpawner.TimedOut(path: "/p", seconds: 0.5).limit == "0.5s")
    }
}
