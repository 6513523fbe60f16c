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
    /// the token alone) rather than risk a second refresher.
    public func isClaudeRunning() -> Bool {
        let entries = FileSystem.entries(of: procRoot)
        if entries.isEmpty { return true }
        for name in entries {
            guard let pid = Int32(name), pid != ownPID else { continue }
            let dir = procRoot + "/" + name
            var info = stat()
            guard stat(dir, &info) == 0, info.st_uid == uid else { continue }
            let comm = FileSystem.read(dir + "/comm", limit: 4096).map { String(decoding: $0, as: UTF8.self).trimmed } ?? ""
            if comm == "claude" { return true }
            guard let raw = FileSystem.read(dir + "/cmdline", limit: 1 << 16) else { continue }
            let args = raw.split(separator: 0, omittingEmptySubsequences: true).map { String(decoding: $0, as: UTF8.self) }
            if Self.isClaude(comm: comm, arguments: args) { return true }
        }
        return false
    }

    /// The matching rule, shared with the macOS `ps` detector.
    static func isClaude(comm: String, arguments: [String]) -> Bool {
        if let first = arguments.first, first == "claude" || first.hasSuffix("/claude") { return true }
        let runtime = comm.hasPrefix("node") || comm.hasPrefix("bun")
            || arguments.first.map { $0.hasSuffix("/node") || $0 == "node" || $0.hasSuffix("/bun") || $0 == "bun" } == true
        guard runtime else { return false }
        return arguments.dropFirst().contains { arg in
            arg == "claude" || arg.hasSuffix("/claude") || arg.hasSuffix("claude-code/cli.js")
                || arg.hasSuffix("claude-code/cli.mjs")
        }
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
