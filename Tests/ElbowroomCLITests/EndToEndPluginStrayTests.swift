import Foundation
import Testing
import ElbowroomCore
import ElbowroomTestSupport

/// A source plugin's daemonised descendant (double fork, `setsid`, stdout closed) ends with the
/// plugin: the real fetcher is a subreaper and ends what the plugin left, on success and on
/// timeout alike.
@Suite(.serialized) struct EndToEndPluginStrayTests {
    static let hasSetsid = FileManager.default.isExecutableFile(atPath: "/usr/bin/setsid")

    static func plugin(then: String) -> String {
        """
        #!/bin/sh
        # A daemon: the subshell forks and exits (double fork), setsid leaves the process group.
        ( setsid sh -c 'echo $$ > "$HOME/daemon.pid"; exec sleep 300' </dev/null >/dev/null 2>&1 & )
        i=0; while [ ! -s "$HOME/daemon.pid" ] && [ $i -lt 100 ]; do sleep 0.02; i=$((i+1)); done
        \(then)
        """
    }

    static func alive(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        // A zombie is dead: only its record is left.
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        return !(stat.split(separator: ")").last?.trimmingCharacters(in: .whitespaces).hasPrefix("Z") ?? false)
    }

    @Test(.enabled(if: hasSetsid, "needs setsid (util-linux)"), arguments: ["finishes", "times out"])
    func aDaemonThePluginLeavesIsEnded(_ how: String) throws {
        let e = try EndToEnd()
        let sources = e.sandbox.configHome + "/elbowroom/sources"
        try FileManager.default.createDirectory(atPath: sources, withIntermediateDirectories: true)
        let then = how == "finishes" ? #"echo '{"version":1,"windows":[{"key":"5h","used":10}]}'"# : "sleep 30"
        try FileSystem.writeAtomically(Data(Self.plugin(then: then).utf8), to: sources + "/elbowroom-source-gem", mode: 0o755)
        try e.sandbox.writeConfig("timeout = 2\n[accounts.gem]\nprovider = \"plugin:gem\"\n")
        let pidFile = e.sandbox.home + "/daemon.pid"
        var daemon: pid_t = 0
        defer { if daemon > 0 { kill(daemon, SIGKILL) } }
        // Through PosixSpawner (waitpid, a deadline), not Foundation's Process: a daemon that
        // outlived its plugin holds the descriptor by which Process learns of an exit, so the
        // test would hang instead of failing.
        var status: Int32 = -1
        do {
            status = try PosixSpawner().run(path: e.elbowroom, arguments: ["fetch", "--account", "gem"],
                                            environment: e.sandbox.environment, stdin: Data(), timeout: 15).status
        } catch {
            Issue.record("fetch did not end: \(error)")
        }
        let run = (status: status, stderr: "")
        let text = (try? String(contentsOfFile: pidFile, encoding: .utf8)) ?? ""
        daemon = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(daemon > 0, "the plugin's daemon did not start: \(run.stderr)")
        #expect(how == "finishes" ? run.status == 0 : run.status != 0, "\(run.stderr)")
        let deadline = Date().addingTimeInterval(3)
        while daemon > 0 && Self.alive(daemon) && Date() < deadline { usleep(20_000) }
        #expect(daemon > 0 && !Self.alive(daemon), "the plugin's daemon (pid \(daemon)) outlived it (\(how))")
    }
}
