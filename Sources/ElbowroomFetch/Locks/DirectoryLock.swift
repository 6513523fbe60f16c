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
/// may be taken over (removed and made again), which is Claude Code's own rule. So a lock we leave
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
    }

    public func tryAcquire(now: Date) -> Attempt {
        if mkdir(path, 0o700) == 0 { return .acquired }
        let error = errno
        guard error == EEXIST else {
            return .unavailable("cannot create \(path): \(String(cString: strerror(error)).lowercased())")
        }
        guard let touched = lastTouched() else { return .busy(since: nil) }
        if now.timeIntervalSince(touched) > staleAfter, isDirectory() {
            // Left by a holder that died: take it over, as Claude Code does.
            _ = rmdir(path)
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

    func isDirectory() -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
