#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ElbowroomCore

/// Where Claude Code keeps its login: the credentials file (Linux) or a Keychain item (macOS).
/// A source hands back the raw JSON document and takes a whole new document; merging tokens into
/// it is `CredentialsDocument`'s job, so every source preserves every other key the same way.
public protocol CredentialSource: Sendable {
    /// Names the source in messages and the cache (a path or a Keychain service, never a secret).
    var label: String { get }
    /// The JSON document, or `nil` when there is none.
    func readRaw() throws -> Data?
    /// Replaces the document.
    func writeRaw(_ data: Data) throws
    /// Reads the current document and replaces it with what `decide` returns (`nil`: leave it),
    /// as one step: for the file, under Claude Code's write lock and against the very file that
    /// was read (`CredentialsFileUpdate`).
    func update(_ decide: (Data?) throws -> Data?) throws
    /// When the source last changed, when it can tell (a signed-in-again ends a cooldown).
    func changedAt() -> Date?
    /// Whether a document of this many bytes can be written back whole. A refresh spends the old
    /// refresh token, so it must not start unless the rotated one can be saved.
    func canStore(byteCount: Int) -> Bool
    /// Proves that a document of about this many bytes can be written right now (a writable
    /// directory, room on the disk), or throws why not. Runs before every refresh.
    func checkWritable(byteCount: Int) throws
}

extension CredentialSource {
    public func canStore(byteCount: Int) -> Bool { true }

    public func update(_ decide: (Data?) throws -> Data?) throws {
        if let document = try decide(try readRaw()) { try writeRaw(document) }
    }

    public func checkWritable(byteCount: Int) throws {
        guard canStore(byteCount: byteCount) else {
            throw CredentialsDocument.Unwritable(description: "\(label) cannot hold a document of \(byteCount) bytes")
        }
    }
}

/// What reading a source found.
public enum LoadedCredentials: Sendable, Equatable {
    case missing
    /// Present but not parseable: never rewritten.
    case malformed
    case loggedOut
    case mcpOnly
    case oauth(OAuthCredentials, raw: Data)

    public var oauth: OAuthCredentials? {
        if case .oauth(let credentials, _) = self { return credentials }
        return nil
    }
}

extension CredentialSource {
    public func load() -> LoadedCredentials {
        let raw: Data?
        do {
            raw = try readRaw()
        } catch {
            return .missing
        }
        guard let raw, !raw.isEmpty else { return .missing }
        switch try? CredentialsParser.parse(raw) {
        case .oauth(let credentials)?: return .oauth(credentials, raw: raw)
        case .loggedOut?: return .loggedOut
        case .mcpOnly?: return .mcpOnly
        case nil: return .malformed
        }
    }
}

/// Which source to use: the Keychain on macOS, the file elsewhere. Injectable for tests.
public enum CredentialSourceKind: String, Sendable {
    case file
    case keychain

    public static var platformDefault: CredentialSourceKind {
        #if os(macOS)
        return .keychain
        #else
        return .file
        #endif
    }
}
