import Foundation
import Testing
import ElbowroomCore
@testable import ElbowroomFetch
import ElbowroomTestSupport

/// The Keychain source against a fake `security` shell script, so it runs on Linux too.
@Suite struct KeychainCredentialSourceTests {
    /// Writes a fake `security` that logs its argv, prints `item` (hex) for find-generic-password
    /// and records stdin for `-i`.
    static func fakeSecurity(in dir: String, itemHex: String?) throws -> String {
        let script = dir + "/security"
        let text = """
            #!/bin/sh
            for arg in "$@"; do printf '%s\\n' "$arg" >> '\(dir)/argv.log'; done
            case "$1" in
              find-generic-password)
                if [ -f '\(dir)/item.hex' ]; then cat '\(dir)/item.hex'; echo; exit 0; fi
                echo "security: SecKeychainSearchCopyNext: The specified item could not be found in the keychain." >&2
                exit 44 ;;
              -i) cat >> '\(dir)/stdin.log'; exit 0 ;;
            esac
            exit 1
            """
        // Close-on-exec write: a child another test forks meanwhile must not inherit a write
        // descriptor, or exec fails with "text file busy".
        try FileSystem.writeAtomically(Data(text.utf8), to: script, mode: 0o755)
        if let itemHex { try Data(itemHex.utf8).write(to: URL(fileURLWithPath: dir + "/item.hex")) }
        return script
    }

    static func hex(_ data: Data) -> String {
        data.map { String(format: "%02x", $0) }.joined()
    }

    /// As Claude Code does: no item means the plaintext file is the login.
    @Test func aMissingItemFallsBackToThePlaintextFile() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let script = try Self.fakeSecurity(in: sandbox.root, itemHex: nil)
        try sandbox.writeCredentials(accessToken: "sk-ant-oat01-from-the-file", refreshToken: Tokens.refresh,
                                     expiresAt: Date().addingTimeInterval(3600))
        let source = KeychainCredentialSource(service: "Claude Code-credentials", account: "tester", executable: script,
                                              fallback: FileCredentialSource(path: sandbox.credentialsFile))
        #expect(source.load().oauth?.accessToken == "sk-ant-oat01-from-the-file")
        // A refresh of such a login is written to the file, not to a new Keychain item.
        try source.update { current in
            #expect(current != nil)
            return Data(#"{"claudeAiOauth":{"accessToken":"sk-ant-oat01-new","refreshToken":"r","expiresAt":1}}"#.utf8)
        }
        #expect(sandbox.oauthObject?["accessToken"] as? String == "sk-ant-oat01-new")
        #expect(!FileManager.default.fileExists(atPath: sandbox.root + "/stdin.log"))
        // A sign-in written to the fallback is a change of credentials (it ends a cooldown).
        #expect(source.changedAt() != nil && source.changedAt() == FileSystem.modificationDate(of: sandbox.credentialsFile))
    }

