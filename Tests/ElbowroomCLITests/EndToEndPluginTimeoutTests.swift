import Foundation
import ElbowroomCore
import ElbowroomTestSupport
import Testing

/// A plugin's 2 s limit covers its whole life: one that closes its stdout and lingers used to
/// blank the output with exit 0 for as long as it liked.
@Suite struct EndToEndPluginTimeoutTests {
    @Test func aPluginThatClosesItsStdoutGetsTheVisibleErrorWithinTheLimitAndIsKilled() throws {
        let e = try EndToEnd()
        try e.seedCache(fiveHour: 37, age: 5)
        let pidFile = e.sandbox.root + "/plugin.pid"
        let dir = e.sandbox.configHome + "/elbowroom/adapters"
        try FileSystem.makeDirectory(dir, mode: 0o755)
        try FileSystem.writeAtomically(Data("#!/bin/sh\necho $$ > \(pidFile)\nexec >&-\nexec sleep 10\n".utf8),
                                       to: dir + "/elbowroom-adapter-closer", mode: 0o755)
        let run = try e.runBounded(["-a", "closer"], seconds: 8)
        #expect(!run.timedOut)
        #expect(run.seconds >= 2 && run.seconds < 4.5, "\(run.seconds)")
        #expect(run.stdout == "⚠ elbowroom: plugin closer did not finish within 2s\n")
        #expect(run.status == 2)
        let pid = try #require(Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(Eventually.within(1) {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
            return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
        }, "the plugin is still running")
    }
}
