import ElbowroomCore

/// The one switch from an account's provider (`AccountIdentity`, read from the variables the
/// renderer handed over) to how its usage is read (`UsageProvider`).
enum ProviderRegistry {
    static func provider(for identity: AccountIdentity, context: FetchContext, config: Config) throws(FetchError) -> any UsageProvider {
        if let word = identity.unknownProvider {
            context.log("provider \(word), account \(context.accountName ?? "-")")
            throw .config("unknown provider '\(word)'")
        }
        if identity.provider != .claude {
            context.log("provider \(identity.provider.word), account \(context.accountName ?? "-")")
        }
        switch identity.provider {
        case .claude: return ClaudeProvider(context: context, config: config)
        case .codex: return CodexProvider(context: context, config: config, identity: identity)
        case .plugin(let name): return PluginProvider(name: name, context: context, config: config)
        }
    }
}
