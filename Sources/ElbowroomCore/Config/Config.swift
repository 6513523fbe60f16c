// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// Who may refresh Claude Code's access token (refresh tokens rotate: two refreshers at once log
/// users out). Both `auto` and `always` refresh under Claude Code's own refresh locks, so a
/// running Claude Code adopts the new tokens and never races them (docs/fetching.md).
public enum RefreshMode: String, Sendable, CaseIterable {
    /// Under Claude Code's locks, also while it runs; where the locks cannot be made (a
    /// read-only directory) only while no Claude Code process of this user runs.
    case auto
    /// Under Claude Code's locks; where they cannot be made, regardless.
    case always
    /// Never: an expired token waits for Claude Code.
    case never
}

/// What a window shows once its `resets_at` has passed and no newer number came.
public enum ResetPolicy: String, Sendable, CaseIterable {
    /// As reset: 0 % used, 100 % left. Right whenever the account was idle since (the usual
    /// case), but a session that kept working after the reset has really used some of the new window.
    case reset
    /// As unknown: the window has no number until new data comes (its parts of a template
    /// disappear). Never claims headroom it cannot know, at the price of blank spots.
    case unknown
}

/// Which number the shipped templates show for a window (and Claude Code's context).
public enum Display: String, Sendable, CaseIterable {
    /// Headroom left: `5h 63%` is 63 % of the session still to use.
    case left
    /// Used, as Claude Code's `/usage` counts: `5h 37%` is 37 % of the session gone.
    case used

    /// One sentence for where the line is first shown (`--demo`, `init`).
    public var meaning: String {
        switch self {
        case .left: "the percentages are what is left of each window (100% = untouched); display = \"used\" in config.toml shows what is used, as Claude Code's /usage does"
        case .used: "the percentages are how much of each window is used (display = \"used\" in config.toml), as Claude Code's /usage counts"
        }
    }
}

/// elbowroom's configuration: `$ELBOWROOM_CONFIG`, default `$XDG_CONFIG_HOME/elbowroom/config.toml`.
/// Every key is optional; command-line flags override the file. This table is the manual:
/// scripts/generate copies it into docs/configuration.md and man/elbowroom.5, with a provider's own
/// `[accounts.NAME]` keys appended from their table in Provider.swift (`ProviderSettings`).
///
/// | key | default | meaning |
/// |---|---|---|
/// | `max_age` | `180` | seconds before a refresh is due (1 s to a year) |
/// | `stale_after` | `900` | seconds before the display calls the data stale |
/// | `refresh` | `"auto"` | `auto` / `always` / `never`: who may refresh Claude Code's token, under Claude Code's own locks ([fetching](fetching.md#token-refresh-joining-claude-codes-own-locks)) |
/// | `timeout` | `10` | seconds for one request |
/// | `user_agent` | `"claude-cli/2.1.331 (external, cli)"` | the agent string sent to the usage api and the token endpoint, as Claude Code sends it: change it only to follow a server change |
/// | `source` | `"api"` | `api`, or `statusline`: never read the login or touch the network ([token-free mode](#token-free-mode-source--statusline)) |
/// | `display` | `"left"` | `left` or `used`: what the shipped templates' percentages count — headroom left (`5h 63%`: 63 % still to use) or used, as Claude Code's `/usage` shows (`5h 37%`); Claude Code's context follows, so a line has one meaning. Colours stay on what is left ([templates](templates.md#left-or-used-display)) |
/// | `reset_policy` | `"reset"` | `reset` or `unknown`: what a window shows once its reset time has passed and no newer number came ([below](#after-a-reset-reset_policy)) |
/// | `notify_command` | — | a shell command run with each notification as JSON on stdin, instead of `notify-send` / `osascript` ([notifications](history-and-notifications.md#your-own-command-notify_command)) |
/// | `[notify] warn`, `critical`, `exhausted`, `runs_out`, `reset`, `unused`, `elsewhere` | `true` (`reset`: `false`) | which events notify ([notifications](history-and-notifications.md#notifications)) |
/// | `[notify] unused_before` | `"1h"` | `unused` notifies when a window resets within this long (`"90m"`, `"2h"`, or seconds) |
/// | `[notify] unused_left` | `50` | … with at least this much (%) left |
/// | `[notify] elsewhere_points` | `5` | how many points a window must rise while no local Claude Code session spends before `elsewhere` notifies (0.1 to 100) ([usage from elsewhere](history-and-notifications.md#usage-from-elsewhere)) |
/// | `[thresholds] warn` | `25` | headroom left (%) at or below which a window is `warn` |
/// | `[thresholds] critical` | `10` | headroom left (%) at or below which a window is `critical` |
/// | `[templates] <adapter>` | — | a template name or inline text for that adapter; `default` for all, `tooltip` for tooltips ([templates](templates.md)) |
/// | `[colors] ok`, `warn`, `critical`, `stale`, `dim` | chosen per consumer's default theme ([table](adapters.md#colours)) | colour of each style: a name, `#rrggbb`, 0-255, optionally a background (`black bg:yellow`), or `default` (also `none`) for the consumer's own; replaces the default's colour and background |
/// | `[colors.ADAPTER] ok`, … | — | the same for one adapter only (`[colors.tmux]`, `[colors.waybar]`), over `[colors]` |
/// | `[accounts.NAME] provider` | `"claude"` | where this account's usage comes from: a word of the [table of providers](accounts-and-agents.md#providers) (`claude`, `codex`, …) or `plugin:NAME` |
/// | `[accounts.NAME] label` | the name | what the line shows before the account's part: `W` |
public struct Config: Sendable, Equatable {
    public var maxAge: TimeInterval = 180
    public var staleAfter: TimeInterval = 900
    public var refresh: RefreshMode = .auto
    public var timeout: TimeInterval = 10
    /// `user_agent`; `nil` for the built-in one.
    public var userAgent: String?
    public var thresholds = Thresholds()
    /// Adapter name (or `default`, `tooltip`) → template name or inline text.
    public var templates = StringTable()
    /// Semantic style name → colour spec, e.g. `ok = "green"`, `warn = "#ffaa00"`.
    public var colors = StringTable()
    /// The file it came from, when there was one.
    public var source: String?
    /// `source`: where usage numbers come from.
    public var usageSource: UsageSource = .api
    /// `display`: left or used, in the shipped templates.
    public var display: Display = .left
    /// `reset_policy`: a window past its reset with no newer data.
    public var resetPolicy: ResetPolicy = .reset
    /// `notify_command`: a shell command that receives each notification as JSON on stdin.
    public var notifyCommand: String?
    /// `[notify]`: which events notify.
    public var notify = NotifySettings()
    /// `[accounts.NAME]` tables in file order; empty: one account, the environment's.
    public var accounts: [Account] = []

