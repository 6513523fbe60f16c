import ElbowroomAdapters

/// Every flag, where it goes and what it does: the one source of the parser's list
/// (`ArgumentParser.flags`, for did-you-mean), the three completion scripts, `--help`'s OPTIONS,
/// the OPTIONS of man/elbowroom.1 and the options in docs/commands.md (`scripts/generate` writes
/// the last two). A new flag is its entry here, its case in `ArgumentParser`, and a test.
package enum FlagCatalog {
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
    enum Scope: Equatable { case render, watch, history, fetch, `guard`, serve, doctor, notify, cache, `init`, global }

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
        /// What the manual calls its value (`NAME`, `SECONDS`), when not the one `values` implies.
        var placeholder: String? = nil
        /// The manual's entry, in Markdown (`code`, *emphasis*): on the first entry of each long
        /// flag, and for every scope that flag goes with (`--json`: fetch's and history's).
        var help: String? = nil

        var takesValue: Bool { values != .none }
    }

    static let all: [Flag] = [
        Flag(long: "--adapter", short: "-a", scope: .render, values: .adapters, summary: "output format",
             help: "the output format: " + AdapterRegistry.builtIn.map { "`\($0.name)`" }.joined(separator: ", ")
                 + ", or a plugin (an executable `elbowroom-adapter-NAME` in `~/.config/elbowroom/adapters` or on `PATH`); "
                 + AdapterRegistry.aliasNames.map { "`\($0)`" }.joined(separator: ", ")
                 + " are `i3bar` (its protocol). Default `ansi`: colour on a terminal, plain text otherwise."),
        Flag(long: "--template", short: "-t", scope: .render, values: .templates, summary: "template name or inline text",
             help: "a template name (`elbowroom templates list`) or inline template text, e.g. `-t '[{5h.left}%](level) ({stale}stale {age})'`."),
        Flag(long: "--tooltip", scope: .render, values: .templates, summary: "template for the tooltip or dropdown",
             help: "the template for the tooltip or dropdown (waybar, swiftbar)."),
        Flag(long: "--max-age", scope: .render, values: .free(label: "seconds"),
             summary: "refresh when the data is older than SECONDS", zshSummary: "refresh when the data is older than this",
             help: "refresh when the data is older than this (default 180, from 1 to a year)."),
        Flag(long: "--offline", scope: .render, summary: "never start a fetch",
             help: "never start a fetch; show what the cache has."),
        Flag(long: "--wait", scope: .render, summary: "wait for a due fetch to finish",
             help: "wait for a due fetch to finish before printing (`guard`: before deciding)."),
        Flag(long: "--color", scope: .render, values: .words(label: "when", "auto always never"),
             summary: "when to colour plain/ansi output",
             help: "`auto` (the default: colour on a terminal; `NO_COLOR` and `CLICOLOR_FORCE` respected), `always` or `never`, "
                 + "for `plain` and `ansi`, and for the adapters whose output is shown on a terminal without being written to "
                 + "one (`bash`, `zsh`, `fish`, `claude`); bars always style."),
        Flag(long: "--demo", scope: .render, summary: "render a built-in sample reading",
             help: "render a built-in sample reading (no credentials, no network): handy for trying templates."),
        Flag(long: "--account", scope: .render, values: .accounts, summary: "one account of the config alone",
             help: "one `[accounts.NAME]` of the config alone (render, watch, fetch, doctor, history, notify, cache, guard); "
                 + "without it every account shows, in config order."),
        Flag(long: "--then", scope: .render, values: .free(label: "command"),
             summary: "claude: then run your own status line on the same stdin",
             help: "`claude`: after taking in Claude Code's status line, run COMMAND (your own status line) through `/bin/sh` "
                 + "on the same stdin and show its output too; it has 2 seconds and no credential variable in its "
                 + "environment, and a failing or slow one shows a short reason instead."),
        Flag(long: "--then-position", scope: .render, values: .words(label: "position", "after before none"),
             summary: "where the elbowroom line goes beside the --then output",
             help: "where elbowroom's own line goes beside `--then`'s output: `after` it (the default), `before` it, or "
                 + "`none` (the numbers are still taken in)."),
        Flag(long: "--interval", scope: .watch, values: .free(label: "seconds"), summary: "seconds between frames",
             help: "`watch`: seconds between frames (default 1; fractions allowed, from 0.01 to 3600)."),
        Flag(long: "--notify", scope: .watch, summary: "also send desktop notifications",
             help: "`watch`: also send desktop notifications, as `elbowroom notify` does."),
        Flag(long: "--window", scope: .history, values: .windows, summary: "one window",
             help: "`history`: one window (`5h`, `7d`, `opus`, or an API key); `guard`: a window to check (repeatable; "
                 + "default every window)."),
        Flag(long: "--since", scope: .history, values: .free(label: "duration"), summary: "how far back, such as 24h or 90m",
             help: "`history`: how far back (default 24h; `90m`, `7d`, `1h30m`); past 8 days, one row per day, up to 450 days."),
        Flag(long: "--json", scope: .history, summary: "the samples as JSON", zshExcludes: "(--csv)",
             help: "`fetch`: print the reading as JSON; `history`: the samples (or days, or rows of `--by`) as JSON."),
        Flag(long: "--csv", scope: .history, summary: "the samples as CSV", zshExcludes: "(--json)", zshSameLine: true,
             help: "`history`: the same as CSV."),
        Flag(long: "--chart", scope: .history, summary: "a chart of used % over time, as wide as the terminal",
             help: "`history`: a chart of used % over time, as wide as the terminal (`COLUMNS`), resets marked; past 8 days "
                 + "a point per day at its peak."),
        Flag(long: "--by", scope: .history, values: .words(label: "consumer", "session model project"),
             summary: "points of a window per session, model or project",
             help: "`history`: the points a window (5h unless `--window`) rose, per session (with its project and model), "
                 + "model or project; `elsewhere` is usage no local Claude Code session made."),
        Flag(long: "--daily", scope: .history, summary: "one row per window per day, for up to 450 days",
             help: "`history`: one row per window per day (peak, points used, resets, top consumer), for up to 450 days."),
        Flag(long: "--account", scope: .history, values: .accounts, summary: "one account of the config alone"),
        Flag(long: "--force", scope: .fetch, summary: "ignore max_age and every cooldown",
             help: "`fetch`: ignore `max_age` and every cooldown."),
        Flag(long: "--json", scope: .fetch, summary: "print the reading as JSON"),
        Flag(long: "--verbose", short: "-v", scope: .fetch, summary: "log each step to stderr",
             help: "`fetch`: log each step to stderr (tokens redacted); `claude`: say which status-line values were not data."),
        Flag(long: "--account", scope: .fetch, values: .accounts, summary: "one account of the config alone"),
        Flag(long: "--min-left", scope: .guard, values: .free(label: "percent"), summary: "the least percent left that passes",
             placeholder: "PCT",
             help: "`guard`: pass with at least PCT % left (default: the warn threshold) in every window checked."),
        Flag(long: "--window", scope: .guard, values: .windows, summary: "a window to check (repeatable)"),
        Flag(long: "--wait", scope: .guard, summary: "wait for a due fetch first"),
        Flag(long: "--until", scope: .guard, summary: "wait until enough is left (a reset or fresher data)",
             help: "`guard`: wait until enough is left (a reset passing, or fresher data), then exit 0."),
        Flag(long: "--timeout", scope: .guard, values: .free(label: "duration"), summary: "wait (--until) at most this long, then exit 1",
             help: "`guard --until`: give up after this long (`6h`, `90m`) with exit 1 (implies `--until`)."),
        Flag(long: "--account", scope: .guard, values: .accounts, summary: "one account alone (default: every account)"),
        Flag(long: "--listen", scope: .serve, values: .free(label: "address"), summary: "ADDR:PORT to listen on",
             placeholder: "ADDR:PORT",
             help: "`serve`: where to listen (default `127.0.0.1:9478`; `0.0.0.0:PORT` or `[::]:PORT` to be reachable "
                 + "from other machines; `unix:/PATH` for a Unix socket only you can open, mode 0600)."),
        Flag(long: "--allow-host", scope: .serve, values: .free(label: "host"), summary: "another Host name to answer (repeatable)",
             placeholder: "NAME",
             help: "`serve`: answer requests naming this host too (repeatable; NAME or NAME:PORT); a request naming "
                 + "anything but localhost, 127.0.0.1, [::1] and the address bound gets 421 (against DNS rebinding)."),
        Flag(long: "--account", scope: .doctor, values: .accounts, summary: "one account of the config alone"),
        Flag(long: "--account", scope: .notify, values: .accounts, summary: "one account of the config alone"),
        Flag(long: "--test", scope: .notify, summary: "send one sample through the configured route",
             help: "`notify`: send one sample notification through the configured route (`notify-send` or "
                 + "`notify_command`) and show what it answered."),
        Flag(long: "--account", scope: .cache, values: .accounts, summary: "one account of the config alone"),
        Flag(long: "--keep", scope: .`init`, summary: "init claude: wrap the status line already in settings.json",
             help: "`init claude`: print settings that wrap the `statusLine` already in `settings.json` "
                 + "(`$CLAUDE_CONFIG_DIR` or `~/.claude`) with `--then`."),
        Flag(long: "--write", scope: .`init`, summary: "put the systemd units in ~/.config/systemd/user",
             help: "`init`: put a systemd snippet's unit files in `~/.config/systemd/user` (`$XDG_CONFIG_HOME/systemd/user`) "
                 + "and say the `systemctl` line to run."),
        Flag(long: "--help", short: "-h", scope: .global, summary: "show help", help: "show this help."),
        Flag(long: "--version", short: "-V", scope: .global, summary: "show the version", onlyBeforeCommand: true,
             help: "show the version."),
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
