// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// Every path elbowroom reads or writes, derived from the environment (never the working
/// directory), so the renderer can find its cache without reading credentials. The one file
/// system access is resolving the Claude config dir once (`realpath`), which names the account.
///
/// | what | where |
/// |---|---|
/// | Claude Code config | `$CLAUDE_CONFIG_DIR`, default `~/.claude` |
/// | credentials | `.credentials.json` in `$CLAUDE_SECURESTORAGE_CONFIG_DIR` or the Claude Code config (Linux), Keychain on macOS (`ClaudeCodeStorage`) |
/// | elbowroom config | `$ELBOWROOM_CONFIG`, default `$XDG_CONFIG_HOME/elbowroom/config.toml` |
/// | user templates | `$XDG_CONFIG_HOME/elbowroom/templates/NAME.tmpl` |
/// | adapter plugins | `$XDG_CONFIG_HOME/elbowroom/adapters/elbowroom-adapter-NAME` |
/// | cache | `$XDG_CACHE_HOME/elbowroom/usage-<account>.json` (+ `.lock`, `.fetch.lock`) |
/// | a Codex account's login | `$CODEX_HOME/auth.json`, default `~/.codex/auth.json` (read by the fetcher only) |
/// | usage history | `$XDG_CACHE_HOME/elbowroom/usage-<account>.history` (see `HistoryFile`), and what renders read of it, `.digest` (see `HistoryDigest`) |
public struct Paths: Sendable, Equatable {
    public let claudeConfigDir: String
    /// Who this account is (`ELBOWROOM_PROVIDER` and the provider's variables, read once, when
    /// first asked: a render of several accounts never asks the environment's own).
    public var identity: AccountIdentity { account.identity }
    private let account: AccountPart
    /// The login the fetcher reads (`AccountIdentity.credentialsFile`).
    public var credentialsFile: String { identity.credentialsFile }
    public let configFile: String
    public let configHome: String
    public var userTemplatesDir: String { Self.join(configHome, "templates") }
    public var userAdaptersDir: String { Self.join(configHome, "adapters") }
    public let cacheDir: String
    /// `HOME` (`ElbowroomEnvironment.home`), read once: an account's paths share it too.
    private let home: String
    /// Where the credentials come from, as recorded in the cache (no secret): the credentials
    /// file, its directory resolved (`resolved`).
    public var accountSource: String { identity.source }
    /// Names this account's files (`AccountIdentity.key`): for a Claude account, of the
    /// resolved Claude config dir (`resolved`).
    public var accountKey: String { identity.key }
    public var cacheFile: String { account.cacheFile }
    /// A Codex account's `CODEX_HOME` (default `~/.codex`); `nil` for any other provider.
    public var codexHome: String? { identity.home }
    /// Where this account's usage comes from: `.claude` unless `ELBOWROOM_PROVIDER` names
    /// another (`[accounts.NAME] provider`).
    public var provider: Provider { identity.provider }
    /// Whose usage this account's cache holds, as `{agent}` shows it.
    public var agent: String { provider.agent }
    /// Short lock for read-modify-write of the cache file.
    public var cacheLockFile: String { Self.accountFile(cacheDir, accountKey, ".lock") }
    /// The usage history kept with the cache, written under the cache's lock.
    public var historyFile: String { Self.accountFile(cacheDir, accountKey, ".history") }
    /// Held for the whole of a fetch (and any token refresh): one fetch per account at a time.
    public var fetchLockFile: String { Self.accountFile(cacheDir, accountKey, ".fetch.lock") }
    // (Paths are made on every render: what a cached render does not need is computed on use.)

    /// A relative value in any of the variables is ignored, as if unset (see
    /// `ElbowroomEnvironment.pathVariables`): nothing here depends on the working directory.
    public init(environment env: ElbowroomEnvironment) {
        let home = env.home
        let configHome = Self.join(env.absolutePath("XDG_CONFIG_HOME", home: home) ?? Self.join(home, ".config"), "elbowroom")
        self.init(environment: env, home: home, configHome: configHome,
                  configFile: env.absolutePath("ELBOWROOM_CONFIG", home: home).map(Self.trimmed) ?? Self.join(configHome, "config.toml"),
                  cacheDir: Self.join(env.absolutePath("XDG_CACHE_HOME", home: home) ?? Self.join(home, ".cache"), "elbowroom"))
    }

