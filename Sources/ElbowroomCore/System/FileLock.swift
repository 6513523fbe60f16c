// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
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

    /// Opens (creating it 0600) the lock file `path` as a private file (see `FileSystem`): a
    /// symlink, FIFO, another user's file or any other non-regular entry planted there is
    /// removed and replaced by a fresh lock file — never followed, never waited on. A genuine
    /// lock file is always a regular file of ours, so one that is not cannot be anyone's lock.
    public init(path: String) throws {
        self.path = path
        fd = try Self.openPrivate(path)
    }

    static func openPrivate(_ path: String) throws -> Int32 {
        var problem = ""
        for _ in 0..<4 {
            let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
            var info = stat()
            if fd >= 0 {
                guard fstat(fd, &info) == 0 else { close(fd); throw FileSystem.Failure("cannot stat lock", path) }
                if let found = FileSystem.problem(with: info, path: path, limit: .max) {
                    problem = found
                    close(fd)
                    removeIfStill(path, device: info.st_dev, inode: info.st_ino)
                    continue
                }
                return fd
            }
            let code = errno
            if code == EINTR { continue }
            guard lstat(path, &info) == 0, let found = FileSystem.problem(with: info, path: path, limit: .max),
                  !FileSystem.isType(info, S_IFDIR) else {
                throw FileSystem.Failure("cannot open lock", path, errno: code)
            }
            problem = found
            removeIfStill(path, device: info.st_dev, inode: info.st_ino)
        }
        throw FileSystem.Failure(description: "cannot replace the lock: \(problem)")
    }

    /// Unlinks `path` only if it is still the entry that was checked (another process may have
    /// replaced it with a good lock meanwhile).
    private static func removeIfStill(_ path: String, device: dev_t, inode: ino_t) {
        var now = stat()
        guard lstat(path, &now) == 0, now.st_dev == device, now.st_ino == inode else { return }
        unlink(path)
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

    /// Whether some process holds the lock on `path` right now (without keeping it). Anything
    /// but a lock file of ours (a planted FIFO or symlink) is not held: the fetcher replaces it.
    public static func isHeld(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, FileSystem.problem(with: info, path: path, limit: .max) == nil else { return false }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 {
            _ = flock(fd, LOCK_UN)
            return false
        }
        return errno == EWOULDBLOCK
    }
}
