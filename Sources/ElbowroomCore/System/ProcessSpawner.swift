#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// Starts a process: detached (the renderer's background fetch) or waited for.
public protocol ProcessSpawner: Sendable {
    /// Starts `path` in its own session with stdio on /dev/null and returns without waiting.
    func spawnDetached(path: String, arguments: [String], environment: [String: String]) throws
    /// The same, with what `environment` hands a child (secrets removed: `forChild`). The render
    /// path's form: `PosixSpawner` hands on the live environment without a `String` made of it.
    func spawnDetached(path: String, arguments: [String], childOf environment: ElbowroomEnvironment) throws
    /// Runs `path` with the given stdin, waits, and returns its exit status and stdout.
    func run(path: String, arguments: [String], environment: [String: String], stdin: Data,
             timeout: TimeInterval) throws -> (status: Int32, stdout: Data)
    /// The same, with the child's stderr collected too (into `output`, after or among stdout):
    /// what a notifier said when it failed.
    func runCollectingErrors(path: String, arguments: [String], environment: [String: String], stdin: Data,
                             timeout: TimeInterval) throws -> (status: Int32, output: Data)
}

extension ProcessSpawner {
    /// By default, stdout alone (a spawner that cannot collect stderr).
    public func runCollectingErrors(path: String, arguments: [String], environment: [String: String], stdin: Data,
                                    timeout: TimeInterval) throws -> (status: Int32, output: Data) {
        let result = try run(path: path, arguments: arguments, environment: environment, stdin: stdin, timeout: timeout)
        return (result.status, result.stdout)
    }

    /// By default, through the dictionary form.
    public func spawnDetached(path: String, arguments: [String], childOf environment: ElbowroomEnvironment) throws {
        try spawnDetached(path: path, arguments: arguments, environment: environment.forChild)
    }
}