    /// The paths of the account `env` names (`Account.environment(over:)` laid over `base`'s
    /// environment): equal to `Paths(environment: env)` (a test holds them so), but the config
    /// and cache directories (and `HOME`) are `base`'s, not derived again — an account's variables
    /// never change `HOME`, `XDG_CONFIG_HOME`, `XDG_CACHE_HOME` or `ELBOWROOM_CONFIG`. A render of
    /// several accounts makes one of these per account.
    public init(account env: ElbowroomEnvironment, sharing base: Paths) {
        self.init(environment: env, home: base.home, configHome: base.configHome, configFile: base.configFile,
                  cacheDir: base.cacheDir)
    }

    /// The account's part: whose login, and the cache named after it.
    private init(environment env: ElbowroomEnvironment, home: String, configHome: String, configFile: String, cacheDir: String) {
        self.home = home
        self.configHome = configHome
        self.configFile = configFile
        self.cacheDir = cacheDir
        claudeConfigDir = Self.trimmed(env.absolutePath("CLAUDE_CONFIG_DIR", home: home) ?? Self.join(home, ".claude"))
        account = AccountPart(environment: env, home: home, cacheDir: cacheDir)
    }

    public static func == (a: Paths, b: Paths) -> Bool {
        a.claudeConfigDir == b.claudeConfigDir && a.configFile == b.configFile && a.configHome == b.configHome
            && a.cacheDir == b.cacheDir && a.identity == b.identity
    }

    /// What a plugin account's files are named after: the provider word, and the account's name
    /// after a NUL (no name: the provider alone, as before accounts had their own).
    public static func pluginAccount(provider: String, name: String) -> String {
        name.isEmpty ? provider : provider + "\u{0}" + name
    }

    /// A plugin account's files as they were named before each account had its own (the
    /// provider alone), for `PluginCacheMigration`; `nil` when they are the same.
    public var legacyPluginAccountKey: String? {
        guard case .plugin = provider, !pluginAccountName.isEmpty else { return nil }
        return SHA256.hexPrefix(provider.word)
    }

    /// A plugin account's name (`ELBOWROOM_ACCOUNT`), part of its key; empty for other providers.
    public var pluginAccountName: String { identity.pluginAccountName }

    public static func join(_ a: String, _ b: String) -> String {
        // Written once into a string of the whole length (`a + "/" + b` made and freed one
        // between, and each `+` grew a buffer: some 600 instructions a join, a dozen a render).
        // Whether `a` ends in a slash is its last byte, as the kernel reads a path (not its last
        // `Character`, which a slash after a prepended mark is part of).
        var a = a, b = b
        let slash = a.utf8.last == UInt8(ascii: "/") ? 0 : 1
        let count = a.utf8.count + slash + b.utf8.count
        return String(unsafeUninitializedCapacity: count) { out in
            guard let start = out.baseAddress else { return 0 }
            let aCount = a.withUTF8 { bytes in
                if let base = bytes.baseAddress { start.update(from: base, count: bytes.count) }
                return bytes.count
            }
            if slash == 1 { start[aCount] = UInt8(ascii: "/") }
            b.withUTF8 { bytes in
                if let base = bytes.baseAddress { (start + aCount + slash).update(from: base, count: bytes.count) }
            }
            return count
        }
    }

