#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ElbowroomCore
import CSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One read-decide-write of the credentials file that nobody can redirect.
///
/// The danger: root (or another user) refreshing a login in a directory the login's owner can
/// write. Between our re-read and our rename the owner could swap `.credentials.json` for a
/// symlink, and a write that resolves the path again would land on whatever the link names, with
/// content the owner chose. So:
/// - a symlink is followed once, at the start, and only when its target belongs to the link's
///   owner (a link to someone else's file is refused);
/// - the directory is opened once, and everything after is relative to that descriptor: the file
///   is opened once (never following a link), read, and its device and inode remembered;
/// - the new document goes to a temp file made in that directory (`O_EXCL|O_NOFOLLOW`), and
///   replaces the name only if the name still holds the file that was read (device and inode);
///   `rename` replaces a directory entry and never follows a link there;
/// - running as root for a file that is someone else's, all of it happens with that user's file
///   system identity (`setfsuid`, Linux): the kernel then grants exactly the owner's rights.
struct CredentialsFileUpdate {
    let path: String
    /// The largest document read: Claude Code's grows with every MCP login.
    static let readLimit = 16 << 20

    struct Refused: Error, CustomStringConvertible {
        let description: String
    }

    /// Reads the file (`nil` when there is none), lets `decide` return the new document (or `nil`
    /// for no write), and writes it against what was read.
    func run(_ decide: (Data?) throws -> Data?) throws {
        let target = try Self.target(of: path)
        let dirPath = FileSystem.directory(of: target)
        let name = String(target.split(separator: "/").last ?? "")
        let dir = open(dirPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dir >= 0 else { throw Refused(description: "cannot open \(dirPath): \(Self.why())") }
        defer { close(dir) }
        var dirInfo = stat()
        guard fstat(dir, &dirInfo) == 0 else { throw Refused(description: "cannot stat \(dirPath): \(Self.why())") }

        var fileInfo = stat()
        let present = fstatat(dir, name, &fileInfo, AT_SYMLINK_NOFOLLOW) == 0
        let owner = present ? (fileInfo.st_uid, fileInfo.st_gid) : (dirInfo.st_uid, dirInfo.st_gid)
        try Self.asUser(owner) {
            // Held open until the rename: while it is, its inode cannot be freed and handed to a
            // file swapped in under the same name.
            let fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            defer { if fd >= 0 { close(fd) } }
            var read: (data: Data, device: dev_t, inode: ino_t, mode: mode_t)?
            if fd >= 0 {
                var info = stat()
                guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
                    throw Refused(description: "\(target) is not a regular file; not touched")
                }
                guard info.st_size <= Self.readLimit else {
                    throw Refused(description: "\(target) is \(info.st_size) bytes, more than the \(Self.readLimit >> 20) MiB elbowroom reads")
                }
                read = (try Self.readAll(fd, path: target), info.st_dev, info.st_ino, info.st_mode & 0o7777)
            } else if errno != ENOENT {
                throw Refused(description: "cannot open \(target): \(Self.why())")
            }
            guard let document = try decide(read?.data) else { return }
            let mode = read?.mode ?? 0o600
            let temp = ".\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
            let out = openat(dir, temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard out >= 0 else { throw Refused(description: "cannot create a file in \(dirPath): \(Self.why())") }
            var renamed = false
            defer { if !renamed { unlinkat(dir, temp, 0) } }
            do {
                defer { close(out) }
                try Self.writeAll(out, document, path: dirPath + "/" + temp)
                // Not already the owner's (no setfsuid here): hand it over, as the file was.
                if geteuid() == 0, owner.0 != 0 || owner.1 != 0 {
                    _ = fchown(out, owner.0, owner.1)
                }
                guard fchmod(out, mode) == 0, fsync(out) == 0 else {
                    throw Refused(description: "cannot write \(dirPath)/\(temp): \(Self.why())")
                }
            }
            // The name must still hold what was read: a swap meanwhile means someone else is
            // writing here, and their document is not ours to replace.
            var now = stat()
            let stillThere = fstatat(dir, name, &now, AT_SYMLINK_NOFOLLOW) == 0
            if let read {
                guard stillThere, (now.st_mode & S_IFMT) == S_IFREG, now.st_dev == read.device, now.st_ino == read.inode else {
                    throw Refused(description: "\(target) was replaced while it was being updated; not written")
                }
            } else if stillThere {
                throw Refused(description: "\(target) appeared while it was being written; not written")
            }
            guard renameat(dir, temp, dir, name) == 0 else {
                throw Refused(description: "cannot replace \(target): \(Self.why())")
            }
            renamed = true
            _ = fsync(dir)
        }
    }

    /// `path`, or the file its symlink names when that file belongs to the link's owner.
    static func target(of path: String) throws -> String {
        var link = stat()
        guard lstat(path, &link) == 0, (link.st_mode & S_IFMT) == S_IFLNK else { return path }
        guard let real = FileSystem.realPath(path) else {
            throw Refused(description: "\(path) is a symlink that leads nowhere; not touched")
        }
        var target = stat()
        guard stat(real, &target) == 0 else { return real }
        guard target.st_uid == link.st_uid else {
            throw Refused(description: "\(path) is a symlink to \(real), which belongs to another user; not touched")
        }
        return real
    }

    /// Runs `body` with `owner`'s file-system identity when this process is root and the file is
    /// someone else's (Linux); as itself otherwise.
    static func asUser<T>(_ owner: (uid_t, gid_t), _ body: () throws -> T) throws -> T {
        #if os(Linux)
        if geteuid() == 0, owner.0 != 0 {
            let previousGroup = elbowroom_setfsgid(owner.1)
            let previousUser = elbowroom_setfsuid(owner.0)
            defer {
                _ = elbowroom_setfsuid(UInt32(bitPattern: previousUser))
                _ = elbowroom_setfsgid(UInt32(bitPattern: previousGroup))
            }
            return try body()
        }
        #endif
        return try body()
    }

    static func readAll(_ fd: Int32, path: String) throws -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw Refused(description: "cannot read \(path): \(why())") }
            if n == 0 { return data }
            data.append(contentsOf: buffer[0..<n])
            guard data.count <= readLimit else {
                throw Refused(description: "\(path) is more than the \(readLimit >> 20) MiB elbowroom reads")
            }
        }
    }

    static func writeAll(_ fd: Int32, _ data: Data, path: String) throws {
        try data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw Refused(description: "cannot write \(path): \(why())") }
                offset += n
            }
        }
    }

    static func why() -> String {
        String(cString: strerror(errno)).lowercased()
    }
}
