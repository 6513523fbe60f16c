// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
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

/// POSIX file operations with the exact modes and atomicity elbowroom promises.
///
/// elbowroom's own files (cache, locks, history) are opened as "private": never through a
/// symlink (`O_NOFOLLOW`), never waiting on a FIFO (`O_NONBLOCK`), never leaked to a child
/// (`O_CLOEXEC`), and only used when `fstat` shows a regular file owned by this user with no other
/// hard link. Anything else planted in the cache directory is a miss or a clear error, never a hang,
/// and never a way to make elbowroom write somewhere else.
public enum FileSystem {
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public let description: String
        init(_ what: String, _ path: String, errno code: Int32 = errno) {
            description = "\(what) \(path): \(String(cString: strerror(code)))"
        }
        public init(description: String) {
            self.description = description
        }
    }

    /// The whole file, or `nil` when it is missing, unreadable or larger than `limit` bytes.
    /// Follows symlinks (a dotfiles-managed config or credentials file is one); never blocks
    /// opening a FIFO, and reads from anything but a regular file for at most a second.
    public static func read(_ path: String, limit: Int = 1 << 20) -> Data? {
        readBytes(path, limit: limit).map { Data($0) }
    }

    /// `read` as bytes: how a render reads the config file. (A regular file goes straight into
    /// an array of the size `fstat` gave, as `readPrivateBytes` reads; `Data` is code a render
    /// otherwise never runs, two 64 kB windows of it to fault in.)
    public static func readBytes(_ path: String, limit: Int = 1 << 20) -> [UInt8]? {
        var missing = false
        return readBytes(path, limit: limit, missing: &missing)
    }

    /// `readBytes`, and whether a `nil` is the file not being there (`missing`: no such file, or
    /// a path through something that is not a directory) rather than one that cannot be read: a
    /// config file is tried with one open, not looked for first.
    public static func readBytes(_ path: String, limit: Int = 1 << 20, missing: inout Bool) -> [UInt8]? {
        let fd = path.withCString { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        if fd < 0 {
            missing = errno == ENOENT || errno == ENOTDIR
            return nil
        }
        missing = false
        return readBytes(opened: fd, path: path, limit: limit)
    }

    /// `readBytes` of `file` in `directory`, the path put together as bytes, not as a `String`: a
    /// render tries a user template's file this way (most are not there), as a path that long,
    /// made and freed, costs a render its first free's ~31 k instructions (the runtime's metadata
    /// for `_StringBreadcrumbs?`, docs/performance.md).
    public static func readBytes(directory: String, file: String, limit: Int = 1 << 20) -> [UInt8]? {
        readBytes(opened: withPath(directory, file) { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }, path: file, limit: limit)
    }

    /// `size(of:)` of `file` in `directory`, the path put together as bytes (see `readBytes(directory:file:limit:)`).
    public static func size(directory: String, file: String) -> Int? {
        var info = stat()
        guard withPath(directory, file, { stat($0, &info) }) == 0 else { return nil }
        return Int(info.st_size)
    }

    /// `body` with `directory/file` as a C string.
    private static func withPath(_ directory: String, _ file: String, _ body: (UnsafePointer<CChar>) -> Int32) -> Int32 {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(directory.utf8.count + file.utf8.count + 2)
        bytes.append(contentsOf: directory.utf8)
        if bytes.last != UInt8(ascii: "/") { bytes.append(UInt8(ascii: "/")) }
        bytes.append(contentsOf: file.utf8)
        bytes.append(0)
        return bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
        }
    }

    private static func readBytes(opened fd: Int32, path: String, limit: Int) -> [UInt8]? {
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, !isType(info, S_IFDIR) else { return nil }
        if isType(info, S_IFREG) {
            guard Int(info.st_size) <= limit else { return nil }
            return try? readRegular(fd, size: Int(info.st_size), path: path, limit: limit)
        }
        // A pipe or device (`/dev/stdin`): wait for its writer, but not for ever.
        return try? readAll(fd, path: path, limit: limit, deadline: Date().addingTimeInterval(1))
    }

    /// A file of elbowroom's own (cache, history): `nil` when missing, its bytes when it is a
    /// regular file owned by this user, at most `limit` bytes, with one link; otherwise a
    /// `Failure` saying what is wrong. A symlink is refused, not followed; a FIFO is refused
    /// without waiting for a writer.
    public static func readPrivate(_ path: String, limit: Int) throws(Failure) -> Data? {
        try readPrivateBytes(path, limit: limit).map { Data($0) }
    }

    /// `path` opened for reading as one of elbowroom's private files (see `readPrivate`), with
    /// what `fstat` says of it; `nil` when missing. The caller closes it.
    private static func openPrivate(_ path: String, limit: Int) throws(Failure) -> (fd: Int32, info: stat)? {
        let fd = path.withCString { open($0, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
        if fd < 0 {
            let code = errno
            if code == ENOENT { return nil }
            if let problem = privateFileProblem(path) { throw Failure(description: problem) }
            throw Failure("cannot open", path, errno: code)
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            close(fd)
            throw Failure("cannot stat", path)
        }
        if let problem = problem(with: info, path: path, limit: limit) {
            close(fd)
            throw Failure(description: problem)
        }
        return (fd, info)
    }

    /// This process's effective user, asked once: every file a render reads is checked against
    /// it, and each `geteuid` is a system call (elbowroom never changes its user).
    static let effectiveUser = geteuid()

    /// `readPrivate` as bytes: what a render reads its cache with. Read straight into an array
    /// of the size `fstat` gave (and one byte more, to see the end), not through a 16 kB buffer
    /// into `Data` that the reader copied again (~1 k instructions a file).
    public static func readPrivateBytes(_ path: String, limit: Int) throws(Failure) -> [UInt8]? {
        guard let (fd, info) = try openPrivate(path, limit: limit) else { return nil }
        defer { close(fd) }
        return try readRegular(fd, size: Int(info.st_size), path: path, limit: limit)
    }

    /// The rest of a regular file whose `fstat` gave `size` (0 says nothing: /proc's files have
    /// content and no size), at most `limit` bytes.
    private static func readRegular(_ fd: Int32, size: Int, path: String, limit: Int) throws(Failure) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: size + 1)
        var count = 0
        while true {
            if count == bytes.count {
                // The file grew since `fstat`: room for as much again.
                bytes.append(contentsOf: repeatElement(0, count: max(4096, bytes.count)))
            }
            let n = bytes.withUnsafeMutableBytes { posixRead(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure("cannot read", path)
            }
            if n == 0 { break }
            count += n
            if count > limit { throw Failure(description: "\(path) is larger than \(limit) bytes") }
            // All `fstat` said, and less than asked for: a regular file's end (no second read
            // to be told so; a file that grew since gives the byte more, and is read on).
            if count == size && count < bytes.count { break }
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }

    /// What is wrong with `path` as one of elbowroom's private files, or `nil` when it is missing
    /// or a regular file owned by this user with one link and at most `limit` bytes (`lstat`: a
    /// symlink is reported, not followed).
    public static func privateFileProblem(_ path: String, limit: Int = .max) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return problem(with: info, path: path, limit: limit)
    }

    static func problem(with info: stat, path: String, limit: Int) -> String? {
        if !isType(info, S_IFREG) {
            return "\(path) is \(typeName(info)), not a regular file"
        }
        if info.st_uid != effectiveUser {
            return "\(path) is owned by uid \(info.st_uid), not by you (uid \(effectiveUser))"
        }
        if info.st_nlink > 1 {
            return "\(path) has \(info.st_nlink) hard links; elbowroom's files have one"
        }
        if Int(info.st_size) > limit {
            return "\(path) is \(info.st_size) bytes, more than the \(limit) it may hold"
        }
        return nil
    }

    static func isType(_ info: stat, _ type: mode_t) -> Bool {
        (info.st_mode & S_IFMT) == type
    }

    static func typeName(_ info: stat) -> String {
        switch info.st_mode & S_IFMT {
        case S_IFLNK: "a symbolic link"
        case S_IFIFO: "a fifo"
        case S_IFDIR: "a directory"
        case S_IFSOCK: "a socket"
        case S_IFCHR, S_IFBLK: "a device"
        default: "not a regular file"
        }
    }

    /// Reads a pipe or device to its end, non-blocking, polled until `deadline`; past `limit`
    /// bytes it fails.
    private static func readAll(_ fd: Int32, path: String, limit: Int, deadline: Date) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let n = buffer.withUnsafeMutableBytes { posixRead(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    let left = deadline.timeIntervalSinceNow
                    guard left > 0 else { throw Failure(description: "\(path) did not finish within a second") }
                    var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    _ = poll(&p, 1, Int32(left * 1000) + 1)
                    continue
                }
                throw Failure("cannot read", path)
            }
            if n == 0 { break }
            bytes.append(contentsOf: buffer[..<n])
            if bytes.count > limit { throw Failure(description: "\(path) is larger than \(limit) bytes") }
        }
        return bytes
    }

    public static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// The size of a file in bytes, or `nil` when it cannot be stat'ed (to say "too large" when
    /// `read` gave up at its limit).
    public static func size(of path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_size)
    }

    /// The permission bits of a file, or `nil` when it cannot be stat'ed.
    public static func mode(of path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o7777
    }

    /// Seconds since the file last changed, or `nil` when missing.
    public static func modificationDate(of path: String) -> Date? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return modificationDate(info)
    }

    /// The mtime `stat` or `lstat` filled in.
    public static func modificationDate(_ info: stat) -> Date {
        #if canImport(Darwin)
        let spec = info.st_mtimespec
        #else
        let spec = info.st_mtim
        #endif
        return Date(timeIntervalSince1970: Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9)
    }

    /// Writes `data` to a temp file beside `path`, fsyncs it (unless `sync` is false: for files
    /// that may be lost in a crash, such as the usage history), sets `mode`, and renames it over
    /// `path`: readers see the old file or the new one, never a torn one. The temp file is made
    /// with `O_CREAT | O_EXCL | O_NOFOLLOW` (a name planted in the directory is skipped, never
    /// written through), and the rename replaces whatever entry `path` is (a planted symlink is
    /// replaced, its target untouched). Temp files left by a writer that died are removed.
    /// Without `durable` the data is not fsynced: for the cache, which a status-line render may
    /// write and which is only a cache (a crash can at worst leave it empty, which reads as a
    /// miss). (Credentials are written by `CredentialsFileUpdate`, which keeps their owner.)
    public static func writeAtomically(_ data: Data, to path: String, mode: mode_t, durable: Bool = true) throws {
        try writeAtomically(data, to: path, mode: mode, durable: durable, nonce: { UInt32.random(in: 0...UInt32.max) })
    }

    /// `writeAtomically` with the temp names' random part supplied (tests plant files there).
    static func writeAtomically(_ data: Data, to path: String, mode: mode_t,
                                durable: Bool = true, nonce: () -> UInt32) throws {
        let dir = directory(of: path)
        let name = (path.split(separator: "/").last).map(String.init) ?? "file"
        var temp = ""
        var fd: Int32 = -1
        for _ in 0..<8 {
            temp = "\(dir)/.\(name).\(getpid()).\(nonce()).tmp"
            fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw Failure("cannot create", temp) }
        var ok = false
        defer {
            if !ok { unlink(temp) }
        }
        do {
            defer { close(fd) }
            try data.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let n = posixWrite(fd, raw.baseAddress! + offset, raw.count - offset)
                    if n < 0 { if errno == EINTR { continue }; throw Failure("cannot write", temp) }
                    offset += n
                }
            }
            // open() applies the umask: set the mode we promised explicitly.
            guard fchmod(fd, mode) == 0 else { throw Failure("cannot chmod", temp) }
            if durable {
                guard fsync(fd) == 0 else { throw Failure("cannot fsync", temp) }
            }
        }
        guard rename(temp, path) == 0 else { throw Failure("cannot replace", path) }
        ok = true
        removeAbandonedTemps(of: name, in: dir)
    }

    /// Removes `.NAME.PID.N.tmp` files beside NAME whose writer (PID) is gone and that are a
    /// minute old: what a writer killed between create and rename leaves (it may hold a token).
    static func removeAbandonedTemps(of name: String, in dir: String) {
        let prefix = ".\(name)."
        for entry in entries(of: dir) where entry.hasPrefix(prefix) && entry.hasSuffix(".tmp") {
            let parts = entry.dropFirst(prefix.count).dropLast(4).split(separator: ".")
            guard parts.count == 2, let pid = Int32(parts[0]), UInt32(parts[1]) != nil, pid != getpid() else { continue }
            guard kill(pid, 0) != 0 && errno == ESRCH else { continue }
            let full = dir + "/" + entry
            var info = stat()
            guard lstat(full, &info) == 0, isType(info, S_IFREG), info.st_uid == effectiveUser,
                  Date().timeIntervalSince(modificationDate(info)) > 60 else { continue }
            unlink(full)
        }
    }

    /// Creates `path` and missing parents (0700, as the XDG spec asks) and gives `path` `mode`.
    ///
    /// A private directory (`mode` without group or other bits) that exists already must be
    /// ours: one owned by another user is refused (a `Failure` saying so), and one that group or
    /// others may write to is repaired to `mode` — anyone could have planted files there.
    /// Any other existing directory is left as it is. Returns what was repaired, if anything.
    @discardableResult
    public static func makeDirectory(_ path: String, mode: mode_t) throws -> String? {
        if path.isEmpty || path == "/" { return nil }
        var info = stat()
        if stat(path, &info) != 0 {
            try makeParents(of: path)
            if mkdir(path, mode) == 0 {
                _ = chmod(path, mode)  // mkdir applies the umask
                return nil
            }
            if errno != EEXIST { throw Failure("cannot create directory", path) }
            guard stat(path, &info) == 0 else { throw Failure("cannot create directory", path) }
        }
        guard isType(info, S_IFDIR) else { throw Failure("not a directory:", path, errno: ENOTDIR) }
        guard mode & 0o077 == 0 else { return nil }
        return try securePrivateDirectory(path, mode: mode)
    }

    private static func makeParents(of path: String) throws {
        let parent = directory(of: path)
        if parent == "/" || parent == "." || exists(parent) { return }
        try makeParents(of: parent)
        if mkdir(parent, 0o700) != 0 && errno != EEXIST { throw Failure("cannot create directory", parent) }
    }

    /// Refuses another user's directory and repairs one writable by group or others to `mode`.
    static func securePrivateDirectory(_ path: String, mode: mode_t) throws -> String? {
        // Opened, not checked by name, so the check and the repair are of the same directory.
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw Failure("cannot open directory", path) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure("cannot stat", path) }
        if let problem = directoryOwnerProblem(info, path: path) { throw Failure(description: problem) }
        let current = info.st_mode & 0o7777
        guard current & 0o022 != 0 else { return nil }
        guard fchmod(fd, mode) == 0 else { throw Failure("cannot repair the mode of", path) }
        return "\(path) was mode \(String(current, radix: 8)), writable by others; repaired to \(String(mode, radix: 8))"
    }

    /// Why a private directory cannot be used (not a directory, or another user's), or `nil`
    /// when it is usable or missing. Reads only: a render asks this, writers repair.
    public static func privateDirectoryProblem(_ path: String) -> String? {
        var info = stat()
        guard path.withCString({ stat($0, &info) }) == 0 else { return nil }
        guard isType(info, S_IFDIR) else { return "\(path) is \(typeName(info)), not a directory" }
        return directoryOwnerProblem(info, path: path)
    }

    private static func directoryOwnerProblem(_ info: stat, path: String) -> String? {
        guard info.st_uid != effectiveUser else { return nil }
        return "\(path) is owned by uid \(info.st_uid), not by you (uid \(effectiveUser)): elbowroom will not use it; remove it or change its owner"
    }

    public static func remove(_ path: String) throws {
        if unlink(path) != 0 && errno != ENOENT { throw Failure("cannot remove", path) }
    }

    /// `realpath(3)`: the path with every symlink, `.` and `..` resolved, or `nil` when it does
    /// not resolve.
    public static func realPath(_ path: String) -> String? {
        guard let real = path.withCString({ realpath($0, nil) }) else { return nil }
        defer { free(real) }
        return CString.string(real)
    }

    /// `/a/b/c` → `/a/b`; `/c` → `/`; `c` → `.`.
    public static func directory(of path: String) -> String {
        // The last "/" byte, as the kernel reads a path (not a `Character`: that walks grapheme
        // clusters, and a "/" with a combining mark after it is no "/" to it).
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Lists a directory's entry names (unsorted), or empty when it cannot be read.
    public static func entries(of path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// This program's file, symlinks resolved (`/proc/self/exe`; `_NSGetExecutablePath` on Apple
    /// platforms).
    public static func ownExecutablePath() -> String? {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return installedPath(fromProcLink: String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self))
        #else
        var size: UInt32 = 4096
        var buffer = [CChar](repeating: 0, count: Int(size))
        guard _NSGetExecutablePath(&buffer, &size) == 0 else { return nil }
        guard let resolved = realpath(buffer, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
        #endif
    }

    /// What `/proc/self/exe` says, as a path to run again. A program replaced on disk since it
    /// started (an upgrade: install, dpkg and pacman write a new file) reads `PATH (deleted)`;
    /// the new program is at `PATH`, and that is the one to start (`watch` and `serve` run for days).
    public static func installedPath(fromProcLink link: String) -> String {
        let deleted = " (deleted)"
        guard link.hasSuffix(deleted), !exists(link) else { return link }
        return String(link.dropLast(deleted.count))
    }

    /// Whether both paths lead (through symlinks) to one file: the same device and inode.
    public static func isSameFile(_ a: String, _ b: String) -> Bool {
        var first = stat(), second = stat()
        guard stat(a, &first) == 0, stat(b, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }

    public static func isExecutable(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return false }
        return access(path, X_OK) == 0
    }
}

// The C calls, named so they do not clash with the static methods above.
@inline(__always) private func posixRead(_ fd: Int32, _ buf: UnsafeMutableRawPointer?, _ n: Int) -> Int {
    read(fd, buf, n)
}
@inline(__always) private func posixWrite(_ fd: Int32, _ buf: UnsafeRawPointer, _ n: Int) -> Int {
    write(fd, buf, n)
}