    /// `dir/usage-KEY.SUFFIX`, one of an account's files (`suffix` with its dot), written once
    /// into a string of its whole length: interpolated (`"usage-\(key).history"`) and joined,
    /// the history file's name cost a render ~2.8 k instructions an account.
    public static func accountFile(_ dir: String, _ key: String, _ suffix: StaticString) -> String {
        var dir = dir, key = key
        let prefix: StaticString = "usage-"
        let slash = dir.utf8.last == UInt8(ascii: "/") ? 0 : 1
        let count = dir.utf8.count + slash + prefix.utf8CodeUnitCount + key.utf8.count + suffix.utf8CodeUnitCount
        return String(unsafeUninitializedCapacity: count) { out in
            guard var at = out.baseAddress else { return 0 }
            dir.withUTF8 { bytes in
                if let base = bytes.baseAddress { at.update(from: base, count: bytes.count) }
                at += bytes.count
            }
            if slash == 1 {
                at.pointee = UInt8(ascii: "/")
                at += 1
            }
            at.update(from: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
            at += prefix.utf8CodeUnitCount
            key.withUTF8 { bytes in
                if let base = bytes.baseAddress { at.update(from: base, count: bytes.count) }
                at += bytes.count
            }
            at.update(from: suffix.utf8Start, count: suffix.utf8CodeUnitCount)
            return count
        }
    }

    /// The directory `path` names: `realpath` when it exists (symlinks, `.` and `..` resolved),
    /// else the path with `.`, `..` and repeated slashes resolved by spelling alone.
    static func resolved(_ path: String) -> String {
        if let real = ResolvedParent.realPath(path) { return real }
        if isResolvedSpelling(path) { return path }
        // By spelling, on bytes: `.` is dropped and `..` takes the last part off. (Not through
        // [Substring] and joined(separator:): their metadata, built on first use, cost every
        // render ~250 k instructions, more than half of one.)
        let bytes = Array(path.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 1)
        var starts: [Int] = []  // where each part kept in `out` begins (at its `/`)
        starts.reserveCapacity(16)
        var i = 0
        while i < bytes.count {
            while i < bytes.count && bytes[i] == 0x2F { i += 1 }
            let start = i
            while i < bytes.count && bytes[i] != 0x2F { i += 1 }
            let length = i - start
            if length == 0 || (length == 1 && bytes[start] == 0x2E) { continue }
            if length == 2 && bytes[start] == 0x2E && bytes[start + 1] == 0x2E {
                if let last = starts.popLast() { out.removeLast(out.count - last) }
                continue
            }
            starts.append(out.count)
            out.append(0x2F)
            for j in start..<i { out.append(bytes[j]) }
        }
        return out.isEmpty ? "/" : String(decoding: out, as: UTF8.self)
    }

    /// Whether `resolved` by spelling gives `path` itself: a `/` and then parts, none empty,
    /// `.` or `..` (a directory that does not exist yet, as a fresh install's Claude dir is).
    static func isResolvedSpelling(_ path: String) -> Bool {
        var path = path
        return path.withUTF8 { bytes in
            guard bytes.count > 1, bytes[0] == 0x2F else { return bytes.count == 1 && bytes[0] == 0x2F }
            var start = 1  // where the part being read begins
            for i in 1...bytes.count {
                guard i == bytes.count || bytes[i] == 0x2F else { continue }
                let length = i - start
                if length == 0 || (bytes[start] == 0x2E && (length == 1 || (length == 2 && bytes[start + 1] == 0x2E))) {
                    return false
                }
                start = i + 1
            }
            return true
        }
    }

    /// Drops trailing slashes (`/a/b/` and `/a/b` are one account).
    static func trimmed(_ path: String) -> String {
        // Bytes, not `count`/`removeLast` (which walk Characters): every render trims a few paths.
        var end = path.utf8.count
        while end > 1 && path.utf8[path.utf8.index(path.utf8.startIndex, offsetBy: end - 1)] == UInt8(ascii: "/") { end -= 1 }
        return end == path.utf8.count ? path : String(decoding: path.utf8.prefix(end), as: UTF8.self)
    }
}

/// A `Paths`' account part, worked out on first use and then kept: its identity (a `realpath`
/// and a SHA-256, ~19 k instructions) and its cache file's name. A render of several accounts
/// makes the environment's own `Paths` for its config and cache directories alone. Behind a
/// mutex: copies of one `Paths` share it, and `watch` and `serve` use them on more than one thread.
private final class AccountPart: @unchecked Sendable {
    private let environment: ElbowroomEnvironment
    private let home: String
    private let cacheDir: String
    private let lock = ThreadLock()
    private var made: AccountIdentity?
    private var file = ""

    init(environment: ElbowroomEnvironment, home: String, cacheDir: String) {
        self.environment = environment
        self.home = home
        self.cacheDir = cacheDir
    }

    var identity: AccountIdentity {
        lock.withLock {
            make()
            return made!
        }
    }

    var cacheFile: String {
        lock.withLock {
            make()
            return file
        }
    }

    /// Works the part out once (under the lock). It returns nothing: the cache file's name is
    /// asked far more than the identity, and handing the identity back copied it to no use.
    private func make() {
        // (A pattern, not `made == nil`: that is `Equatable`'s `==`, which copied the identity.)
        if case .some = made { return }
        let identity = AccountIdentity(environment: environment, home: home)
        file = Paths.accountFile(cacheDir, identity.key, ".json")
        made = consume identity
    }
}
