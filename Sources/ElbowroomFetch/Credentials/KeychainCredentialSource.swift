import Foundation
import ElbowroomCore

/// The macOS Keychain generic password Claude Code uses, through `/usr/bin/security`.
/// Reading: `find-generic-password -s SERVICE -a ACCOUNT -w` (the value may come back hex).
/// Writing: `security -i` with the command on stdin and the value hex-encoded (`-X`), so the token
/// never appears in any process's argv.
public struct KeychainCredentialSource: CredentialSource {
    public let service: String
    public let account: String
    public let executable: String
    public let spawner: any ProcessSpawner
    public let environment: [String: String]

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public init(service: String, account: String, executable: String = "/usr/bin/security",
                spawner: any ProcessSpawner = PosixSpawner(), environment: [String: String] = [:]) {
        self.service = service
        self.account = account
        self.executable = executable
        self.spawner = spawner
        self.environment = environment
    }

    public var label: String { "keychain:\(service)" }

    public func readRaw() throws -> Data? {
        let result = try spawner.run(
            path: executable, arguments: ["find-generic-password", "-s", service, "-a", account, "-w"],
            environment: environment, stdin: Data(), timeout: 10)
        // 44: the item does not exist. Anything else (a locked keychain, a denied prompt) is an
        // error, not "no login": it must never read as a document that vanished.
        if result.status == 44 { return nil }
        guard result.status == 0 else {
            throw Failure(description: "security could not read the keychain item (exit \(result.status))")
        }
        let text = String(decoding: result.stdout, as: UTF8.self)
        let data = CredentialsParser.unhexIfNeeded(text)
        return data.isEmpty ? nil : data
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

    public func changedAt() -> Date? { nil }

    /// Double-quoted for `security -i`'s line parser.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