    /// A document too large for one item lives in an overflow item: detected, read where the
    /// system has AES-GCM (macOS), said clearly where not, and never rewritten here.
    @Test func anOverflowItemIsDetectedAndNeverRewritten() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let dir = sandbox.root
        let key = Data(repeating: 7, count: 32).base64EncodedString()
        let pointer = #"{"keychainOverflow":{"slot":"b","key":"\#(key)","version":1}}"#
        let script = dir + "/security"
        let text = """
            #!/bin/sh
            printf '%s\n' "$*" >> '\(dir)/argv.log'
            case "$3" in
              "Claude Code-credentials") printf '%s' '\(pointer)'; exit 0 ;;
              "Claude Code-credentials-overflow-b") printf '%s' 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9w'; exit 0 ;;
            esac
            exit 44
            """
        try FileSystem.writeAtomically(Data(text.utf8), to: script, mode: 0o755)
        let source = KeychainCredentialSource(service: "Claude Code-credentials", account: "tester", executable: script)
        do {
            _ = try source.readRaw()
            Issue.record("an overflow item read as a document")
        } catch {
            #if canImport(CryptoKit)
            #expect("\(error)".contains("does not open with its key"))
            #else
            #expect("\(error)".contains("overflow item Claude Code-credentials-overflow-b, which this build cannot read"))
            #endif
        }
        let argv = try String(contentsOfFile: dir + "/argv.log", encoding: .utf8)
        #expect(argv.contains("-s Claude Code-credentials-overflow-b -a tester"))
        #expect(throws: (any Error).self) { try source.checkWritable(byteCount: 100) }
        #expect(throws: (any Error).self) { try source.update { _ in Data("{}".utf8) } }
    }

    @Test func readsAHexEncodedItem() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let json = Sandbox.credentialsJSON(accessToken: Tokens.access, refreshToken: Tokens.refresh,
                                           expiresAt: Date().addingTimeInterval(3600))
        let script = try Self.fakeSecurity(in: sandbox.root, itemHex: Self.hex(Data(json.utf8)))
        let source = KeychainCredentialSource(service: ClaudeCodeStorage(environment: sandbox.elbowroomEnvironment).keychainService(), account: "tester", executable: script)
        let loaded = source.load()
        #expect(loaded.oauth?.accessToken == Tokens.access)
        #expect(loaded.oauth?.subscriptionType == "max")
        let argv = try String(contentsOfFile: sandbox.root + "/argv.log", encoding: .utf8)
        #expect(argv == "find-generic-password\n-s\n\(ClaudeCodeStorage(environment: sandbox.elbowroomEnvironment).keychainService())\n-a\ntester\n-w\n")
    }

    @Test func missingItemIsMissing() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let script = try Self.fakeSecurity(in: sandbox.root, itemHex: nil)
        let source = KeychainCredentialSource(service: "Claude Code-credentials", account: "tester", executable: script)
        #expect(source.load() == .missing)
    }

    /// A fetch (urgency now) whose credentials live in a fake Keychain item holding `json`.
    static func fetchThroughKeychain(_ h: FetchHarness, item json: String) throws -> FetchReport {
        let script = try fakeSecurity(in: h.sandbox.root, itemHex: hex(Data(json.utf8)))
        var context = h.context
        context.credentialSourceKind = .keychain
        context.securityExecutable = script
        return FetchCoordinator(context: context).run(urgency: .now)
    }

    @Test func refreshWritesThroughStdinOnlyAndKeepsEveryKey() throws {
        let h = try FetchHarness(validAccess: "will-be-issued")
        let json = Sandbox.credentialsJSON(accessToken: Tokens.access, refreshToken: Tokens.refresh, expiresAt: h.expired)
        let dir = h.sandbox.root
        let report = try Self.fetchThroughKeychain(h, item: json)
        #expect(report.result == .fetched)
        #expect(h.tokenRequests.count == 1)

        let stdin = try String(contentsOfFile: dir + "/stdin.log", encoding: .utf8)
        let prefix = "add-generic-password -U -s \"\(ClaudeCodeStorage(environment: h.sandbox.elbowroomEnvironment).keychainService())\" -a \"tester\" -X "
        #expect(stdin.hasPrefix(prefix))
        let hex = String(stdin.dropFirst(prefix.count)).trimmingCharacters(in: .whitespacesAndNewlines)
        let written = CredentialsParser.unhexIfNeeded(hex)
        let object = try #require(try JSONSerialization.jsonObject(with: written) as? [String: Any])
        let oauth = try #require(object["claudeAiOauth"] as? [String: Any])
        #expect(oauth["accessToken"] as? String == h.fake.validAccessToken)
        #expect(oauth["refreshToken"] as? String == h.fake.validRefreshToken)
        #expect(object["mcpOAuth"] != nil)
        #expect(object["someUnknownTopLevelKey"] as? String == "keep me")

        // No token, raw or hex, ever reached any argv.
        let argv = try String(contentsOfFile: dir + "/argv.log", encoding: .utf8)
        for secret in [Tokens.access, Tokens.refresh, h.fake.validAccessToken, h.fake.validRefreshToken] {
            #expect(!argv.contains(secret))
            #expect(!argv.contains(Self.hex(Data(secret.utf8))))
        }
        #expect(!argv.contains(hex))
    }

    @Test func aDocumentTooLargeForSecurityDashIIsNeverRefreshed() throws {
        // security -i cuts command lines at 4095 bytes; a cut write would corrupt the item after
        // the refresh token was already spent. So such a refresh is left to Claude Code.
        let h = try FetchHarness(validAccess: "will-be-issued")
        let padding = String(repeating: "m", count: 2500)
        let json = Sandbox.credentialsJSON(accessToken: Tokens.access, refreshToken: Tokens.refresh, expiresAt: h.expired)
            .replacingOccurrences(of: "\"keep me\"", with: "\"\(padding)\"")
        let dir = h.sandbox.root
        let report = try Self.fetchThroughKeychain(h, item: json)
        #expect(report.result.failure?.outcome == .expired, "\(report.result)")
        #expect(h.tokenRequests.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: dir + "/stdin.log"))
        let source = KeychainCredentialSource(service: "s", account: "a", executable: dir + "/security")
        #expect(source.canStore(byteCount: 1000))
        #expect(!source.canStore(byteCount: 2000))
    }

    @Test func aKeychainThatWillNotAnswerIsAnErrorNotAMissingItem() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let script = sandbox.root + "/security"
        try FileSystem.writeAtomically(Data("#!/bin/sh\necho 'security: locked' >&2\nexit 36\n".utf8), to: script, mode: 0o755)
        let source = KeychainCredentialSource(service: "s", account: "a", executable: script)
        #expect(throws: KeychainCredentialSource.Failure.self) { try source.readRaw() }
    }
}

