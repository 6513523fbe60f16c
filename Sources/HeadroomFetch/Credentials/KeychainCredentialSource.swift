import Foundation
import HeadroomCore

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
        // 44: the item does not exist.
        guard result.status == 0 else { return nil }
        let text = String(decoding: result.stdout, as: UTF8.self)
        let data = CredentialsParser.unhexIfNeeded(text)
        return data.isEmpty ? nil : data
    }

    public func writeRaw(_ data: Data) throws {
        let hex = data.map { byte in
            let s = String(byte, radix: 16)
            return byte < 16 ? "0" + s : s
        }.joined()
        let command = "add-generic-password -U -s \(Self.quoted(service)) -a \(Self.quoted(account)) -X \(hex)\n"
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