    public init() {}

    /// The accounts a command works on, by the one rule every command follows (render, `watch`,
    /// `serve`, `guard`, `tray`, `mcp`, `fetch`, `doctor`, …): the account `name` names
    /// (`--account NAME`) alone, else every `[accounts.NAME]` in file order; empty: no tables, the
    /// environment's own account. An unknown name is an error naming the accounts there are.
    /// (A plain array of `Account`, the type the config already holds: a render pays no metadata for it.)
    public func accounts(chosenBy name: String?) throws(ConfigError) -> [Account] {
        guard let name else { return accounts }
        for account in accounts where account.name == name { return [account] }
        let shown = SafeText.clean(name, lines: .join)
        let why = accounts.isEmpty
            ? "unknown account '\(shown)': the config has no [accounts.NAME] tables"
            : "unknown account '\(shown)'\(Suggest.hint(for: name, in: accounts.map(\.name))); accounts: \(accounts.map(\.name).joined(separator: ", "))"
        throw ConfigError(file: source ?? "config", line: 1, column: 1, message: why)
    }

    public static let semanticColorKeys = ["ok", "warn", "critical", "stale", "dim"]

    /// The largest config file, in bytes (256 KiB): a real one is under 2 KiB.
    public static let maxFileBytes = 262_144

    /// Loads the config file; a missing file is the defaults, a broken one an error.
    public static func load(paths: Paths) throws(ConfigError) -> Config {
        let file = paths.configFile
        var missing = false
        guard let data = FileSystem.readBytes(file, limit: maxFileBytes, missing: &missing) else {
            if missing { return Config() }
            if let size = FileSystem.size(of: file), size > maxFileBytes { throw tooLarge(size, file: file) }
            throw ConfigError(file: file, line: 1, column: 1, message: "cannot read the config file")
        }
        guard let text = utf8Text(data) else {
            throw ConfigError(file: file, line: 1, column: 1, message: "the config file is not UTF-8 text")
        }
        var config = try parse(text, file: file)
        config.text = KeptText(text)
        return config
    }

