#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// One `[accounts.NAME]` table: a login whose usage elbowroom shows beside the others.
public struct Account: Sendable, Equatable {
    /// The table's name (`work` in `[accounts.work]`): what `--account` takes.
    public var name: String
    /// What the line shows before the account's part; the name when not set.
    public var label: String
    /// `provider`; what each provider makes of the account is in `Provider.swift`
    /// (`AccountIdentity`, `environment(over:)`).
    public var provider: Provider = .claude
    /// `claude_config_dir`: the account's `CLAUDE_CONFIG_DIR` (a `claude` account); `nil` for the
    /// one the environment names.
    public var claudeConfigDir: String?
    /// `codex_home`: the account's `CODEX_HOME` (a `codex` account); `nil` for the environment's
    /// (default `~/.codex`).
    public var codexHome: String?
    /// `codex_source`: Codex's usage endpoint (default) or its session logs.
    public var codexSource: CodexSource = .api

    public init(name: String) {
        self.name = name
        self.label = name
    }
}
