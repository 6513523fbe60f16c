// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `realpath(3)` of an account's directory, its parent directory's resolution shared with the
/// next account in the same directory.
///
/// `realpath` asks `readlink` of every part of a path: /home/me/.claude costs three system
/// calls (~1.1 µs each here), and the accounts a render shows side by side usually live in one
/// directory (~/.claude, ~/.claude-work, ~/.codex), so three accounts asked nine, eight of them
/// twice over. Resolved here, the parent is resolved once (as `realpath` would, every part) and
/// each account in it is one `readlink` of its own last part: the same answer whenever that part
/// is not a symlink (`readlink` says so with `EINVAL`, and then the path is the resolved parent
/// and that part); a symlink is left to `realpath`, and a part that is not there makes the
/// answer `nil`, as `realpath`'s would be.
///
/// The parent is kept for a second or two: a render resolves its accounts well within it, and
/// `watch` or `serve`, which run for hours, see a symlink changed above an account the next
/// time they resolve one after that.
enum ResolvedParent {
    /// The parent last resolved: its spelling, what it resolved to, and when (monotonic seconds).
    nonisolated(unsafe) private static var last: (parent: String, real: String, at: Int)?
    private static let lock = ThreadLock()

    /// `realpath(path)`, or `nil` when it does not resolve.
    static func realPath(_ path: String) -> String? {
        // A path of parts none of which is empty, `.` or `..` (another is the C library's to
        // resolve): the parent is what is before its last `/`, the part what is after.
        guard path != "/", Paths.isResolvedSpelling(path) else { return FileSystem.realPath(path) }
        let parent = FileSystem.directory(of: path)
        let now = monotonicSeconds()
        let realParent: String
        if let known = lock.withLock({ last }), known.parent == parent, now - known.at <= 1 {
            realParent = known.real
        } else {
            guard let real = FileSystem.realPath(parent) else { return nil }
            lock.withLock { last = (parent, real, now) }
            realParent = real
        }
        let part = path.utf8.suffix(path.utf8.count - parent.utf8.count - (parent == "/" ? 0 : 1))
        let candidate = (realParent == "/" ? "/" : realParent + "/") + String(decoding: part, as: UTF8.self)
        var byte: CChar = 0
        if candidate.withCString({ readlink($0, &byte, 1) }) < 0 {
            return errno == EINVAL ? candidate : nil
        }
        return FileSystem.realPath(path)
    }

    private static func monotonicSeconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int(now.tv_sec)
    }
}
