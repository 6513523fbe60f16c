// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

// Everything Core knows of a provider is in this file: its word and its agent (`Provider`), who
// an account of it is (`AccountIdentity`: its key, its login, where its usage comes from), and how
// an account is handed to the fetcher (`Account.environment(over:)`, the variables
// `AccountIdentity` reads back), and its own keys of `[accounts.NAME]` (`ProviderSettings`: their
// fields, parsing and rows of the manual). How its usage is read is the fetcher's (`UsageProvider`).

/// Where an account's usage comes from: `provider` in an `[accounts.NAME]` table.
public enum Provider: Sendable, Equatable {
    /// Claude Code's login (`claude_config_dir`) and Anthropic's usage endpoint (the default).
    case claude
    /// Codex's stored login (`$CODEX_HOME/auth.json`) and its usage endpoint, or its session logs.
    case codex
    /// `plugin:NAME`: the program `elbowroom-source-NAME` prints a reading (docs/accounts-and-agents.md).
    case plugin(String)

    /// The built-in providers' words, as `provider` takes them (`plugin:NAME` besides). Each has
    /// its row in docs/accounts-and-agents.md's table of providers (a test holds it so).
    public static let builtInWords = ["claude", "codex"]

    public init?(_ word: String) {
        switch word {
        case "claude": self = .claude
        case "codex": self = .codex
        default:
            guard word.hasPrefix("plugin:") else { return nil }
            let name = String(word.dropFirst(7))
            guard Self.isPluginName(name) else { return nil }
            self = .plugin(name)
        }
    }

    /// Whose usage it is, as `{agent}` shows it: `Claude`, `Codex`, or the source plugin's name.
    public var agent: String {
        switch self {
        case .claude: "Claude"
        case .codex: "Codex"
        case .plugin(let name): name
        }
    }

    public var word: String {
        switch self {
        case .claude: "claude"
        case .codex: "codex"
        case .plugin(let name): "plugin:" + name
        }
    }

    /// A source plugin's name: 1 to 64 of `[a-z0-9_-]` (it becomes part of a file name).
    public static func isPluginName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64 && name.utf8.allSatisfy {
            ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F || $0 == 0x2D
        }
    }
}

/// `codex_source`: where a Codex account's usage comes from.
public enum CodexSource: Sendable, Equatable {
    /// Codex's usage endpoint, with the login Codex stored (the default).
    case api
    /// The rate limits Codex writes into its session logs: no token is read, nothing is sent.
    case logs

    public init?(_ word: String) {
        switch word {
        case "api": self = .api
        case "logs": self = .logs
        default: return nil
        }
    }

    public var word: String {
        switch self {
        case .api: "api"
        case .logs: "logs"
        }
    }
}

/// The keys of `[accounts.NAME]` that belong to one provider, each read into its field here
/// (`Config` asks `read` for every key that is not its own); what a provider makes of them is its
/// case in `AccountIdentity.init` and `Account.environment(over:)`. An account of another provider
/// that sets one is an error (`firstKeySet`). Their rows, which scripts/generate appends to the
/// config keys' table (Config.swift) in docs/configuration.md and man/elbowroom.5:
///
/// | key | default | meaning |
/// |---|---|---|
/// | `[accounts.NAME] claude_config_dir` | `$CLAUDE_CONFIG_DIR` | a `claude` account's Claude Code config directory (`~` allowed) |
/// | `[accounts.NAME] codex_home` | `$CODEX_HOME`, else `~/.codex` | a `codex` account's Codex directory (`~` allowed) |
/// | `[accounts.NAME] codex_source` | `"api"` | `api` (Codex's usage endpoint, with Codex's stored login) or `logs` (the rate limits Codex writes into its session logs: no token read, nothing sent) |
public struct ProviderSettings: Sendable, Equatable {
    /// `claude_config_dir`: a `claude` account's `CLAUDE_CONFIG_DIR`; `nil` for the one the
    /// environment names.
    public var claudeConfigDir: String?
    /// `codex_home`: a `codex` account's `CODEX_HOME`; `nil` for the environment's (default `~/.codex`).
    public var codexHome: String?
    /// `codex_source`: Codex's usage endpoint (default) or its session logs.
    public var codexSource: CodexSource = .api

    public init() {}

    /// Every provider's own keys, as `unknown key` suggests them (`Config.accountKeys`).
    static let keys = ["claude_config_dir", "codex_home", "codex_source"]

    /// Reads `key` of `[accounts.NAME]` into its field; `false` when it is no provider's key.
    mutating func read(_ key: String, _ value: ConfigValue, account name: String) throws(ConfigError) -> Bool {
        switch key {
        case "claude_config_dir": claudeConfigDir = try value.directory(account: name)
        case "codex_home": codexHome = try value.directory(account: name)
        case "codex_source":
            let word = try value.string()
            guard let source = CodexSource(word) else {
                throw value.fail("'accounts.\(name).codex_source' must be \"api\" or \"logs\", not \"\(word)\"")
            }
            codexSource = source
        default: return false
        }
        return true
    }

    /// The first of `provider`'s own keys set away from its default, if any: on an account of
    /// another provider, the config's error names it.
    func firstKeySet(of provider: Provider) -> String? {
        switch provider {
        case .claude: claudeConfigDir != nil ? "claude_config_dir" : nil
        case .codex: codexHome != nil ? "codex_home" : codexSource != .api ? "codex_source" : nil
        case .plugin: nil
        }
    }
}

