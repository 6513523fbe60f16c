import Foundation
import Testing
@testable import ElbowroomCore

/// A detached start (the renderer's background fetch) returns without waiting for the child's
/// exec, and the child starts clean: its own session, stdio on /dev/null, no other descriptor of
/// ours, no blocked or ignored signal, the environment it was given.
@Suite struct DetachedSpawnTests {
    @Test func theDetachedChildStartsClean() throws {
        let dir = TempDirectory()
        let report = dir.path + "/report"
        // A descriptor of ours without close-on-exec: the child must not get it.
        let leaked = open(dir.path, O_RDONLY)
        defer { close(leaked) }
        #expect(leaked > 2)
        // An ignored and a blocked signal here (SIGURG: ignored by default anyway, so harmless
        // to the other tests; the mask is this thread's): the child must have neither.
        let previous = signal(SIGURG, SIG_IGN)
        defer { signal(SIGURG, previous) }
        var urg = sigset_t()
        sigemptyset(&urg)
        sigaddset(&urg, SIGURG)
        var oldMask = sigset_t()
        pthread_sigmask(SIG_BLOCK, &urg, &oldMask)
        defer { pthread_sigmask(SIG_SETMASK, &oldMask, nil) }
        // Read before any redirection of the shell's own (command substitutions leave 0–2 alone).
        let script = """
            io="$(readlink /proc/$$/fd/0) $(readlink /proc/$$/fd/1) $(readlink /proc/$$/fd/2)"
            fds="$(ls /proc/$$/fd | tr '\\n' ' ')"
            sid="$(cut -d' ' -f6 /proc/$$/stat)"
            blk="$(grep '^SigBlk:' /proc/$$/status | cut -f2)"
            ign="$(grep '^SigIgn:' /proc/$$/status | cut -f2)"
            printf 'pid=%s\\nsid=%s\\nfds=%s\\nio=%s\\nblk=%s\\nign=%s\\nenv=%s\\n' "$$" "$sid" "$fds" "$io" "$blk" "$ign" "$ELBOWROOM_TEST_VALUE" > '\(report).tmp'
            mv '\(report).tmp' '\(report)'
            """
        try PosixSpawner().spawnDetached(path: "/bin/sh", arguments: ["-c", script],
                                         environmentEntries: ["ELBOWROOM_TEST_VALUE=a=b", "PATH=/usr/bin:/bin"])
        var waited = 0
        while !FileManager.default.fileExists(atPath: report) && waited < 500 {
            usleep(10_000)
            waited += 1
        }
        let lines = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n").map(String.init)
        func value(_ key: String) -> String { lines.first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) } ?? "?" }
        #expect(value("sid") == value("pid"), "a session of its own: \(lines)")
        #expect(!value("fds").split(separator: " ").contains { Int32($0) == leaked }, "inherited descriptor \(leaked): \(lines)")
        #expect(value("io") == "/dev/null /dev/null /dev/null")
        #expect(value("blk") == "0000000000000000")
        // Nothing ignored but glibc's own two real-time signals (32, 33), which no program sees.
        let ignored = UInt64(value("ign"), radix: 16) ?? .max
        #expect(ignored & ~UInt64(0x1_8000_0000) == 0, "ignored signals \(value("ign"))")
        #expect(value("env") == "a=b")
        PosixSpawner.reapFinishedChildren()
    }
}
