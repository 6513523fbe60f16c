#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ElbowroomCore

/// Answers "is Claude Code running?", which decides whether `refresh = auto` may refresh:
/// refresh tokens rotate, and two refreshers at once can log Claude Code out.
public protocol ClaudeProcessDetector: Sendable {
    func isClaudeRunning() -> Bool
}

/// Linux: scans `/proc` (the root is injectable so tests build a fake one). A process counts when
/// it belongs to this user (another user's Claude Code refreshes another login) and its `comm` or
/// `argv[0]` is `claude` (native installs), or it is a node/bun process running Claude Code's
/// script (`…/claude`, `…/claude-code/cli.js`).
public struct ProcClaudeProcessDetector: ClaudeProcessDetector {
    public let procRoot: String
    public let ownPID: Int32
    public let uid: uid_t

    public init(procRoot: String = "/proc", ownPID: Int32 = ProcessInfo.processInfo.processIdentifier,
                uid: uid_t = getuid()) {
        self.procRoot = procRoot
        self.ownPID = ownPID
        self.uid = uid
    }

    /// Fails closed: when `/proc` cannot be listed we cannot know, so we say it runs (and leave
    /// the token alone) rather than risk a second refresher. The rule is `ClaudeProcesses`'.
    public func isClaudeRunning() -> Bool {
        guard let pids = ClaudeProcesses.pids(procRoot: procRoot, uid: uid, ownPID: ownPID) else { return true }
        return !pids.isEmpty
    }

    /// The matching rule (`ClaudeProcesses.isClaude`), shared with the macOS `ps` detector.
    static func isClaude(comm: String, arguments: [String]) -> Bool {
        ClaudeProcesses.isClaude(comm: comm, arguments: arguments)
    }
}

/// macOS: `ps -x -U <uid> -o pid=,args=` (this user's processes) is cheap and needs no entitlements.
public struct PSClaudeProcessDetector: ClaudeProcessDetector {
    public let spawner: any ProcessSpawner
    public let ownPID: Int32

    public init(spawner: any ProcessSpawner = PosixSpawner(),
                ownPID: Int32 = ProcessInfo.processInfo.processIdentifier) {
        self.spawner = spawner
        self.ownPID = ownPID
    }

    public func isClaudeRunning() -> Bool {
        guard let result = try? spawner.run(path: "/bin/ps", arguments: ["-x", "-U", "\(getuid())", "-o", "pid=,args="],
                                            environment: [:], stdin: Data(), timeout: 5),
              result.status == 0 else { return true }  // cannot tell: fail closed, as on Linux
        for line in String(decoding: result.stdout, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard let pid = fields.first.flatMap({ Int32($0) }), pid != ownPID else { continue }
            let args = Array(fields.dropFirst())
            let comm = args.first.map { String($0.split(separator: "/").last ?? "") } ?? ""
            if comm == "claude" || ProcClaudeProcessDetector.isClaude(comm: comm, arguments: args) { return true }
        }
        return false
    }
}

/// A fixed answer, for tests and for `refresh = always`.
public struct FixedClaudeProcessDetector: ClaudeProcessDetector {
    public let running: Bool
    public init(running: Bool) { self.running = running }
    public func isClaudeRunning() -> Bool { running }
}