    /// The file's text, kept as long as the config (a render keeps its config to the process's
    /// end and exits without freeing it): the first free of a String of 64 bytes or more makes
    /// the runtime build `Optional<_StringBreadcrumbs>`'s metadata, ~31 k instructions, a tenth
    /// of a render (docs/performance.md). No part of what the config says: equal whatever it holds.
    public var text = KeptText("")

    /// A value a config carries along without it counting in `==`.
    public struct KeptText: Sendable, Equatable {
        let value: String
        init(_ value: String) { self.value = value }
        public static func == (a: KeptText, b: KeptText) -> Bool { true }
    }

    /// `String(data: data, encoding: .utf8)`: a UTF-8 byte order mark dropped, anything that is
    /// not UTF-8 refused; without Foundation's generic path, which cost every render with a
    /// config file ~5 k instructions (`ConfigTests` holds the two equal).
    static func utf8Text(_ data: [UInt8]) -> String? {
        data.withUnsafeBufferPointer { all in
            var bytes = all
            if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
                bytes = UnsafeBufferPointer(rebasing: bytes[3...])
            }
            return String._tryFromUTF8(bytes)
        }
    }

    static func tooLarge(_ size: Int, file: String) -> ConfigError {
        ConfigError(file: file, line: 1, column: 1,
                    message: "config file too large: \(size) bytes, at most \(maxFileBytes) (256 KiB)")
    }

    /// Parses config text; more than `maxFileBytes` of it is an error.
    public static func parse(_ text: String, file: String) throws(ConfigError) -> Config {
        let size = text.utf8.count
        guard size <= maxFileBytes else { throw tooLarge(size, file: file) }
        var config = Config()
        config.source = file
        // Entry by entry as the parser reads them (no array of entries: see `TOMLSubset.parse`).
        // A syntax error anywhere in the file is the error, before any entry's; else the first
        // entry's error is.
        var failure: ConfigError?
        do throws(TOMLSubset.ParseError) {
            try TOMLSubset.parse(text) { entry in
                guard failure == nil else { return }
                do throws(ConfigError) {
                    try config.apply(entry, file: file)
                } catch {
                    failure = error
                }
            }
        } catch {
            throw ConfigError(file: file, line: error.line, column: error.column, message: error.message)
        }
        if let failure { throw failure }
        // (The entries, to say where an error is: looked for only on the error.)
        var entries: [TOMLSubset.Entry] { (try? TOMLSubset.parse(text)) ?? [] }
        for account in config.accounts {
            // A provider's own key on an account of another provider (`ProviderSettings.firstKeySet`).
            for word in Provider.builtInWords {
                guard let other = Provider(word), other != account.provider,
                      let key = account.settings.firstKeySet(of: other) else { continue }
                // (Looked for only on the error: every render with accounts parses the config.)
                let entry = entries.first { $0.table == "accounts." + account.name }
                throw ConfigError(file: file, line: entry?.line ?? 1, column: 1,
                                  message: "accounts.\(account.name): \(key) goes with provider = \"\(word)\"")
            }
        }
        if config.thresholds.critical > config.thresholds.warn {
            let entry = entries.first { $0.table == "thresholds" && $0.key == "critical" }
            throw ConfigError(file: file, line: entry?.line ?? 1, column: entry?.valueColumn ?? 1,
                              message: "thresholds.critical (\(Int(config.thresholds.critical))) must not be above thresholds.warn (\(Int(config.thresholds.warn)))")
        }
        return config
    }

    static let rootKeys = ["max_age", "stale_after", "refresh", "timeout", "source", "display", "reset_policy", "notify_command", "user_agent"]
    /// A year: the upper bound of every duration (so no arithmetic on them can overflow).
    public static let maxSeconds: Double = 31_536_000
    static let tables = ["thresholds", "templates", "colors", "notify", "accounts.NAME"]
    /// `[accounts.NAME]`'s keys: its own, then every provider's (`ProviderSettings.keys`).
    static let accountKeys = ["provider", "label"] + ProviderSettings.keys

    /// Whether `table` is an `[accounts.NAME]`: on bytes (the parser's table names are bare
    /// keys, ASCII, where that is what `hasPrefix` says; it cost ~250 instructions a key).
    static func isAccountTable(_ table: String) -> Bool {
        var table = table
        return table.withUTF8 { bytes in
            let prefix: StaticString = "accounts."
            guard bytes.count >= prefix.utf8CodeUnitCount else { return false }
            for i in 0..<prefix.utf8CodeUnitCount where bytes[i] != prefix.utf8Start[i] { return false }
            return true
        }
    }

    /// Where `[accounts.NAME]`'s account is in `accounts`, added at its first key: found by the
    /// name's bytes in the table's (no `String` made of the name but for a new account).
    private mutating func accountIndex(_ table: String) -> Int {
        var table = table
        let found: Int? = table.withUTF8 { bytes in
            let name = UnsafeBufferPointer(rebasing: bytes[9...])
            for i in accounts.indices {
                var other = accounts[i].name
                let same = other.withUTF8 { bytes in
                    guard bytes.count == name.count else { return false }
                    for k in 0..<bytes.count where bytes[k] != name[k] { return false }
                    return true
                }
                if same { return i }
            }
            return nil
        }
        if let found { return found }
        // Room for a few accounts at once (the first append's array, not one doubling at a time).
        if accounts.isEmpty { accounts.reserveCapacity(4) }
        accounts.append(Account(name: String(decoding: table.utf8.dropFirst(9), as: UTF8.self)))
        return accounts.count - 1
    }

    private mutating func apply(_ e: TOMLSubset.Entry, file: String) throws(ConfigError) {
        let value = ConfigValue(entry: e, file: file)
        func fail(_ message: String, atValue: Bool = true) -> ConfigError { value.fail(message, atValue: atValue) }
        func number(min: Double, max: Double) throws(ConfigError) -> Double { try value.number(min: min, max: max) }
        func string() throws(ConfigError) -> String { try value.string() }
        switch (e.table, e.key) {
        // First, as no other case matches these tables: a config of several accounts is mostly
        // their keys, and every case before theirs would be a string comparison for each.
        case (let table, let key) where Self.isAccountTable(table):
            let i = accountIndex(table)
            let name = accounts[i].name
            switch key {
            case "label":
                let label = try string()
                guard !label.isEmpty, label.utf8.count <= 64, SafeText.clean(label, lines: .join) == label else {
                    throw fail("'accounts.\(name).label' must be 1 to 64 bytes of text without controls or line breaks")
                }
                accounts[i].label = label
            case "provider":
                let word = try string()
                guard let provider = Provider(word) else {
                    let words = Provider.builtInWords.map { "\"" + $0 + "\"" }.joined(separator: ", ")
                    throw fail("'accounts.\(name).provider' must be \(words) or \"plugin:NAME\" (NAME of a-z, 0-9, _ and -), not \"\(word)\"")
                }
                accounts[i].provider = provider
            default:
                // A provider's own key, read where the provider is (Provider.swift).
                guard try accounts[i].settings.read(key, value, account: name) else {
                    throw fail("unknown key 'accounts.\(name).\(key)'\(Suggest.hint(for: key, in: Self.accountKeys))", atValue: false)
                }
            }
        case ("", "max_age"): maxAge = try number(min: 1, max: Self.maxSeconds)
        case ("", "stale_after"): staleAfter = try number(min: 1, max: Self.maxSeconds)
        case ("", "timeout"): timeout = try number(min: 0.1, max: 600)
        case ("", "refresh"):
            let word = try string()
            guard let mode = RefreshMode(rawValue: word) else {
                throw fail("refresh must be \"auto\", \"always\" or \"never\", not \"\(word)\"")
            }
            refresh = mode
        case ("", "source"):
            let word = try string()
            guard let mode = UsageSource(rawValue: word) else {
                throw fail("source must be \"api\" or \"statusline\", not \"\(word)\"")
            }
            usageSource = mode
        case ("", "display"):
            let word = try string()
            guard let shown = Display(rawValue: word) else {
                throw fail("display must be \"left\" or \"used\", not \"\(word)\"")
            }
            display = shown
        case ("", "reset_policy"):
            let word = try string()
            guard let policy = ResetPolicy(rawValue: word) else {
                throw fail("reset_policy must be \"reset\" or \"unknown\", not \"\(word)\"")
            }
            resetPolicy = policy
        case ("", "user_agent"):
            let agent = try string()
            guard !agent.isEmpty, agent.utf8.count <= 200, agent.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
                throw fail("user_agent must be 1 to 200 printable ASCII characters")
            }
            userAgent = agent
        case ("", "notify_command"):
            let command = try string()
            notifyCommand = command.isEmpty ? nil : command
        case ("notify", "unused_before"):
            if case .number = e.value {
                notify.unusedBefore = try number(min: 1, max: Self.maxSeconds)
            } else {
                let text = try string()
                guard let seconds = DurationArgument.parse(text), seconds <= Self.maxSeconds else {
                    throw fail("'notify.unused_before' must be a duration such as \"1h\", \"90m\" or \"2h30m\", not \"\(text)\"")
                }
                notify.unusedBefore = seconds
            }
        case ("notify", "unused_left"): notify.unusedLeft = try number(min: 0, max: 100)
        case ("notify", let key) where NotifyKind(rawValue: key) != nil:
            guard case .bool(let on) = e.value else {
                throw fail("'notify.\(key)' must be true or false, not \(e.value.typeName)")
            }
            notify.set(NotifyKind(rawValue: key)!, on)
        case ("notify", "elsewhere_points"): notify.elsewherePoints = try number(min: 0.1, max: 100)
        case ("notify", let key):
            throw fail("unknown key 'notify.\(key)'\(Suggest.hint(for: key, in: NotifyKind.allCases.map(\.rawValue) + ["unused_before", "unused_left", "elsewhere_points"]))", atValue: false)
        case ("thresholds", "warn"): thresholds.warn = try number(min: 0, max: 100)
        case ("thresholds", "critical"): thresholds.critical = try number(min: 0, max: 100)
        case ("templates", _): templates[e.key] = try string()
        case (let table, let key) where (table == "colors" || table.hasPrefix("colors.")) && Self.semanticColorKeys.contains(key):
            let spec = try string()
            let name = table == "colors" ? key : String(table.dropFirst("colors.".count)) + "." + key
            if !Palette.meansNoColor(spec) {
                let parsed: StyleSpec.Parsed
                do {
                    parsed = try StyleSpec.parse(spec)
                } catch {
                    throw fail("colors.\(name): \(error.message)")
                }
                guard parsed.style.foreground != nil else {
                    throw fail("colors.\(name) must be a colour (a name, #rrggbb or 0-255; bg:COLOUR after it for a background), or \"default\" for the consumer's own, not \"\(spec)\"")
                }
            }
            colors[name] = spec
        case ("", let key):
            throw fail("unknown key '\(key)'\(Suggest.hint(for: key, in: Self.rootKeys + Self.tables))", atValue: false)
        case ("thresholds", let key):
            throw fail("unknown key 'thresholds.\(key)'\(Suggest.hint(for: key, in: ["warn", "critical"]))", atValue: false)
        case (let table, let key) where table == "colors" || table.hasPrefix("colors."):
            throw fail("unknown colour '\(key)'\(Suggest.hint(for: key, in: Self.semanticColorKeys)); colours are set for ok, warn, critical, stale, dim", atValue: false)
        case (let table, _):
            throw ConfigError(file: file, line: e.line, column: 1,
                              message: "unknown table [\(table)]\(Suggest.hint(for: table, in: Self.tables))")
        }
    }
}

