/// Every flag, where it goes and what it does: the parser's list (`ArgumentParser.flags`, for
/// did-you-mean) and the three completion scripts are written from it, and tests hold the
/// parser, `--help` and the man page to it.
enum FlagCatalog {
    /// What a flag's value is, for completion.
    enum Values: Equatable {
        case none
        case adapters, templates, windows
        /// The config's `[accounts.NAME]` names.
        case accounts
        /// One of these words; `label` names them in zsh.
        case words(label: String, String)
        /// Free text: `label` names it in zsh (`seconds`, `duration`).
        case free(label: String)
    }

    /// Which commands take it: `render` flags go with `render` and `watch`.
    enum Scope: Equatable { case render, watch, tray, history, fetch, `guard`, serve, doctor, notify, cache, global }

    struct Flag {
        let long: String
        var short: String? = nil
        let scope: Scope
        var values: Values = .none
        /// One line: fish's description, zsh's unless `zshSummary` says otherwise.
        let summary: String
        var zshSummary: String? = nil
        /// Flags this one excludes, as zsh writes it: `(--csv)`.
        var zshExcludes: String? = nil
        /// zsh: on the line of the flag before it.
        var zshSameLine = false
        /// fish: offered only before a command (`--version`).
        var onlyBeforeCommand = false

        var takesValue: Bool { values != .none }
    }

    static let all: [Flag] = [
        Flag(long: "--adapter", short: "-a", scope: .render, values: .adapters, summary: "output format"),
        Flag(long: "--template", short: "-t", scope: .render, values: .templates, summary: "template name or inline text"),
        Flag(long: "--tooltip", scope: .render, values: .templates, summary: "template for the tooltip or dropdown"),
        Flag(long: "--max-age", scope: .render, values: .free(label: "seconds"),
             summary: "refresh when the data is older than SECONDS", zshSummary: "refresh when the data is older than this"),
        Flag(long: "--offline", scope: .render, summary: "never start a fetch"),
        Flag(long: "--wait", scope: .render, summary: "wait for a due fetch to finish"),
        Flag(long: "--color", scope: .render, values: .words(label: "when", "auto always never"),
             summary: "when to colour plain/ansi output"),
        Flag(long: "--demo", scope: .render, summary: "render a built-in sample reading"),
        Flag(long: "--account", scope: .render, values: .accounts, summary: "one account of the config alone"),
        Flag(long: "--interval", scope: .watch, values: .free(label: "seconds"), summary: "seconds between frames"),
        Flag(long: "--notify", scope: .watch, summary: "also send desktop notifications"),
        Flag(long: "--window", scope: .history, values: .windows, summary: "one window"),
        Flag(long: "--since", scope: .history, values: .free(label: "duration"), summary: "how far back, such as 24h or 90m"),
        Flag(long: "--json", scope: .history, summary: "the samples as JSON", zshExcludes: "(--csv)"),
        Flag(long: "--csv", scope: .history, summary: "the samples as CSV", zshExcludes: "(--json)", zshSameLine: true),
        Flag(long: "--account", scope: .history, values: .accounts, summary: "one account of the config alone"),
        Flag(long: "--force", scope: .fetch, summary: "ignore max_age and every cooldown"),
        Flag(long: "--json", scope: .fetch, summary: "print the reading as JSON"),
        Flag(long: "--verbose", short: "-v", scope: .fetch, summary: "log each step to stderr"),
        Flag(long: "--account", scope: .fetch, values: .accounts, summary: "one account of the config alone"),
        Flag(long: "--min-left", scope: .guard, values: .free(label: "percent"), summary: "the least percent left that passes"),
        Flag(long: "--window", scope: .guard, values: .windows, summary: "a window to check (repeatable)"),
        Flag(long: "--wait", scope: .guard, summary: "wait for a due fetch first"),
        Flag(long: "--account", scope: .guard, values: .accounts, summary: "one account alone (default: every account)"),
        Flag(long: "--listen", scope: .serve, values: .free(label: "address"), summary: "ADDR:PORT to listen on"),
        Flag(long: "--listen", scope: .tray, values: .free(label: "address"), summary: "where elbowroom serve listens (Open dashboard)"),
        Flag(long: "--account", scope: .doctor, values: .accounts, summary: "one account of the config alone"),
        Flag(long: "--account", scope: .notify, values: .accounts, summary: "one account of the config alone"),
        Flag(long: "--account", scope: .cache, values: .accounts, summary: "one account of the config alone"),
        Flag(long: "--help", short: "-h", scope: .global, summary: "show help"),
        Flag(long: "--version", short: "-V", scope: .global, summary: "show the version", onlyBeforeCommand: true),
    ]

    /// Every long flag once, in catalog order.
    static var longs: [String] {
        var out: [String] = []
        for flag in all where !out.contains(flag.long) { out.append(flag.long) }
        return out
    }

    static func flags(_ scope: Scope) -> [Flag] { all.filter { $0.scope == scope } }

    /// `-a --adapter`: the short spelling, then the long.
    static func spellings(_ flag: Flag) -> [String] { (flag.short.map { [$0] } ?? []) + [flag.long] }
}
