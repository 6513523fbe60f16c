import Foundation
import Testing

/// A real desktop's notification path for one test: a private session bus
/// (`dbus-run-session`), Xvfb and dunst, with `body` (shell) run once dunst owns
/// `org.freedesktop.Notifications`. Afterwards every notification is closed and dunst's
/// history printed: stdout is `history N` and then `dunstctl history`'s JSON.
enum DunstSession {
    static let tools = ["dbus-run-session", "dbus-send", "dunst", "dunstctl", "notify-send", "Xvfb"]
    static var available: Bool {
        tools.allSatisfy { tool in ["/usr/bin/", "/bin/"].contains { FileManager.default.isExecutableFile(atPath: $0 + tool) } }
    }
    static let why: Comment = "needs dbus (dbus-run-session), dunst, libnotify-bin (notify-send) and xvfb installed"

    /// Runs the session in `e`'s sandbox (its files in the sandbox's root); `dunstrc`: dunst's
    /// config file, else its defaults. `nil` when it hung.
    static func run(_ e: EndToEnd, dunstrc: String? = nil, body: String) throws -> EndToEnd.Run? {
        let dir = e.sandbox.root
        let config = dunstrc.map { "-config '\($0)' " } ?? ""
        let script = """
            set -u
            Xvfb -displayfd 3 -nolisten tcp -screen 0 640x480x24 3>'\(dir)/display' 2>/dev/null &
            xvfb=$!
            for i in $(seq 100); do [ -s '\(dir)/display' ] && break; sleep 0.05; done
            export DISPLAY=":$(cat '\(dir)/display')"
            # Foundation's Process starts us with most signals blocked, and the daemons inherit
            # that: they are stopped with SIGKILL, the bus too (or dbus-run-session never ends).
            bus=$(dbus-send --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \\
                org.freedesktop.DBus.GetConnectionUnixProcessID string:org.freedesktop.DBus | awk '/uint32/ { print $2 }')
            dunst \(config)2>'\(dir)/dunst.log' &
            dunst=$!
            # Wait for our daemon without asking the bus to start one of its own.
            for i in $(seq 100); do
                dbus-send --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \\
                    org.freedesktop.DBus.NameHasOwner string:org.freedesktop.Notifications 2>/dev/null \\
                    | grep -q 'boolean true' && break
                sleep 0.05
            done
            \(body)
            sleep 0.5
            dunstctl close-all
            sleep 0.3
            echo "history $(dunstctl count history)"
            dunstctl history
            kill -9 $dunst $xvfb $bus
            """
        try script.write(toFile: dir + "/session.sh", atomically: true, encoding: .utf8)
        return try runBounded("/usr/bin/dbus-run-session", ["--", "/bin/sh", dir + "/session.sh"],
                              environment: e.sandbox.environment, seconds: 30)
    }
}
