import Foundation
import Testing
import HeadroomCore
@testable import HeadroomCLI

/// Collects output in memory.
final class BufferSink: OutputSink, @unchecked Sendable {
    private let lock = NSLock()
    private var storage = ""
    var text: String { lock.withLock { storage } }
    @discardableResult func write(_ text: String) -> Bool { lock.withLock { storage += text }; return true }
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

    func run(path: String, arguments: [String], environment: [String: String], stdin: Data,
             timeout: TimeInterval) throws -> (status: Int32, stdout: Data) {
        (0, Data("reachable (fake)\n".utf8))
    }
}

/// A clock that only moves when told (sleep advances it).
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    init(_ start: Date) { current = start }
    var now: Date { lock.withLock { current } }
    func advance(_ seconds: TimeInterval) { lock.withLock { current = current.addingTimeInterval(seconds) } }
}

/// A temp HOME with XDG dirs and a Claude config dir; nothing touches the real HOME.
final class CLISandbox: @unchecked Sendable {
    let root: String
    let clock = ManualClock(Date(timeIntervalSince1970: 1_795_356_000))
    let stdout = BufferSink()
    let stderr = BufferSink()
    let spawner = RecordingSpawner()
    var extraEnvironment: [String: String] = [:]
    var stdin: Data?

    init() {
        root = NSTemporaryDirectory() + "headroom-cli-" + UUID().uuidString
        for dir in ["home", "config/headroom", "cache", "claude"] {
            try! FileManager.default.createDirectory(atPath: root + "/" + dir, withIntermediateDirectories: true)
        }
    }
    deinit { try? FileManager.default.removeItem(atPath: root) }

    var environment: [String: String] {
        ["HOME": root + "/home", "XDG_CONFIG_HOME": root + "/config", "XDG_CACHE_HOME": root + "/cache",
         "CLAUDE_CONFIG_DIR": root + "/claude", "PATH": "/usr/bin:/bin"].merging(extraEnvironment) { $1 }
    }
    var paths: Paths { Paths(environment: HeadroomEnvironment(environment)) }
    var store: CacheStore { CacheStore(paths: paths) }

    var context: CLIContext {
        let clock = self.clock
        let input = stdin
        return CLIContext(
            environment: HeadroomEnvironment(environment), now: { clock.now }, stdout: stdout, stderr: stderr,
            readStdin: { input }, stdoutIsTTY: false, spawner: spawner, fetcherPath: "/opt/fake/headroom-fetch",
            sleep: { clock.advance($0) })
    }

    @discardableResult
    func run(_ arguments: String...) -> Int32 {
        HeadroomMain.run(arguments, context: context)
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
