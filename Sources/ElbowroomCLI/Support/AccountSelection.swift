import ElbowroomCore

/// The accounts a command works on, each with its context, chosen by the one rule
/// (`Config.accounts(chosenBy:)`: `--account NAME` alone, else every `[accounts.NAME]` in config
/// order, else the environment's own). One account is a list of one: `watch`, `serve`, `tray`,
/// `guard`, `mcp` and the per-account commands run one loop over `parts` for one or several.
/// (A render takes the chosen `[Account]` itself: an array of `Part` would cost it metadata.)
struct AccountSelection {
    /// The accounts chosen, each with its context (the account's variables laid over the
    /// environment: its paths, cache, lock and fetcher environment follow); `account` is `nil`
    /// for the environment's own account.
    var parts: [Part]

    /// (A struct, not a tuple: an array of labelled tuples costs its runtime metadata.)
    struct Part {
        var account: Account?
        var context: CLIContext
    }

    /// Whether the output shows several accounts side by side.
    var isSeveral: Bool { parts.count > 1 }

    /// The accounts `name` (`--account`) chooses from `config`, or why none.
    init(choosing name: String?, config: Config, context: CLIContext) throws(ConfigError) {
        let chosen = try config.accounts(chosenBy: name)
        parts = chosen.isEmpty ? [Part(account: nil, context: context)]
            : chosen.map { Part(account: $0, context: context.selecting($0)) }
    }

    /// The selection, its error said on stderr (`elbowroom: …`; the caller exits 2): `nil` then.
    static func made(_ invocation: Invocation, config: Config, context: CLIContext) -> AccountSelection? {
        do {
            return try AccountSelection(choosing: invocation.account, config: config, context: context)
        } catch {
            context.stderr.write("elbowroom: \(error.message)\n")
            return nil
        }
    }
}
