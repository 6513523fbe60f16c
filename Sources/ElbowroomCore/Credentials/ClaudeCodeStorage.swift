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
        let configDir = env.absolutePath("CLAUDE_CONFIG_DIR", home: home).map(Paths.trimmed)
        globalConfigFile = configDir.map { Paths.join($0, ".claude.json") } ?? Paths.join(home, ".claude.json")
        directory = Self.directory(environment: env, home: home)
        if let secure = env.raw("CLAUDE_SECURESTORAGE_CONFIG_DIR") {
            keychainSuffixSource = secure.isEmpty ? nil : secure
        } else {
            keychainSuffixSource = env["CLAUDE_CONFIG_DIR"]
        }
    }

    /// `D` (`directory`) alone: what names a Claude account (`AccountIdentity`), on every render,
    /// which has no use for the rest.
    static func directory(environment env: ElbowroomEnvironment, home: String) -> String {
        if let secure = env.raw("CLAUDE_SECURESTORAGE_CONFIG_DIR") {
            let defaultDir = Paths.join(home, ".claude")
            return secure.isEmpty ? defaultDir : Paths.trimmed(env.absolutePath("CLAUDE_SECURESTORAGE_CONFIG_DIR", home: home) ?? defaultDir)
        }
        return env.absolutePath("CLAUDE_CONFIG_DIR", home: home).map(Paths.trimmed) ?? Paths.join(home, ".claude")
    }

    public var credentialsFile: String { Self.credentialsFile(in: directory) }
    static func credentialsFile(in directory: String) -> String { Paths.join(directory, ".credentials.json") }
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

    /// A lock dated more than this far ahead of now is stale too: its holder was killed before the
    /// clock stepped back, and by mtime alone it would stay "fresh" until the clock caught up.
    public static let lockFutureSlack: TimeInterval = 60

    /// Whether a lock last touched at `touched` is stale: untouched for more than `staleAfter`,
    /// or dated more than `lockFutureSlack` ahead.
    public static func lockIsStale(touched: Date, now: Date, staleAfter: TimeInterval) -> Bool {
        let age = now.timeIntervalSince(touched)
        return age > staleAfter || -age > lockFutureSlack
    }

    /// Why a stale lock at `path` cannot be taken over (removed with `rmdir` and made again, the
    /// only takeover Claude Code and elbowroom make), or `nil` when it can: it is a file, a
    /// symlink or anything but a directory, or a directory with something in it.
    public static func stuckReason(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            return "it is \(info.st_mode & S_IFMT == S_IFLNK ? "a symlink" : info.st_mode & S_IFMT == S_IFREG ? "a file" : "not a directory"), not the directory a lock is"
        }
        return FileSystem.entries(of: path).isEmpty ? nil : "it is a directory with something in it"
    }

    /// One of Claude Code's refresh locks as it is now (`lockStates`).
    public struct LockState: Equatable, Sendable {
        public var path: String
        public var text: String
        /// Stale, and nothing can take it over: refreshing is blocked until it is removed.
        public var stuck: Bool
    }

    /// Who holds Claude Code's refresh locks now, for `doctor` and `fetch --verbose`: a line per
    /// lock that exists (none when nobody is refreshing).
    public func lockHolders(now: Date) -> [String] { lockStates(now: now).map(\.text) }

    /// Each refresh lock that exists: held, stale (the next refresh takes it over) or stuck
    /// (stale and not an empty directory: nothing takes it over; the user must remove it).
    public func lockStates(now: Date) -> [LockState] {
        let pid = FileSystem.read(refreshLockOwner, limit: 64 * 1024).flatMap(Self.ownerPID).map { " by process \($0)" } ?? ""
        return [refreshLock, legacyLock()].compactMap { path in
            var info = stat()
            guard lstat(path, &info) == 0 else { return nil }
            let touched = FileSystem.modificationDate(info)
            let seconds = now.timeIntervalSince(touched)
            let when = seconds >= 0 ? "last touched \(Int(min(seconds, 1e9)))s ago" : "dated \(Int(min(-seconds, 1e9)))s ahead"
            guard Self.lockIsStale(touched: touched, now: now, staleAfter: Self.refreshLockStaleAfter) else {
                return LockState(path: path, text: "\(path) held\(path == refreshLock ? pid : ""), \(when)", stuck: false)
            }
            if let why = Self.stuckReason(path) {
                return LockState(path: path, text: "\(path) stuck, \(when): stale, but \(why), so neither claude code nor elbowroom can take it over and refreshing is blocked; remove it (rm -r '\(path)') when no claude code is refreshing", stuck: true)
            }
            let cause = seconds >= 0 ? "left by a holder that stopped" : "dated ahead: left by a holder killed before the clock stepped back"
            return LockState(path: path, text: "\(path) stale (\(cause); the next refresh takes it over)\(path == refreshLock ? pid : ""), \(when)", stuck: false)
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