/// One entry of the config file, read with the config's error texts: by `Config` and by a
/// provider's own keys (`ProviderSettings.read`).
struct ConfigValue {
    let entry: TOMLSubset.Entry
    let file: String

    /// An error at the entry's value (`atValue`) or at its key.
    func fail(_ message: String, atValue: Bool = true) -> ConfigError {
        ConfigError(file: file, line: entry.line, column: atValue ? entry.valueColumn : entry.column, message: message)
    }

    func number(min: Double, max: Double) throws(ConfigError) -> Double {
        guard case .number(let n) = entry.value else {
            throw fail("'\(entry.key)' must be a number, not \(entry.value.typeName)")
        }
        guard n >= min && n <= max else {
            func text(_ v: Double) -> String { v == v.rounded() ? "\(Int(v))" : "\(v)" }
            throw fail("'\(entry.key)' must be between \(text(min)) and \(text(max))")
        }
        return n
    }

    func string() throws(ConfigError) -> String {
        guard case .string(let s) = entry.value else {
            throw fail("'\(entry.key)' must be a string, not \(entry.value.typeName)")
        }
        return s
    }

    /// A directory of `[accounts.NAME]`: an absolute path, `~` or `~/…` (`Account.environment(over:)`
    /// spells `~` out).
    func directory(account name: String) throws(ConfigError) -> String {
        let dir = try string()
        guard dir.hasPrefix("/") || dir == "~" || dir.hasPrefix("~/") else {
            throw fail("'accounts.\(name).\(entry.key)' must be an absolute path (or start with ~/)")
        }
        return dir
    }
}

/// A config file problem, printed as `file:line:column: error: message`.
public struct ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int
    public var message: String

    public var description: String { "\(file):\(line):\(column): error: \(message)" }
}
