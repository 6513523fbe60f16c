import Foundation
import Testing
import ElbowroomCore
import ElbowroomTestSupport
@testable import ElbowroomCLI

/// `doctor` names a Claude Code refresh lock nothing can take over, and FAILs on it.
@Suite struct StuckLockDoctorTests {
    @Test func doctorFailsOnAStuckLockNamingItsPath() throws {
        let s = CLISandbox()
        try s.sandbox.writeCredentials(accessToken: "sk-ant-oat01-x", refreshToken: "sk-ant-ort01-y", expiresAt: Date().addingTimeInterval(-60))
        let storage = ClaudeCodeStorage(environment: ElbowroomEnvironment(s.environment))
        try Data("left here\n".utf8).write(to: URL(fileURLWithPath: storage.refreshLock))
        var old = [timespec(tv_sec: Int(s.clock.now.timeIntervalSince1970) - 300, tv_nsec: 0),
                   timespec(tv_sec: Int(s.clock.now.timeIntervalSince1970) - 300, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, storage.refreshLock, &old, 0) == 0)
        #expect(s.run("doctor") == 1)
        let line = s.stdout.text.split(separator: "\n").first { $0.contains("claude code lock:") }.map(String.init) ?? ""
        #expect(line.hasPrefix("FAIL claude code lock: \(storage.refreshLock) stuck, last touched 300s ago: stale, but it is a file"), "\(s.stdout.text)")
        #expect(line.contains("rm -r '\(storage.refreshLock)'"))
    }
}
