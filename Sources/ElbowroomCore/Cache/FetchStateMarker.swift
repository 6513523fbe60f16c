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

/// Where the fetch state goes when the cache file cannot be written (a full disk, a read-only cache
/// directory, a directory where the cache file should be): the account's fetch lock file. Without
/// it every render would start a fetch and every fetch would ask the API again — ten prompts, ten
/// requests against a 429.
///
/// The fetcher holds that file open while it works, so writing it needs no new directory entry:
/// - its content becomes the state as JSON, written in place;
/// - its modification time becomes the end of the cooldown. That needs no free block at all, and a
///   lock file otherwise never has an mtime later than its ctime, so it cannot be mistaken.
///
/// `CacheStore.load()` lays a marker over the cache when it is newer, so the renderer, `doctor` and
/// the next fetcher all obey it. The fetcher clears it once the cache file takes writes again.
public enum FetchStateMarker {
    /// Writes `state` into the existing file at `path` (never creates it). Throws only when
    /// neither the content nor the mtime could be set.
    public static func write(_ state: FetchState, to path: String, now: Date) throws {
        let fd = open(path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw FileSystem.Failure("cannot open", path) }
        defer { close(fd) }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        var wroteContent = false
        if let data = try? encoder.encode(state), writeAll(fd, data), ftruncate(fd, off_t(data.count)) == 0 {
            wroteContent = true
        } else {
            // A half-written state must not be read back as one.
            _ = ftruncate(fd, 0)
        }
        let until = state.cooldownUntil ?? now
        var times = [timespec(tv_sec: seconds(now), tv_nsec: 0), timespec(tv_sec: seconds(until), tv_nsec: 0)]
        let touched = futimens(fd, &times) == 0
        guard wroteContent || touched else { throw FileSystem.Failure("cannot write", path) }
    }

    /// The state a marker holds, or `nil` for a plain lock file (the common case: an open, a stat
    /// and a close).
    public static func read(_ path: String) -> FetchState? {
        // Private-file rules: a planted FIFO or symlink is never waited on or followed.
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_uid == geteuid() else { return nil }
        let (modified, changed) = times(info)
        if info.st_size > 0, info.st_size <= 65536, let data = readAll(fd, size: Int(info.st_size)) {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .secondsSince1970
            if let state = try? decoder.decode(FetchState.self, from: data), isSane(state) { return state }
        }
        // Only the mtime could be set: it is the end of the cooldown, the ctime is when it was set.
        guard modified > changed + 1 else { return nil }
        return FetchState(
            lastAttempt: Date(timeIntervalSince1970: changed), lastOutcome: nil,
            message: "the last fetch could not record its outcome (is the cache directory writable, the disk full?)",
            consecutiveFailures: 1, cooldownUntil: Date(timeIntervalSince1970: modified))
    }

    /// Makes the file a plain lock file again (empty, mtime not in the future), if it is not one.
    public static func clear(_ path: String) {
        let fd = open(path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return }
        let (modified, changed) = times(info)
        guard info.st_size > 0 || modified > changed + 1 else { return }
        _ = ftruncate(fd, 0)
        _ = futimens(fd, nil)
    }

    static func isSane(_ state: FetchState) -> Bool {
        [state.lastAttempt, state.lastSuccess, state.cooldownUntil].allSatisfy { date in
            date.map { $0.timeIntervalSince1970.isFinite && abs($0.timeIntervalSince1970) < 3.2e9 } ?? true
        }
    }

    static func seconds(_ date: Date) -> time_t {
        let t = date.timeIntervalSince1970
        return time_t(t.isFinite ? min(max(t, 0), 3.2e9) : 0)
    }

    static func times(_ info: stat) -> (modified: Double, changed: Double) {
        #if canImport(Darwin)
        let m = info.st_mtimespec, c = info.st_ctimespec
        #else
        let m = info.st_mtim, c = info.st_ctim
        #endif
        return (Double(m.tv_sec) + Double(m.tv_nsec) / 1e9, Double(c.tv_sec) + Double(c.tv_nsec) / 1e9)
    }

    static func writeAll(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = pwrite(fd, raw.baseAddress! + offset, raw.count - offset, off_t(offset))
                if n < 0 { if errno == EINTR { continue }; return false }
                offset += n
            }
            return true
        }
    }

    static func readAll(_ fd: Int32, size: Int) -> Data? {
        var buffer = [UInt8](repeating: 0, count: size)
        var offset = 0
        while offset < size {
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + offset, size - offset, off_t(offset)) }
            if n < 0 { if errno == EINTR { continue }; return nil }
            if n == 0 { break }
            offset += n
        }
        return Data(buffer[0..<offset])
    }
}
