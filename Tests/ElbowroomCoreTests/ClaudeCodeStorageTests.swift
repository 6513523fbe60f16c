import Foundation
import Testing
@testable import ElbowroomCore

/// Claude Code's own names for its credentials, locks and Keychain item (CLAUDE-CODE.md,
/// "Credentials and the macOS Keychain" and "The lock protocol").
@Suite struct ClaudeCodeStorageTests {
    func storage(_ env: [String: String]) -> ClaudeCodeStorage {
        ClaudeCodeStorage(environment: ElbowroomEnvironment(["HOME": "/home/u"].merging(env) { _, new in new }))
    }

    @Test func theSecureStorageDirectoryDecidesWhereCredentialsAndLocksLive() {
        #expect(storage([:]).directory == "/home/u/.claude")
        #expect(storage(["CLAUDE_CONFIG_DIR": "/w/c/"]).directory == "/w/c")
        #expect(storage(["CLAUDE_CONFIG_DIR": "/w/c", "CLAUDE_SECURESTORAGE_CONFIG_DIR": "/s"]).directory == "/s")
        // Empty means ~/.claude, whatever CLAUDE_CONFIG_DIR says.
        #expect(storage(["CLAUDE_CONFIG_DIR": "/w/c", "CLAUDE_SECURESTORAGE_CONFIG_DIR": ""]).directory == "/home/u/.claude")
        let s = storage(["CLAUDE_SECURESTORAGE_CONFIG_DIR": "/s"])
        #expect(s.credentialsFile == "/s/.credentials.json")
        #expect(s.refreshLock == "/s/.oauth_refresh.lock")
        #expect(s.writeLock == "/s/.storage-write.lock")
        #expect(s.legacyLock(realpath: { $0 == "/s" ? "/real/s" : nil }) == "/real/s.lock")
        #expect(s.legacyLock(realpath: { _ in nil }) == "/s.lock")
        let paths = Paths(environment: ElbowroomEnvironment(["HOME": "/home/u", "CLAUDE_SECURESTORAGE_CONFIG_DIR": "/s"]))
        #expect(paths.credentialsFile == "/s/.credentials.json")
    }

    @Test func theKeychainServiceHashesTheRawVariableWheneverItIsSet() {
        #expect(storage([:]).keychainService() == "Claude Code-credentials")
        #expect(storage(["CLAUDE_CONFIG_DIR": ""]).keychainService() == "Claude Code-credentials")
        // Set to the default directory, and even spelled with a tilde: still a suffix, of the raw text.
        #expect(storage(["CLAUDE_CONFIG_DIR": "~/.claude"]).keychainService()
                == "Claude Code-credentials-" + SHA256.hex("~/.claude").prefix(8))
        #expect(storage(["CLAUDE_CONFIG_DIR": "/w/c/"]).keychainService()
                == "Claude Code-credentials-" + SHA256.hex("/w/c/").prefix(8))
        #expect(storage(["CLAUDE_CONFIG_DIR": "/w/c", "CLAUDE_SECURESTORAGE_CONFIG_DIR": "/s"]).keychainService()
                == "Claude Code-credentials-" + SHA256.hex("/s").prefix(8))
        #expect(storage(["CLAUDE_CONFIG_DIR": "/w/c", "CLAUDE_SECURESTORAGE_CONFIG_DIR": ""]).keychainService()
                == "Claude Code-credentials")
        // NFC: the decomposed and the composed spelling name one item.
        let decomposed = storage(["CLAUDE_CONFIG_DIR": "/home/e\u{301}"])
        #expect(decomposed.keychainService(normalize: { _ in "/home/\u{e9}" })
                == "Claude Code-credentials-" + SHA256.hex("/home/\u{e9}").prefix(8))
    }

    @Test func theKeychainAccountFallsBackForUnusualNames() {
        #expect(ClaudeCodeStorage.keychainAccount(user: "ann.b-c_d9", loginName: "x") == "ann.b-c_d9")
        #expect(ClaudeCodeStorage.keychainAccount(user: nil, loginName: "bob") == "bob")
        #expect(ClaudeCodeStorage.keychainAccount(user: "", loginName: "bob") == "bob")
        #expect(ClaudeCodeStorage.keychainAccount(user: "josé", loginName: "bob") == "claude-code-user")
        #expect(ClaudeCodeStorage.keychainAccount(user: "a b", loginName: nil) == "claude-code-user")
        #expect(ClaudeCodeStorage.keychainAccount(user: nil, loginName: nil) == "claude-code-user")
    }

    @Test func lockHoldersSayWhoHoldsWhatAndSinceWhen() throws {
        let dir = TempDirectory()
        let s = storage(["CLAUDE_CONFIG_DIR": dir.path])
        #expect(s.lockHolders(now: Date()).isEmpty)
        try FileManager.default.createDirectory(atPath: s.refreshLock, withIntermediateDirectories: false)
        try Data(#"{"pid": 4321, "startTime": 99}"#.utf8).write(to: URL(fileURLWithPath: s.refreshLockOwner))
        let now = Date().addingTimeInterval(10)
        let lines = s.lockHolders(now: now)
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("\(s.refreshLock) held by process 4321, last touched 1") == true)
        #expect(s.lockHolders(now: Date().addingTimeInterval(120)).first?.contains("stale") == true)
    }
}
