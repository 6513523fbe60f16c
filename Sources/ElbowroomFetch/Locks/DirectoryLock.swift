#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ElbowroomCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One of Claude Code's lock directories: `mkdir` succeeding is holding it. The holder touches it
/// while it works; one whose mtime is older than `staleAfter` was left by a holder that died and
/// may be taken over (removed and made again), which is Claude Code's own rule; so may one dated
/// more than a minute ahead (`ClaudeCodeStorage.lockIsStale`). A stale lock that is not an empty
/// directory cannot be taken over by anyone: that is `.stuck`, said with its path. So a lock we leave
/// behind — `kill -9` in the middle of a refresh — expires for Claude Code exactly as one of its
/// own would, and never blocks it for longer.
public struct DirectoryLock: Sendable, Equatable {
    public let path: String
    public let staleAfter: TimeInterval

    public init(path: String, staleAfter: TimeInterval) {
        self.path = path
        self.staleAfter = staleAfter
    }

    public enum Attempt: Equatable, Sendable {
        case acquired
        /// Someone holds it; `since` is when it was last touched.
        case busy(since: Date?)
        /// It cannot be made at all (no such directory, read-only, not ours to write): nobody,
        /// Claude Code included, can take it here.
        case unavailable(String)
        /// Stale, but it cannot be taken over (a file, or a directory with something in it):
        /// nobody can take it until it is removed. The reason, without the path.
        case stuck(String)
    }

    public func tryAcquire(now: Date) -> Attempt {
        if mkdir(path, 0o700) == 0 { return .acquired }
        let error = errno
        guard error == EEXIST else {
            return .unavailable("cannot create \(path): \(String(cString: strerror(error)).lowercased())")
        }
        guard let touched = lastTouched() else { return .busy(since: nil) }
        // Untouched too long, or dated ahead (a holder killed before the clock stepped back).
        if ClaudeCodeStorage.lockIsStale(touched: touched, now: now, staleAfter: staleAfter) {
            if let why = ClaudeCodeStorage.stuckReason(path) { return .stuck(why) }
            // Left by a holder that died: take it over, as Claude Code does.
            if rmdir(path) != 0 && errno != ENOENT {
                let error = errno
                return error == ENOTEMPTY || error == EEXIST ? .stuck("it is a directory with something in it")
                    : .stuck("it cannot be removed: \(String(cString: strerror(error)).lowercased())")
            }
            if mkdir(path, 0o700) == 0 { return .acquired }
        }
        return .busy(since: touched)
    }

    /// Keeps a held lock fresh (its mtime is now).
    public func touch() {
        _ = utimensat(AT_FDCWD, path, nil, 0)
    }

    public func release() {
        _ = rmdir(path)
    }

    /// When the holder last touched it, or `nil` when there is no such lock.
    public func lastTouched() -> Date? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return FileSystem.modificationDate(info)
    }

}
