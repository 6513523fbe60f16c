import Foundation
import Testing
import ElbowroomCore
import ElbowroomTestSupport
@testable import ElbowroomCLI

/// Collects output in memory.
final class BufferSink: OutputSink, @unchecked Sendable {
    private let lock = NSLock()
    private var storage = ""
    var text: String { lock.withLock { storage } }
    @discardableResult func write(_ text: String) -> Bool { lock.withLock { storage += text }; return true }
    func clear() { lock.withLock { storage = "" } }
}

/// Records detached spawns instead of starting anything.
final class RecordingSpawner: ProcessSpawner, @unchecked Sendable {
    private let lock = NSLock()
    private var _spawns: [(path: String, arguments: [String], environment: [String: String])] = []
    var onSpawn: (@Sendable () -> Void)?
    var spawns: [(path: String, arguments: [String], environment: [String: String])] { lock.withLock { _spawns } }

    func spawnDetached(path: String, arguments: [String], environment: [String: String]) throws {
        lock.withLock { _spawns.append((path, arguments, environment)) }
        onSpawn?()
    }

    private var _runs: [(path: String, arguments: [String], stdin: Data)] = []
    /// Every `run` call (the notifier's notify-send / notify_command, doctor's probe).
    var runs: [(path: String, arguments: [String], stdin: Data)] { lock.withLock { _runs } }

    func run(path: String, arguments: [String], environment: [String: String], stdin: Data,
             timeout: TimeInterval) throws -> (status: Int32, stdout: Data) {
        lock.withLock { _runs.append((path, arguments, stdin)) }
        return (0, Data("reachable (fake)\n".utf8))
    }
}

/// The in-process harness: a `Sandbox` HOME, a clock that only moves when the command sleeps,
/// sinks for stdout/stderr and a spawner that records instead of starting anything.
final class CLISandbox: @unchecked Sendable {
    let sandbox = try! Sandbox()
    let clock = FixedClock(Date(timeIntervalSince1970: 1_795_356_000))
    let stdout = BufferSink()
    let stderr = BufferSink()
    let spawner = RecordingSpawner()
    var extraEnvironment: [String: String] = [:]
    var stdin: Data?

    deinit { sandbox.cleanup() }

    var environment: [String: String] {
        sandbox.environment.merging(extraEnvironment) { $1 }
    }
    var paths: Paths { Paths(environment: ElbowroomEnvironment(environment)) }
    var store: CacheStore { CacheStore(paths: paths) }

    var context: CLIContext {
        let clock = self.clock
        let input = stdin
        return CLIContext(
            environment: ElbowroomEnvironment(environment), now: { clock.now }, stdout: stdout, stderr: stderr,
            readStdin: { input }, stdoutIsTTY: false, spawner: spawner, fetcher: FetcherProgram(path: "/opt/fake/elbowroom-fetch"),
            sleep: { clock.advance(by: $0) })
    }

    @discardableResult
    func run(_ arguments: String...) -> Int32 {
        ElbowroomMain.run(arguments, context: context)
    }

    func writeConfig(_ text: String) {
        try! text.write(toFile: paths.configFile, atomically: true, encoding: .utf8)
    }

    func saveCache(used: [String: Double], age: TimeInterval, resetIn: TimeInterval = 3600) {
        let now = clock.now
        let observed = now.addingTimeInterval(-age)
        let windows = used.map { UsageWindow(key: $0.key, used: $0.value, resetsAt: now.addingTimeInterval(resetIn), observedAt: observed) }
        var cache = CacheFile(account: store.account, reading: Reading(windows: windows, fetchedAt: observed, source: .api))
        cache.fetch.recordSuccess(at: observed)
        try! store.save(cache)
    }
}
