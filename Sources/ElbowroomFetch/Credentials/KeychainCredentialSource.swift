#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ElbowroomCore
#if canImport(CryptoKit)
import CryptoKit
#endif

/// The macOS Keychain generic password Claude Code uses, through `/usr/bin/security`, named as
/// Claude Code names it (`ClaudeCodeStorage`).
/// Reading: `find-generic-password -s SERVICE -a ACCOUNT -w` (the value may come back hex).
/// Writing: `security -i` with the command on stdin and the value hex-encoded (`-X`), so the token
/// never appears in any process's argv.
///
/// As Claude Code does, a missing item (exit 44) means the plaintext file (`fallback`) is the
/// login. A document too large for one item lives in an overflow item (`SERVICE-overflow-a` or
/// `-b`), sealed with AES-256-GCM under a key the main item points to (`keychainOverflow`): it is
/// read where the system has AES-GCM (CryptoKit, macOS), and never rewritten here — a refresh of
/// such a login is left to Claude Code, with a message that says so.
public struct KeychainCredentialSource: CredentialSource {
    public let service: String
    public let account: String
    public let executable: String
    public let spawner: any ProcessSpawner
    public let environment: [String: String]
    /// The plaintext file Claude Code falls back to when the item is missing.
    public let fallback: FileCredentialSource?

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public init(service: String, account: String, executable: String = "/usr/bin/security",
                spawner: any ProcessSpawner = PosixSpawner(), environment: [String: String] = [:],
                fallback: FileCredentialSource? = nil) {
        self.fallback = fallback
        self.service = service
        self.account = account
        self.executable = executable
        self.spawner = spawner
        self.environment = environment
    }

    public var label: String { "keychain:\(service)" }

    /// What the main item holds: a document, a pointer to an overflow item, or nothing.
    enum Item {
        case missing
        case document(Data)
        case overflow(slot: String, key: Data)
    }

    func readItem(_ service: String) throws -> Data? {
        let result = try spawner.run(
            path: executable, arguments: ["find-generic-password", "-s", service, "-a", account, "-w"],
            environment: environment, stdin: Data(), timeout: 10)
        // 44: the item does not exist. Anything else (a locked keychain, a denied prompt) is an
        // error, not "no login": it must never read as a document that vanished.
        if result.status == 44 { return nil }
        if result.status == 36 { throw Failure(description: "the keychain is locked (security exit 36); unlock it and try again") }
        guard result.status == 0 else {
            throw Failure(description: "security could not read the keychain item (exit \(result.status))")
        }
        let data = CredentialsParser.unhexIfNeeded(String(decoding: result.stdout, as: UTF8.self))
        return data.isEmpty ? nil : data
    }

    func mainItem() throws -> Item {
        guard let data = try readItem(service) else { return .missing }
        guard let pointer = (try? JSONDocument.parse(data))?["keychainOverflow"], pointer.isObject else {
            return .document(data)
        }
        guard let slot = pointer["slot"]?.stringValue, slot == "a" || slot == "b",
              let keyText = pointer["key"]?.stringValue, let key = Data(base64Encoded: keyText), key.count == 32 else {
            throw Failure(description: "the keychain item points to an overflow item elbowroom does not understand")
        }
        return .overflow(slot: slot, key: key)
    }

    public func readRaw() throws -> Data? {
        switch try mainItem() {
        case .missing: return try fallback?.readRaw()
        case .document(let data): return data
        case .overflow(let slot, let key):
            let name = "\(service)-overflow-\(slot)"
            guard let sealed = try readItem(name) else {
                throw Failure(description: "the keychain item points to \(name), which is missing")
            }
            return try Self.open(sealed: sealed, key: key, item: name)
        }
    }

    /// base64(12-byte IV ‖ ciphertext ‖ 16-byte tag), AES-256-GCM.
    static func open(sealed: Data, key: Data, item: String) throws -> Data {
        guard let combined = Data(base64Encoded: String(decoding: sealed, as: UTF8.self).trimmed),
              combined.count > 28 else {
            throw Failure(description: "the overflow item \(item) is not what claude code writes there")
        }
        #if canImport(CryptoKit)
        do {
            let box = try AES.GCM.SealedBox(combined: combined)
            return try AES.GCM.open(box, using: SymmetricKey(data: key))
        } catch {
            throw Failure(description: "the overflow item \(item) does not open with its key")
        }
        #else
        throw Failure(description: "the login is kept in the keychain overflow item \(item), which this build cannot read (no AES-GCM here)")
        #endif
    }

    /// A login kept in an overflow item is not rewritten here (Claude Code re-seals it); one kept
    /// in the plaintext file is written there.
    public func update(_ decide: (Data?) throws -> Data?) throws {
        switch try mainItem() {
        case .missing:
            guard let fallback else { _ = try decide(nil); return }
            try fallback.update(decide)
        case .document(let data):
            if let document = try decide(data) { try writeRaw(document) }
        case .overflow:
            throw Failure(description: "the login is kept in a keychain overflow item, which only claude code rewrites")
        }
    }

    public func checkWritable(byteCount: Int) throws {
        switch try mainItem() {
        case .missing: try fallback?.checkWritable(byteCount: byteCount)
        case .overflow:
            throw Failure(description: "the login is kept in a keychain overflow item, which only claude code rewrites")
        case .document:
            guard canStore(byteCount: byteCount) else {
                throw CredentialsDocument.Unwritable(description: "\(label) cannot hold a document of \(byteCount) bytes")
            }
        }
    }

    /// `security -i` reads each command line into a 4096-byte buffer; a longer line is cut and the
    /// rest run as a second command — the item would be overwritten with a truncated value.
    public static let maxCommandLine = 4095

    func command(for data: Data) -> String {
        let hex = data.map { byte in
            let s = String(byte, radix: 16)
            return byte < 16 ? "0" + s : s
        }.joined()
        return "add-generic-password -U -s \(Self.quoted(service)) -a \(Self.quoted(account)) -X \(hex)"
    }

    /// Room for the document after a refresh: new tokens may be longer than the old, so keep
    /// 300 bytes of margin.
    public func canStore(byteCount: Int) -> Bool {
        command(for: Data(count: byteCount + 300)).utf8.count < Self.maxCommandLine
    }

    public func writeRaw(_ data: Data) throws {
        let line = command(for: data)
        guard line.utf8.count < Self.maxCommandLine else {
            throw Failure(description: "the keychain item is too large to write through security -i")
        }
        let command = line + "\n"
        let result = try spawner.run(path: executable, arguments: ["-i"], environment: environment,
                                     stdin: Data(command.utf8), timeout: 10)
        guard result.status == 0 else {
            throw Failure(description: "security could not update the keychain item (exit \(result.status))")
        }
    }

    /// The plaintext fallback's mtime (a sign-in that wrote it ends a cooldown, as with the file
    /// source); the Keychain item itself says nothing of when it changed.
    public func changedAt() -> Date? { fallback?.changedAt() }

    /// Double-quoted for `security -i`'s line parser.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }
}
