import Foundation
import ElbowroomCore

/// A private D-Bus session bus for one test: a real `dbus-daemon` (Debian `dbus`) on a socket
/// in a temporary directory, stopped when the test lets go of it. Nothing of the machine's own
/// session bus is touched.
public final class PrivateBus: @unchecked Sendable {
    /// `unix:path=…` (or `unix:abstract=…`), for `DBUS_SESSION_BUS_ADDRESS`.
    public let address: String
    public let pid: pid_t
    public let directory: String

    public static let daemon = "/usr/bin/dbus-daemon"
    public static var available: Bool { FileManager.default.isExecutableFile(atPath: daemon) }

    /// - Parameter abstract: listen on an abstract socket (`unix:abstract=`) instead of a path.
    /// - Parameter runAs: a prefix that runs the daemon as another user (`setpriv …`); the
    ///   bus then admits that user only.
    /// - Parameter activation: the system's session services may be started on demand (a host
    ///   such as xfce4-panel needs xfconfd).
    public init(abstract: Bool = false, runAs: [String] = [], activation: Bool = false) throws {
        let template = NSTemporaryDirectory() + "/elbowroom-bus-XXXXXX"
        var bytes = Array(template.utf8CString)
        guard let made = mkdtemp(&bytes) else { throw Sandbox.Failure(description: "mkdtemp failed") }
        directory = String(cString: made)
        let listen = abstract ? "unix:abstract=\(directory)/bus" : "unix:path=\(directory)/bus"
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>\(listen)</listen>
              <auth>EXTERNAL</auth>\(activation ? "\n  <standard_session_servicedirs/>" : "")
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """
        try config.write(toFile: directory + "/bus.conf", atomically: true, encoding: .utf8)
        if !runAs.isEmpty {
            chmod(directory, 0o755)
            _ = try BuiltExecutable.run("/bin/chown", arguments: ["-R", "nobody:nogroup", directory], environment: [:])
        }
        // Through a file, not a pipe: the daemon keeps its stdout, and a pipe would never end.
        let out = directory + "/address"
        // posix_spawn and waitpid, not Foundation's Process: the daemon forks away, and Process
        // was seen to leave that first child a zombie and wait on it for ever.
        let run = try PosixSpawner().run(
            path: runAs.first ?? "/bin/sh",
            arguments: Array(runAs.dropFirst()) + (runAs.isEmpty ? [] : ["/bin/sh"]) + [
                "-c", "exec \"$0\" --config-file=\"$1\" --fork --print-address=1 --print-pid=1 --nopidfile >\"$2\" 2>&1 </dev/null",
                Self.daemon, directory + "/bus.conf", out,
            ],
            environment: ["PATH": "/usr/bin:/bin"], stdin: Data(), timeout: 10)
        let printed = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        let lines = printed.split(separator: "\n").map(String.init)
        guard run.status == 0, lines.count >= 2, let pid = pid_t(lines[1]) else {
            throw Sandbox.Failure(description: "dbus-daemon did not start: \(printed)")
        }
        address = lines[0]
        self.pid = pid
    }

    deinit {
        kill(pid, SIGKILL)
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// `environment` with this bus as the session bus.
    public func environment(_ environment: [String: String]) -> [String: String] {
        var env = environment
        env["DBUS_SESSION_BUS_ADDRESS"] = address
        return env
    }
}
