import ElbowroomCore

/// Which `[accounts.NAME]` a command works on: `--account NAME` alone, else every account in
/// config order, else (no tables) the one the environment names.
struct AccountSelection {
    /// The accounts chosen, each with its context (the account's variables laid over the
    /// environment: its paths, cache, lock and fetcher environment follow); `account` is `nil`
    /// for the environment's own account.
    var parts: [Part]

    /// (A struct, not a tuple: an array of labelled tuples costs a render its runtime metadata.)
    struct Part {
        var account: Account?
        var context: CLIContext
    }

    /// Whether the output shows several accounts side by side.
    var isSeveral: Bool { parts.count > 1 }

    /// `make`, its error said on stderr (`elbowroom: …`; the caller exits 2): `nil` then.
    static func made(_ invocation: Invocation, config: Config, context: CLIContext) -> AccountSelection? {
        switch make(invocation, config: config, context: context) {
        case .success(let selection): return selection
        case .failure(let error):
            context.stderr.write("elbowroom: \(error.message)\n")
            return nil
        }
    }

    static func make(_ invocation: Invocation, config: Config, context: CLIContext) -> Result<AccountSelection, ConfigError> {
        if let name = invocation.account {
            switch config.account(named: name) {
            case .success(let account): return .success(AccountSelection(parts: [Part(account: account, context: context.selecting(account))]))
            case .failure(let error): return .failure(error)
            }
        }
        if config.accounts.isEmpty { return .success(AccountSelection(parts: [Part(account: nil, context: context)])) }
        var parts: [Part] = []
        for account in config.accounts { parts.append(Part(account: account, context: context.selecting(account))) }
        return .success(AccountSelection(parts: parts))
    }
}
