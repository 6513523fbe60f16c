import Foundation
import ElbowroomCore

/// Polls a condition every 50 ms, up to a limit: tests wait for real processes this way, never
/// with a fixed sleep.
public enum Eventually {
    public static func within(_ seconds: TimeInterval, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(50_000)
        }
        return condition()
    }
}

/// A private tmux server: runs a program in a detached pane and reads the screen back.
public final class TmuxScreen: @unchecked Sendable {
    public let socket = "elbowroom-e2e-\(UUID().uuidString.prefix(8))"
    public static var available: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") }

    /// Runs a tmux command and returns its stdout. Core's spawner waits with waitpid and its
    /// pipes are close-on-exec, so no tmux server inherits a pipe of this test process.
    @discardableResult
    public func tmux(_ arguments: [String]) throws -> String {
        let result = try PosixSpawner().run(path: "/usr/bin/tmux", arguments: ["-L", socket, "-f", "/dev/null"] + arguments,
                                            environment: Self.environment, stdin: Data(), timeout: 10)
        return String(decoding: result.stdout, as: UTF8.self)
    }

    public static var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "TMUX")
        env["TERM"] = "xterm-256color"
        return env
    }

    /// Starts the server with `command` in its one pane. Started detached (stdio on /dev/null,
    /// every other descriptor closed): the daemon would otherwise hold any pipe it inherited.
    public func start(_ command: String, width: Int = 100, height: Int = 10) throws {
        try PosixSpawner().spawnDetached(
            path: "/usr/bin/tmux",
            arguments: ["-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", "\(width)", "-y", "\(height)", command],
            environment: Self.environment)
        guard Eventually.within(5, { (try? tmux(["list-panes", "-t", "t"]))?.isEmpty == false }) else {
            throw Sandbox.Failure(description: "tmux did not start")
        }
    }

    public func screen(escapes: Bool = false) throws -> String {
        try tmux(["capture-pane", "-p", "-t", "t"] + (escapes ? ["-e"] : []))
    }

    public func keys(_ keys: String...) throws {
        try tmux(["send-keys", "-t", "t"] + keys)
    }

    public func cursorX() throws -> Int {
        Int(try tmux(["display-message", "-p", "-t", "t", "#{cursor_x}"]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// Waits until the screen contains `text`.
    public func waitFor(_ text: String, seconds: TimeInterval = 8) -> Bool {
        Eventually.within(seconds) { ((try? screen()) ?? "").contains(text) }
    }

    public init() {}

    deinit { _ = try? tmux(["kill-server"]) }
}
