#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// This user's Claude Code processes: the one rule for what counts as one, for the fetcher's
/// "may I refresh the token?" (`ClaudeProcessDetector`) and for attribution's "did a local Claude
/// Code without a status line spend?" (`AttributionState`, the `elsewhere` notification).
///
/// A process counts when it belongs to this user (another user's Claude Code uses another login)
/// and its `comm` or `argv[0]` is `claude` (native installs), or it is a node/bun process running
/// Claude Code's script (`…/claude`, `…/claude-code/cli.js`). Linux reads `/proc`
/// (`ELBOWROOM_PROC_ROOT` replaces it, for tests); macOS asks `ps`.
public enum ClaudeProcesses {
    /// The process ids, or `nil` when they cannot be listed.
    public static func pids(procRoot: String = defaultProcRoot, uid: uid_t = getuid(),
                            ownPID: Int32 = getpid()) -> [Int32]? {
        #if os(Linux)
        let entries = FileSystem.entries(of: procRoot)
        if entries.isEmpty { return nil }
        var found: [Int32] = []
        for name in entries {
            guard let pid = Int32(name), pid != ownPID else { continue }
            let dir = procRoot + "/" + name
            var info = stat()
            guard stat(dir, &info) == 0, info.st_uid == uid else { continue }
            let comm = FileSystem.read(dir + "/comm", limit: 4096).map { String(decoding: $0, as: UTF8.self).trimmed } ?? ""
            if comm == "claude" {
                found.append(pid)
                continue
            }
            guard let raw = FileSystem.read(dir + "/cmdline", limit: 1 << 16) else { continue }
            let args = raw.split(separator: 0, omittingEmptySubsequences: true).map { String(decoding: $0, as: UTF8.self) }
            if isClaude(comm: comm, arguments: args) { found.append(pid) }
        }
        return found
        #else
        guard let result = try? PosixSpawner().run(path: "/bin/ps", arguments: ["-x", "-U", "\(uid)", "-o", "pid=,args="],
                                                   environment: [:], stdin: Data(), timeout: 5),
              result.status == 0 else { return nil }
        var found: [Int32] = []
        for line in String(decoding: result.stdout, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard let pid = fields.first.flatMap({ Int32($0) }), pid != ownPID else { continue }
            let args = Array(fields.dropFirst())
            let comm = args.first.map { String($0.split(separator: "/").last ?? "") } ?? ""
            if comm == "claude" || isClaude(comm: comm, arguments: args) { found.append(pid) }
        }
        return found
        #endif
    }

    /// `/proc`, or `ELBOWROOM_PROC_ROOT` when set (tests).
    public static var defaultProcRoot: String {
        ElbowroomEnvironment.current["ELBOWROOM_PROC_ROOT"].flatMap { $0.isEmpty ? nil : $0 } ?? "/proc"
    }

    /// Whether a Claude Code process of this user runs that is none of `reporting` (the processes
    /// whose sessions sent a status line): a `claude -p`, or a session without elbowroom's status
    /// line. Fails closed: when the processes cannot be listed, it says yes.
    public static func silentOneRuns(reporting: [Int32]) -> Bool {
        guard let pids = pids() else { return true }
        return pids.contains { !reporting.contains($0) }
    }

    /// The matching rule for a process's `comm` and arguments.
    public static func isClaude(comm: String, arguments: [String]) -> Bool {
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
