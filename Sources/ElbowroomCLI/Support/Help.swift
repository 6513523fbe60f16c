import ElbowroomCore
import ElbowroomAdapters

/// `elbowroom --help`: snippets first, details after. The adapter and `init` lists come from the
/// registry and the snippets, the options from `FlagCatalog` (`FlagManual`).
enum Help {
    static let text = """
    elbowroom \(Version.current): how much of your Claude usage windows is left, wherever you look.

    QUICK START
      elbowroom                          # e.g. "5h 63% · 7d 41%": what is LEFT of the 5-hour and
                                         #   weekly windows (display = "used" counts used)
    \(fill(["  elbowroom init waybar              # print a ready snippet (also:"]
                 + IntegrationSnippets.names.filter { $0 != "waybar" }.joined(separator: " ").split(separator: " ").map(String.init),
            indent: "                                    #   ", last: ")"))
      elbowroom doctor                   # is everything set up? one line per part

    USAGE
      elbowroom [render] [-a|--adapter NAME] [-t|--template NAME|TEXT] [--tooltip NAME|TEXT]
                        [--max-age SECONDS] [--offline] [--wait] [--color auto|always|never] [--demo]
      elbowroom -a claude --then 'COMMAND' [--then-position after|before|none]
      elbowroom watch    [-a NAME] [-t ...] [--interval SECONDS] [--notify]
      elbowroom tray     [-t ...] [--tooltip ...] [--account NAME] [--listen ADDR:PORT]
      elbowroom fetch    [--force] [--json]
      elbowroom doctor
      elbowroom templates [list | show NAME | check FILE|TEXT]
      elbowroom adapters
      elbowroom init INTEGRATION [--write]   (init claude --keep: wrap the status line you have)
      elbowroom cache [show | path | clear]
      elbowroom history  [--window NAME] [--since DURATION] [--json|--csv|--chart] [--daily]
                         [--by session|model|project]
      elbowroom notify   [--test]
      elbowroom completions bash|zsh|fish
      elbowroom guard    [--min-left PCT] [--window NAME]... [--account NAME] [--wait]
                         [--until [--timeout DURATION]]
      elbowroom serve    [--listen ADDR:PORT] [--allow-host NAME]...
      elbowroom hook
      elbowroom mcp
      elbowroom --version | --help

    OPTIONS (each names the commands it goes with; the rest go with render and watch)
    \(FlagManual.helpText)

    HISTORY AND NOTIFICATIONS. Every reading is also kept as a sample per window (at most one a
    minute, 8 days) beside the cache: {5h.rate} is the burn rate now (%/h), {5h.spark} a sparkline,
    and eta/pace use the rate. elbowroom notify (for a timer: elbowroom init systemd-notify) and
    watch --notify notify once per crossing: warn, critical, used up, runs out before the reset.
    In the config, [notify] turns each event on or off (warn critical exhausted runs_out reset unused)
    and notify_command = "..." gets each event as JSON on stdin instead of notify-send.

    FOR SCRIPTS, AGENTS AND TEAMS. elbowroom guard --min-left 20 && long-job runs the job
    only with 20 % left (guard --until --timeout 6h waits for it); elbowroom serve answers GET /
    (a dashboard), /metrics (Prometheus), /v1/usage (JSON) and /healthz; elbowroom hook
    (elbowroom init claude-hook) tells Claude Code when a window is low; elbowroom mcp is an
    MCP server on stdio with the tool get_headroom (elbowroom init mcp).

    RENDERING NEVER WAITS ON THE NETWORK. When the cache is older than max_age, elbowroom starts
    itself as elbowroom-fetch in the background and prints what it has; the next prompt shows the
    new data.

    EXIT STATUS
      0 a status was printed (fresh, stale, offline or signed out: the state is in the output)
      1 guard: a window has less left than --min-left (the line on stderr says which)
      2 usage, config or template error (message on stderr); bars and prompts print a
        short visible reason instead and exit 0, since their consumers hide failing commands
      69 guard: no data to decide on (EX_UNAVAILABLE)
      33 i3blocks adapter when critical (i3blocks' urgent code)

    ENVIRONMENT
      CLAUDE_CONFIG_DIR    Claude Code's config dir (default ~/.claude); one cache per dir
      CLAUDE_SECURESTORAGE_CONFIG_DIR  where Claude Code keeps the login, when set
      ELBOWROOM_CONFIG     config file (default $XDG_CONFIG_HOME/elbowroom/config.toml)
      XDG_CONFIG_HOME, XDG_CACHE_HOME, NO_COLOR, CLICOLOR_FORCE
      ELBOWROOM_API_URL    default https://api.anthropic.com (https, or http to loopback only)
      ELBOWROOM_TOKEN_URL  default https://platform.claude.com/v1/oauth/token (same rule)
      ELBOWROOM_CODEX_API_URL  a Codex account's usage endpoint (https, or http to loopback only)
      ELBOWROOM_FETCH      the fetcher to start (default: the elbowroom-fetch link, or itself)
      ELBOWROOM_DEBUG=1    elbowroom-fetch logs each step to stderr, tokens redacted
      ELBOWROOM_NOW        Unix seconds: this process's clock starts there (tests, screenshots)
      SWIFT_BACKTRACE      a crash's backtrace: enable=yes,swift-backtrace=PATH (off unless set)

    SEVERAL ACCOUNTS: [accounts.NAME] tables in the config (provider \(Provider.builtInWords.joined(separator: ", ")) or plugin:NAME;
    label; claude_config_dir, or codex_home and codex_source = "api" or "logs") show every account
    on one line, each with its own cache and fetch; --account NAME picks one. An account's fetcher
    gets ELBOWROOM_ACCOUNT, ELBOWROOM_PROVIDER and ELBOWROOM_CODEX_SOURCE from elbowroom (set by
    hand, they make the environment's own account that one). See docs/accounts-and-agents.md.

    TOKEN-FREE MODE: source = "statusline" in the config never reads the Claude login and never
    touches the network; the data comes from Claude Code's status line (elbowroom init claude).

    """

    /// `words` filled into lines of at most 96 characters, separated by spaces, the lines after
    /// the first starting with `indent`; `last` is appended to the last word, and the word before
    /// `commaBefore` (its first occurrence) gets a comma.
    static func fill(_ words: [String], indent: String, last: String, commaBefore: String? = nil) -> String {
        var words = words
        if let commaBefore, let i = words.firstIndex(of: commaBefore), i > 0 { words[i - 1] += "," }
        if !words.isEmpty { words[words.count - 1] += last }
        var lines: [String] = []
        var line = ""
        for word in words {
            if line.isEmpty {
                line = word
            } else if line.count + 1 + word.count <= 96 {
                line += " " + word
            } else {
                lines.append(line)
                line = indent + word
            }
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
