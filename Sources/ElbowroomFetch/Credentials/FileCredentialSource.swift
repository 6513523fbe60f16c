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

/// `D/.credentials.json` (`ClaudeCodeStorage`). Every write is a `CredentialsFileUpdate`: under
/// Claude Code's write lock when `storage` is given, to a temp file beside the real one (through
/// a symlink only to a file of the link's owner), fsynced, keeping the file's mode and owner,
/// replacing it by rename only if it is still the file that was read.
public struct FileCredentialSource: CredentialSource {
    public let path: String
    /// Where Claude Code's write lock is; `nil` for none.
    public let storage: ClaudeCodeStorage?
    public let log: DebugLog

    public init(path: String, storage: ClaudeCodeStorage? = nil, log: DebugLog = DebugLog(enabled: false)) {
        self.path = path
        self.storage = storage
        self.log = log
    }

    public var label: String { path }

    public func readRaw() throws -> Data? {
        guard FileSystem.exists(path) else { return nil }
        if let size = FileSystem.size(of: path), size > CredentialsFileUpdate.readLimit {
            throw CredentialsDocument.Unwritable(description: "\(path) is \(size) bytes, more than the \(CredentialsFileUpdate.readLimit >> 20) MiB elbowroom reads")
        }
        guard let data = FileSystem.read(path, limit: CredentialsFileUpdate.readLimit) else {
            throw CredentialsDocument.Unwritable(description: "cannot read \(path)")
        }
        return data
    }

    public func writeRaw(_ data: Data) throws {
        try update { _ in data }
    }

    public func update(_ decide: (Data?) throws -> Data?) throws {
        let write = CredentialsFileUpdate(path: path)
        guard let storage else { return try write.run(decide) }
        try StorageWriteLock.with(storage: storage, log: { self.log($0) }) { try write.run(decide) }
    }

    /// Creates, fills and removes a file beside the real one, as large as the rewritten document
    /// will be: a read-only directory or a full disk shows up here, before a refresh, and not
    /// after the old refresh token is spent.
    public func checkWritable(byteCount: Int) throws {
        let target = FileSystem.realPath(path) ?? path  // the file behind a symlink: a rename replaces it, not the link
        let dir = FileSystem.directory(of: target)
        let probe = "\(dir)/.credentials-write-check.\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw CredentialsDocument.Unwritable(description: "cannot create a file in \(dir): \(String(cString: strerror(errno)).lowercased())")
        }
        defer {
            close(fd)
            unlink(probe)
        }
        // The new tokens may be longer than the old: leave a margin.
        let chunk = [UInt8](repeating: 0x20, count: 4096)
        var left = byteCount + 1024
        while left > 0 {
            let n = chunk.withUnsafeBytes { write(fd, $0.baseAddress, min(left, $0.count)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                throw CredentialsDocument.Unwritable(description: "cannot write in \(dir): \(String(cString: strerror(errno)).lowercased())")
            }
            left -= n
        }
        guard fsync(fd) == 0 else {
            throw CredentialsDocument.Unwritable(description: "cannot write in \(dir): \(String(cString: strerror(errno)).lowercased())")
        }
    }

    public func changedAt() -> Date? {
        FileSystem.modificationDate(of: path)
    }
}
