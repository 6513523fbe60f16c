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
        var path = path
        // The last `/`, for a path of parts none of which is empty, `.` or `..` (another is the C
        // library's to resolve): the parent is what is before it, the part what is after.
        let slash: Int? = path.withUTF8 { bytes in
            guard bytes.count > 1, bytes[0] == 0x2F, bytes[bytes.count - 1] != 0x2F else { return nil }
            var i = bytes.count - 1
            while bytes[i] != 0x2F { i -= 1 }
            let partLength = bytes.count - 1 - i
            if bytes[i + 1] == 0x2E && (partLength == 1 || (partLength == 2 && bytes[i + 2] == 0x2E)) { return nil }
            return i
        }
        guard let slash, Paths.isResolvedSpelling(path) else { return FileSystem.realPath(path) }
        let utf8 = path.utf8
        let parent = slash == 0 ? "/" : String(decoding: utf8.prefix(slash), as: UTF8.self)
        let now = monotonicSeconds()
        let realParent: String
        if let known = lock.withLock({ last }), known.parent == parent, now - known.at <= 1 {
            realParent = known.real
        } else {
            guard let real = FileSystem.realPath(parent) else { return nil }
            lock.withLock { last = (parent, real, now) }
            realParent = real
        }
        let part = String(decoding: utf8.suffix(utf8.count - slash - 1), as: UTF8.self)
        let candidate = realParent == "/" ? "/" + part : realParent + "/" + part
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
