// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// Where Claude Code keeps its login and the locks around it, named exactly as Claude Code 2.1
/// names them (docs/fetching.md, "Claude Code's locks"), so that elbowroom and a running Claude
/// Code read, lock and write the same things.
///
/// | what | where |
/// |---|---|
/// | credentials directory `D` | `$CLAUDE_SECURESTORAGE_CONFIG_DIR` when set (empty: `~/.claude`), else `$CLAUDE_CONFIG_DIR`, else `~/.claude` |
/// | credentials file | `D/.credentials.json` |
/// | refresh lock | `D/.oauth_refresh.lock` (a directory) |
/// | legacy refresh lock | `realpath(D) + ".lock"` (e.g. `~/.claude.lock`) |
/// | owner record | `D/.oauth_refresh.lock.owner` (Claude Code's; read only) |
/// | write lock | `D/.storage-write.lock` |
/// | Keychain service (macOS) | `Claude Code-credentials`, plus `-<8 hex of sha256(raw dir)>` when the directory variable is set and non-empty |
/// | global config (usage snapshot) | `$CLAUDE_CONFIG_DIR/.claude.json`, else `~/.claude.json` |
/// | Keychain account | `$USER`, else the login name; `claude-code-user` when that is not `[A-Za-z0-9._-]+` |
public struct ClaudeCodeStorage: Sendable, Equatable {
    /// `D`: the directory the credentials and their locks live in.
    public let directory: String
    /// The variable value the Keychain suffix is hashed from (raw, as set), or `nil` for none.
    public let keychainSuffixSource: String?
    /// Claude Code's global config, where it keeps its own usage snapshot:
    /// `$CLAUDE_CONFIG_DIR/.claude.json`, else `~/.claude.json`.
    public let globalConfigFile: String

    public init(environment env: ElbowroomEnvironment) {
        self.init(environment: env, home: env.home)
    }

    /// With `env.home` already read (`Paths` reads it once for every path it derives).
    init(environment env: ElbowroomEnvironment, home: String) {
        let defaultDir = Paths.join(home, ".claude")
        let configDir = env.absolutePath("CLAUDE_CONFIG_DIR", home: home).map(Paths.trimmed)
        globalConfigFile = configDir.map { Paths.join($0, ".claude.json") } ?? Paths.join(home, ".claude.json")
        if let secure = env.raw("CLAUDE_SECURESTORAGE_CONFIG_DIR") {
            directory = secure.isEmpty ? defaultDir : Paths.trimmed(env.absolutePath("CLAUDE_SECURESTORAGE_CONFIG_DIR", home: home) ?? defaultDir)
            keychainSuffixSource = secure.isEmpty ? nil : secure
        } else {
            directory = configDir ?? defaultDir
            keychainSuffixSource = env["CLAUDE_CONFIG_DIR"]
        }
    }

    public var credentialsFile: String { Paths.join(directory, ".credentials.json") }
    public var refreshLock: String { Paths.join(directory, ".oauth_refresh.lock") }
    public var refreshLockOwner: String { Paths.join(directory, ".oauth_refresh.lock.owner") }
    public var writeLock: String { Paths.join(directory, ".storage-write.lock") }

    /// `realpath(D) + ".lock"`; `D + ".lock"` while `D` does not resolve.
    public func legacyLock(realpath resolve: (String) -> String? = FileSystem.realPath) -> String {
        (resolve(directory) ?? directory) + ".lock"
    }

    /// How long a refresh lock untouched stays held (Claude Code's rule; its holder touches it
    /// every 5 s).
    public static let refreshLockStaleAfter: TimeInterval = 60

    /// Who holds Claude Code's refresh locks now, for `doctor` and `fetch --verbose`: a line per
    /// lock that exists (none when nobody is refreshing).
    public func lockHolders(now: Date) -> [String] {
        let pid = FileSystem.read(refreshLockOwner, limit: 64 * 1024).flatMap(Self.ownerPID).map { " by process \($0)" } ?? ""
        return [refreshLock, legacyLock()].compactMap { path in
            guard FileSystem.exists(path), let touched = FileSystem.modificationDate(of: path) else { return nil }
            let age = max(0, Int(min(now.timeIntervalSince(touched), 1e9)))
            let state = Double(age) > Self.refreshLockStaleAfter ? "stale (left by a holder that stopped; the next refresh takes it over)" : "held"
            return "\(path) \(state)\(path == refreshLock ? pid : ""), last touched \(age)s ago"
        }
    }

    /// `"pid": N` from Claude Code's owner record.
    static func ownerPID(_ data: Data) -> Int? {
        let bytes = [UInt8](data.prefix(64 * 1024))
        let key = Array("\"pid\"".utf8)
        guard bytes.count >= key.count,
              let start = (0...(bytes.count - key.count)).first(where: { bytes[$0..<($0 + key.count)].elementsEqual(key) }) else { return nil }
        let digits = bytes[(start + key.count)...].drop { $0 == 0x20 || $0 == 0x3A }.prefix { $0 >= 0x30 && $0 <= 0x39 }.prefix(10)
        return Int(String(decoding: digits, as: UTF8.self))
    }

    /// The Keychain service. `normalize` is NFC (the fetcher passes Foundation's); Claude Code
    /// hashes the NFC form of the raw variable, with no path comparison: `CLAUDE_CONFIG_DIR=~/.claude`
    /// has a suffix although it names the default directory.
    public func keychainService(normalize: (String) -> String = { $0 }) -> String {
        guard let raw = keychainSuffixSource else { return "Claude Code-credentials" }
        return "Claude Code-credentials-" + SHA256.hex(normalize(raw)).prefix(8)
    }

    /// The Keychain account: `$USER`, else `loginName`, replaced by `claude-code-user` when it is
    /// not made of `[A-Za-z0-9._-]` alone.
    public static func keychainAccount(user: String?, loginName: String?) -> String {
        let name = (user?.isEmpty == false ? user : loginName) ?? ""
        let allowed = !name.isEmpty && name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2E || byte == 0x5F || byte == 0x2D
        }
        return allowed ? name : "claude-code-user"
    }
}