#if os(macOS)
/// The real `/usr/bin/security` in a throwaway keychain: the macOS CI workflow makes one and sets
/// ELBOWROOM_TEST_KEYCHAIN (there is no Keychain on Linux).
@Suite struct RealKeychainTests {
    static let keychain = ProcessInfo.processInfo.environment["ELBOWROOM_TEST_KEYCHAIN"]

    @Test(.enabled(if: keychain != nil, "ELBOWROOM_TEST_KEYCHAIN is not set (the macOS CI workflow makes one)"))
    func theRealSecurityReadsAndWritesAsClaudeCodeNamesIt() throws {
        let keychain = try #require(Self.keychain)
        let service = "Claude Code-credentials-" + SHA256.hex("/tmp/elbowroom-ci-\(getpid())").prefix(8)
        let json = Sandbox.credentialsJSON(accessToken: Tokens.access, refreshToken: Tokens.refresh,
                                           expiresAt: Date().addingTimeInterval(3600))
        let hex = KeychainCredentialSourceTests.hex(Data(json.utf8))
        let add = try PosixSpawner().run(path: "/usr/bin/security",
                                         arguments: ["add-generic-password", "-U", "-s", service, "-a", "elbowroom-ci", "-X", hex, keychain],
                                         environment: [:], stdin: Data(), timeout: 10)
        #expect(add.status == 0)
        defer {
            _ = try? PosixSpawner().run(path: "/usr/bin/security", arguments: ["delete-generic-password", "-s", service, keychain],
                                        environment: [:], stdin: Data(), timeout: 10)
        }
        let source = KeychainCredentialSource(service: service, account: "elbowroom-ci")
        #expect(source.load().oauth?.accessToken == Tokens.access)
        try source.update { current in
            try CredentialsDocument.replacingTokens(in: current!, accessToken: "sk-ant-oat01-rotated", refreshToken: "sk-ant-ort01-rotated", expiresAt: Date())
        }
        #expect(source.load().oauth?.accessToken == "sk-ant-oat01-rotated")
    }
}
#endif
