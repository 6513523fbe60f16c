#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystem
import ElbowroomCore

/// Everything a source plugin starts ends with it. The fetcher is a subreaper (Linux,
/// `PR_SET_CHILD_SUBREAPER`, set by `becomeSubreaper` when it starts): a descendant a plugin
/// leaves behind — even one that double-forked and left its process group with `setsid`, which
/// the timeout's kill of the group misses — becomes the fetcher's child, and after the plugin
/// ends (or is killed at its timeout) `endStrays` kills and reaps every child the fetcher has.
/// Only the fetcher is a subreaper, and it runs nothing else beside a plugin, so every child it
/// has then is the plugin's. Elsewhere (macOS, or a process that is not the fetcher) this does
/// nothing: a daemonised descendant outlives its plugin there (docs/accounts-and-agents.md).
public enum StrayReaper {
    nonisolated(unsafe) static var isSubreaper = false

    /// Called once, by the fetcher's `main`, before anything is started.
    public static func becomeSubreaper() {
        isSubreaper = elbowroom_set_child_subreaper() == 0
    }

    /// Kills and reaps every child of this process (none left running, none a zombie); how many
    /// there were. Nothing unless this process is a subreaper.
    @discardableResult
    static func endStrays() -> Int {
        guard isSubreaper else { return 0 }
        var ended = 0
        // A stray killed may leave children of its own, which then come to us: again until none.
        for _ in 0..<100 {
            let strays = children()
            if strays.isEmpty { break }
            for pid in strays { kill(pid, SIGKILL) }
            for pid in strays {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            }
            ended += strays.count
        }
        return ended
    }

    /// This process's children, from `/proc/PID/stat` (the fourth field, after the name in
    /// parentheses, which may itself hold spaces and parentheses).
    static func children() -> [pid_t] {
        let me = getpid()
        var found: [pid_t] = []
        for entry in FileSystem.entries(of: "/proc") {
            guard let pid = pid_t(entry), pid != me,
                  let data = FileSystem.read("/proc/\(entry)/stat", limit: 4096) else { continue }
            let bytes = [UInt8](data)
            guard let close = bytes.lastIndex(of: UInt8(ascii: ")")) else { continue }
            let fields = bytes[(close + 1)...].split(separator: UInt8(ascii: " "))
            // After the name: the state, then the parent.
            guard fields.count > 1, let parent = pid_t(String(decoding: fields[1], as: UTF8.self)) else { continue }
            if parent == me { found.append(pid) }
        }
        return found
    }
}
