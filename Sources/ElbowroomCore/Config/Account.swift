#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// Where an account's usage comes from: `provider` in an `[accounts.NAME]` table.
public enum Provider: Sendable, Equatable {
    /// Claude Code's login (`claude_config_dir`) and Anthropic's usage endpoint (the default).
    case claude
    /// Codex's stored login (`$CODEX_HOME/auth.json`) and its usage endpoint, or its session logs.
    case codex
    /// `plugin:NAME`: the program `elbowroom-source-NAME` prints a reading (docs/accounts-and-agents.md).
    case plugin(String)

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

/// One `[accounts.NAME]` table: a login whose usage elbowroom shows beside the others.
public struct Account: Sendable, Equatable {
    /// The table's name (`work` in `[accounts.work]`): what `--account` takes.
    public var name: String
    /// What the line shows before the account's part; the name when not set.
    public var label: String
    public var provider: Provider = .claude
    /// `claude_config_dir`: the account's `CLAUDE_CONFIG_DIR` (a `claude` account); `nil` for the
    /// one the environment names.
    public var claudeConfigDir: String?
    /// `codex_home`: the account's `CODEX_HOME` (a `codex` account); `nil` for the environment's
    /// (default `~/.codex`).
    public var codexHome: String?
    /// `codex_source`: `api` (the usage endpoint, default) or `logs` (Codex's session logs: no
    /// token is read, nothing is sent).
    public var codexSource: String = "api"

    public init(name: String) {
        self.name = name
        self.label = name
    }

    /// The variables that name this account to every part of elbowroom (paths, the fetcher),
    /// laid over the environment: `ELBOWROOM_ACCOUNT`, the provider's directory, the provider.
    public func environment(over base: ElbowroomEnvironment) -> ElbowroomEnvironment {
        // `~` spelled out, as a shell would have: children (and Claude Code's Keychain suffix)
        // see the path itself.
        func expanded(_ path: String) -> String {
            if path == "~" { return base.home }
            if path.hasPrefix("~/") { return Paths.join(base.home, String(path.dropFirst(2))) }
            return path
        }
        var names = ["ELBOWROOM_ACCOUNT", "ELBOWROOM_PROVIDER"]
        var values = [name, provider == .claude ? "" : provider.word]
        switch provider {
        case .claude:
            if let dir = claudeConfigDir {
                names.append("CLAUDE_CONFIG_DIR")
                values.append(expanded(dir))
            }
        case .codex:
            if let dir = codexHome {
                names.append("CODEX_HOME")
                values.append(expanded(dir))
            }
            if codexSource != "api" {
                names.append("ELBOWROOM_CODEX_SOURCE")
                values.append(codexSource)
            }
        case .plugin:
            break
        }
        return base.overlaid(names: names, values: values)
    }
}
