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
    /// The keys that belong to one provider (`claude_config_dir`, `codex_home`, …): declared, read
    /// and documented with the provider, in `Provider.swift`.
    public var settings = ProviderSettings()

    public init(name: String) {
        self.name = name
        self.label = name
    }
}
