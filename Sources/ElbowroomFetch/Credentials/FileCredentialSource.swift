import Foundation
import ElbowroomCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `$CLAUDE_CONFIG_DIR/.credentials.json`. Writes go to a temp file beside the real file (through
/// a symlink, to its target), are fsynced, keep the file's mode, and replace it by rename.
public struct FileCredentialSource: CredentialSource {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    public var label: String { path }

    public func readRaw() throws -> Data? {
        guard FileSystem.exists(path) else { return nil }
        guard let data = FileSystem.read(path, limit: 1 << 20) else {
            throw CredentialsDocument.Unwritable(description: "cannot read \(path)")
        }
        return data
    }

    public func writeRaw(_ data: Data) throws {
        let target = Self.resolved(path)
        let mode = FileSystem.mode(of: target) ?? 0o600
        try FileSystem.writeAtomically(data, to: target, mode: mode)
    }

    public func changedAt() -> Date? {
        FileSystem.modificationDate(of: path)
    }

    /// The real file behind a symlink, so a rename replaces the file and not the link.
    static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }
}
