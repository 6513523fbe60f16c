#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An advisory, cross-process lock on a file (`flock`). The kernel drops it when the process
/// dies, so a crashed fetcher never leaves the account locked.
public final class FileLock: @unchecked Sendable {
    public let path: String
    private let fd: Int32

    public init(path: String) throws {
        self.path = path
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FileSystem.Failure("cannot open lock", path) }
    }

    /// A lock on a directory itself (`flock` on the directory's descriptor): nothing is created
    /// in it, and the lock survives files in it being replaced by rename.
    public init(directory: String) throws {
        self.path = directory
        fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw FileSystem.Failure("cannot open directory", directory) }
    }

    deinit { close(fd) }

    /// Waits for the lock.
    public func lock() throws {
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw FileSystem.Failure("cannot lock", path) }
        }
    }

    /// Takes the lock if nobody holds it; `false` when another process does.
    public func tryLock() -> Bool {
        flock(fd, LOCK_EX | LOCK_NB) == 0
    }

    public func unlock() {
        _ = flock(fd, LOCK_UN)
    }

    /// Whether some process holds the lock on `path` right now (without keeping it).
    public static func isHeld(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 {
            _ = flock(fd, LOCK_UN)
            return false
        }
        return errno == EWOULDBLOCK
    }
}