/// Who an account is, read once from the environment its process runs in (the variables
/// `Account.environment(over:)` writes, or a user's own `CLAUDE_CONFIG_DIR` / `CODEX_HOME`):
/// its provider, its key, its login and where its usage comes from. `Paths`, the fetcher and
/// `doctor` all take it from here; nothing else reads `ELBOWROOM_PROVIDER` or
/// `ELBOWROOM_CODEX_SOURCE`.
public struct AccountIdentity: Sendable, Equatable {
    /// `.claude` unless `ELBOWROOM_PROVIDER` names another.
    public let provider: Provider
    /// `ELBOWROOM_PROVIDER` when it names no provider: the account is keyed by the word, and its
    /// fetch fails saying so.
    public let unknownProvider: String?
    /// A Codex account's `codex_source` (`.api` for every other account).
    public let codexSource: CodexSource
    /// The provider's own directory: a Codex account's `CODEX_HOME` (default `~/.codex`); `nil`
    /// for a Claude account (its directory is `Paths.claudeConfigDir`) and a plugin's.
    public let home: String?
    /// The login the fetcher reads: Claude Code's `.credentials.json`, Codex's `auth.json`; empty
    /// for a plugin account.
    public let credentialsFile: String
    /// Where the usage comes from, as recorded in the cache (no secret): the login file, its
    /// directory resolved, or the plugin's word and the account's name.
    public let source: String
    /// First 16 hex digits of SHA-256 of where the login lives, resolved: names this account's
    /// files, so one login under two spellings (`/.`, `..`, a symlink) is one account, with one
    /// cache, one fetch and one notification per crossing. A plugin account's: of the plugin's
    /// word and the account's name (`Paths.pluginAccount`).
    public let key: String
    /// A plugin account's name (`ELBOWROOM_ACCOUNT`), part of its key; empty for other providers.
    public let pluginAccountName: String

    /// The variables that hand an account to the fetcher (`Account.environment(over:)`).
    static let accountVariable = "ELBOWROOM_ACCOUNT"
    static let providerVariable = "ELBOWROOM_PROVIDER"
    static let codexSourceVariable = "ELBOWROOM_CODEX_SOURCE"

    /// The `[accounts.NAME]` a process was started for (`ELBOWROOM_ACCOUNT`), when one was
    /// named. (Read when asked, not by `init`: a Claude account's render has no use for it.)
    public static func accountName(in env: ElbowroomEnvironment) -> String? {
        env[accountVariable]
    }

    /// `home`: `env.home`, read once by `Paths`.
    public init(environment env: ElbowroomEnvironment, home: String) {
        let word = env[Self.providerVariable]
        let parsed: Provider?  // nil: a word no provider has
        if let word { parsed = Provider(word) } else { parsed = .claude }
        provider = parsed ?? .claude
        unknownProvider = parsed == nil ? word : nil
        switch parsed {
        case .claude?:
            // One login, one account: keyed by where the login lives (`D`), resolved.
            self.home = nil
            codexSource = .api
            pluginAccountName = ""
            let directory = ClaudeCodeStorage.directory(environment: env, home: home)
            credentialsFile = ClaudeCodeStorage.credentialsFile(in: directory)
            let account = Paths.resolved(directory)
            // (The same path again when the directory resolves to itself: no second join.)
            source = account == directory ? credentialsFile : ClaudeCodeStorage.credentialsFile(in: account)
            key = SHA256.hexPrefix(account)
        case .codex?:
            // Keyed by where its login lives, `CODEX_HOME`.
            let codex = Paths.trimmed(env.absolutePath("CODEX_HOME", home: home) ?? Paths.join(home, ".codex"))
            self.home = codex
            codexSource = env[Self.codexSourceVariable] == CodexSource.logs.word ? .logs : .api
            credentialsFile = Paths.join(codex, "auth.json")
            pluginAccountName = ""
            source = credentialsFile
            key = SHA256.hexPrefix("codex:" + Paths.resolved(codex))
        case .plugin?, nil:
            // A plugin's (or a word no provider has): keyed by the word and the account's name
            // (one plugin may serve several logins: each its own cache, cooldown and history).
            let word = word ?? ""
            let name = Self.accountName(in: env) ?? ""
            self.home = nil
            codexSource = .api
            credentialsFile = ""
            pluginAccountName = name
            source = name.isEmpty ? word : word + " account " + name
            key = SHA256.hexPrefix(Paths.pluginAccount(provider: word, name: name))
        }
    }
}

extension Account {
    /// The variables that name this account to every part of elbowroom (paths, the fetcher),
    /// laid over the environment: `ELBOWROOM_ACCOUNT`, the provider, the provider's directory and
    /// settings. `AccountIdentity` reads them back.
    public func environment(over base: ElbowroomEnvironment) -> ElbowroomEnvironment {
        // `~` spelled out, as a shell would have: children (and Claude Code's Keychain suffix)
        // see the path itself.
        func expanded(_ path: String) -> String {
            if path == "~" { return base.home }
            if ASCIIAffix.hasPrefix(path, "~/") { return Paths.join(base.home, String(path.dropFirst(2))) }
            return path
        }
        // Room for every variable at once (the literals' arrays grew again for the third).
        var names: [String] = []
        var values: [String] = []
        names.reserveCapacity(4)
        values.reserveCapacity(4)
        names.append(AccountIdentity.accountVariable)
        names.append(AccountIdentity.providerVariable)
        values.append(name)
        values.append(provider == .claude ? "" : provider.word)
        switch provider {
        case .claude:
            if let dir = settings.claudeConfigDir {
                names.append("CLAUDE_CONFIG_DIR")
                values.append(expanded(dir))
            }
        case .codex:
            if let dir = settings.codexHome {
                names.append("CODEX_HOME")
                values.append(expanded(dir))
            }
            if settings.codexSource != .api {
                names.append(AccountIdentity.codexSourceVariable)
                values.append(settings.codexSource.word)
            }
        case .plugin:
            break
        }
        return base.overlaid(names: names, values: values)
    }
}
