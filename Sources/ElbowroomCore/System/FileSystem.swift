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
public enum FileSystem {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ what: String, _ path: String, errno code: Int32 = errno) {
            description = "\(what) \(path): \(String(cString: strerror(code)))"
        }
    }

    /// The whole file, or `nil` when it is missing, unreadable or larger than `limit` bytes.
    public static func read(_ path: String, limit: Int = 1 << 20) -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let n = buffer.withUnsafeMutableBytes { posixRead(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; return nil }
            if n == 0 { break }
            data.append(contentsOf: buffer[0..<n])
            if data.count > limit { return nil }
        }
        return data
    }

    public static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
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
        #if canImport(Darwin)
        let spec = info.st_mtimespec
        #else
        let spec = info.st_mtim
        #endif
        return Date(timeIntervalSince1970: Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9)
    }

    /// Writes `data` to a temp file beside `path`, fsyncs it (unless `sync` is false: for files
    /// that may be lost in a crash, such as the usage history), sets `mode`, and renames it over
    /// `path`: readers see the old file or the new one, never a torn one.
    public static func writeAtomically(_ data: Data, to path: String, mode: mode_t, sync: Bool = true) throws {
        let dir = directory(of: path)
        let name = (path.split(separator: "/").last).map(String.init) ?? "file"
        let temp = "\(dir)/.\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
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
            // open() applies the umask; set the mode we promised explicitly.
            guard fchmod(fd, mode) == 0 else { throw Failure("cannot chmod", temp) }
            guard !sync || fsync(fd) == 0 else { throw Failure("cannot fsync", temp) }
        }
        guard rename(temp, path) == 0 else { throw Failure("cannot replace", path) }
        ok = true
    }

    /// Creates `path` and missing parents with `mode`; an existing directory is left as it is.
    public static func makeDirectory(_ path: String, mode: mode_t) throws {
        if path.isEmpty || path == "/" { return }
        var info = stat()
        if stat(path, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR { return }
            throw Failure("not a directory:", path, errno: ENOTDIR)
        }
        try makeDirectory(directory(of: path), mode: 0o755)
        if mkdir(path, mode) != 0 && errno != EEXIST { throw Failure("cannot create directory", path) }
        _ = chmod(path, mode)
    }

    public static func remove(_ path: String) throws {
        if unlink(path) != 0 && errno != ENOENT { throw Failure("cannot remove", path) }
    }

    /// `/a/b/c` → `/a/b`; `c` → `.`.
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
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
