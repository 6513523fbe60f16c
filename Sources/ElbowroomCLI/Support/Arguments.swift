// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore
import ElbowroomAdapters

/// The parsed command line. See `Help.text` for the contract.
public struct Invocation: Equatable, Sendable {
    public enum Command: Equatable, Sendable {
        case render
        case watch
        case fetch(force: Bool, json: Bool)
        case doctor
        case templates(TemplatesAction)
        case adapters
        case initSnippet(String)
        case cache(CacheAction)
        case history(HistoryOptions)
        case notify
        case completions(CompletionsAction)
        case guardCheck(GuardOptions)
        case serve(listen: String?, allowHosts: [String] = [])
        /// `tray [--listen ADDR:PORT]`: where `serve` listens, for the menu's "Open dashboard".
        case tray(listen: String?)
        case hook
        case mcp
        case version
        case help
    }

    public enum TemplatesAction: Equatable, Sendable {
        case list
        case show(String)
        case check(String)
    }

    public enum CacheAction: String, Equatable, Sendable {
        case show, path, clear
    }

    /// `elbowroom history [--window NAME] [--since DURATION] [--json|--csv|--chart] [--by session|model|project] [--daily]`.
    public struct HistoryOptions: Equatable, Sendable {
        public enum Format: Equatable, Sendable { case text, json, csv, chart }
        public var window: String?
        public var since: TimeInterval = 86400
        public var format: Format = .text
        /// `--by`: points per consumer (`HistoryAttribution`).
        public var by: AttributionReport.By?
        /// `--daily`: one row per window per day (`HistoryDaily`).
        public var daily = false
        /// `--color`, for `--chart`.
        public var color: ColorMode = .auto
    }

    /// `elbowroom guard [--min-left PCT] [--window NAME]… [--until [--timeout DURATION]]`: `minLeft`
    /// `nil` is the warn threshold, no windows is every window; `until` waits for headroom.
    public struct GuardOptions: Equatable, Sendable {
        public var minLeft: Double?
        public var windows: [String] = []
        public var until = false
        public var timeout: TimeInterval?
    }

    public enum CompletionsAction: Equatable, Sendable {
        /// `completions bash|zsh|fish`: the script.
        case script(String)
        /// `completions --list adapters|templates|init` (hidden): names the scripts offer, read at completion time.
        case list(String)
    }

    public var command: Command = .render
    public var adapter: String?
    public var template: String?
    public var tooltip: String?
    public var maxAge: TimeInterval?
    public var offline = false
    public var wait = false
    public var color: ColorMode = .auto
    public var demo = false
    /// `-a claude --then COMMAND`: the user's own status line, run after the ingest with the same
    /// stdin (`StatusLineChain`).
    public var then: String?
    /// `--then-position`: where elbowroom's own line goes beside COMMAND's output.
    public var thenPosition: ThenPosition = .after
    /// `init claude --keep`: wrap the status line already in settings.json.
    public var keepStatusLine = false
    /// `watch --interval`, seconds (fractions allowed).
    public var interval: TimeInterval = 1
    public var verbose = false
    /// `watch --notify`: also send desktop notifications (as `elbowroom notify` does).
    public var notify = false
    /// `--account NAME`: that `[accounts.NAME]` of the config alone.
    public var account: String?
    /// `init NAME --write`: put a systemd snippet's unit files in place instead of printing them.
    public var writeUnits = false
    /// `notify --test`: send one sample notification through the configured route.
    public var sendTest = false
}

/// Where `--then`'s render puts elbowroom's own line: after COMMAND's output (the default),
/// before it, or nowhere (the ingest alone).
public enum ThenPosition: String, Equatable, Sendable {
    case before, after, none
}

/// A usage error: printed to stderr with exit status 2.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

public enum ArgumentParser {
    static var commands: [String] { CommandCatalog.names }
    /// Every long flag (`FlagCatalog`), for did-you-mean.
    static var flags: [String] { FlagCatalog.longs }
    /// Flags that belong to some commands only, and where to point a user who gave one elsewhere;
    /// `nil` for the others. (A switch, not a static array: every render parses its flags, and
    /// a table of tuples costs its first use ~40 k instructions of generic metadata.)
    static func commandsTaking(_ flag: String) -> (commands: [String], goesWith: String)? {
        switch flag {
        case "--force": (["fetch"], "'elbowroom fetch'")
        case "--json": (["fetch", "history"], "'elbowroom fetch' or 'elbowroom history'")
        case "--csv", "--chart": (["history"], "'elbowroom history'")
        case "--window": (["history", "guard"], "'elbowroom history' or 'elbowroom guard'")
        case "--min-left", "--until", "--timeout": (["guard"], "'elbowroom guard'")
        case "--then", "--then-position": (["render"], "a render for Claude Code's status line: elbowroom -a claude --then 'COMMAND'")
        case "--keep": (["init"], "'elbowroom init claude --keep'")
        case "--listen": (["serve", "tray"], "'elbowroom serve' or 'elbowroom tray'")
        case "--allow-host": (["serve"], "'elbowroom serve'")
        case "--since": (["history"], "'elbowroom history'")
        case "--by", "--daily": (["history"], "'elbowroom history'")
        case "--notify": (["watch"], "'elbowroom watch' (or run 'elbowroom notify')")
        case "--list": (["completions"], "'elbowroom completions'")
        case "--write": (["init"], "'elbowroom init NAME' (a systemd snippet)")
        case "--test": (["notify"], "'elbowroom notify'")
        case "--account": (["render", "watch", "tray", "fetch", "doctor", "history", "notify", "cache", "guard"],
                           "a command that reads usage (render, watch, tray, fetch, doctor, history, notify, cache, guard)")
        default: nil
        }
    }

    /// Where the first `=` of `--flag=value` is, as `firstIndex(of: "=")` finds it: on bytes while
    /// they are ASCII (each its own character; a `Character` search walks grapheme clusters in
    /// code a render otherwise never runs), by `Character`s from the first byte past ASCII, or
    /// when a mark follows the `=` (the two are then one character, which no `=` equals).
    static func equalsSign(in arg: String) -> String.Index? {
        let utf8 = arg.utf8
        var i = utf8.startIndex
        while i != utf8.endIndex {
            let byte = utf8[i]
            if byte >= 0x80 { return arg.firstIndex(of: "=") }
            let next = utf8.index(after: i)
            if byte == UInt8(ascii: "=") {
                return next == utf8.endIndex || utf8[next] < 0x80 ? i : arg.firstIndex(of: "=")
            }
            i = next
        }
        return nil
    }

    public static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        var invocation = Invocation()
        var rest = ArraySlice(arguments)
        var positional: [String] = []
        var force = false
        var json = false
        var commandName: String?
        var history = Invocation.HistoryOptions()
        var completionList: String?
        var guardOptions = Invocation.GuardOptions()
        var listen: String?
        var allowHosts: [String] = []
        var chart = false
        var given: [String] = []

        func value(for flag: String) throws(UsageError) -> String {
            guard let next = rest.popFirst() else { throw UsageError("\(flag) needs a value") }
            return next
        }
        func seconds(_ text: String, flag: String, minimum: Double, maximum: Double) throws(UsageError) -> Double {
            guard let n = Double(text), n.isFinite, n >= minimum, n <= maximum else {
                throw UsageError("\(flag) takes a number of seconds from \(minimum == 1 ? "1" : "\(minimum)") to \(Int(maximum)), not '\(text)'")
            }
            return n
        }

        while let arg = rest.popFirst() {
            var flag = arg
            var inline: String?
            if ASCIIAffix.hasPrefix(arg, "--"), let eq = Self.equalsSign(in: arg) {
                flag = String(decoding: arg.utf8[..<eq], as: UTF8.self)
                inline = String(decoding: arg.utf8[arg.utf8.index(after: eq)...], as: UTF8.self)
            }
            func take() throws(UsageError) -> String {
                if let inline { return inline }
                return try value(for: flag)
            }
            given.append(flag)
            switch flag {
            case "-a", "--adapter": invocation.adapter = try take()
            case "-t", "--template": invocation.template = try take()
            case "--tooltip": invocation.tooltip = try take()
            case "--max-age": invocation.maxAge = try seconds(try take(), flag: "--max-age", minimum: 1, maximum: Config.maxSeconds)
            case "--interval": invocation.interval = try seconds(try take(), flag: "--interval", minimum: 0.01, maximum: 3600)
            case "--offline": invocation.offline = true
            case "--wait": invocation.wait = true
            case "--demo": invocation.demo = true
            case "--force": force = true
            case "--list": completionList = try take()
            case "--json": json = true
            case "--csv": history.format = .csv
            case "--chart": chart = true
            case "--window":
                let name = try take()
                history.window = name
                guardOptions.windows.append(name)
            case "--min-left":
                let text = try take()
                guard let n = Double(text), n.isFinite, n >= 0, n <= 100 else {
                    throw UsageError("--min-left takes a percentage from 0 to 100, not '\(text)'")
                }
                guardOptions.minLeft = n
            case "--until": guardOptions.until = true
            case "--timeout":
                let text = try take()
                guard let seconds = DurationArgument.parse(text), seconds <= Config.maxSeconds else {
                    throw UsageError("--timeout takes a duration such as 6h, 90m or 1h30m, not '\(text)'")
                }
                guardOptions.timeout = seconds
            case "--listen": listen = try take()
            case "--allow-host": allowHosts.append(try take())
            case "--then": invocation.then = try take()
            case "--then-position":
                let word = try take()
                guard let position = ThenPosition(rawValue: word) else {
                    throw UsageError("--then-position takes before, after or none, not '\(word)'")
                }
                invocation.thenPosition = position
            case "--keep": invocation.keepStatusLine = true
            case "--since":
                let text = try take()
                guard let seconds = DurationArgument.parse(text), seconds <= Double(DailySummary.keepDays * 86400) else {
                    throw UsageError("--since takes a duration such as 24h, 90m, 7d or 1h30m (at most 450d), not '\(text)'")
                }
                history.since = seconds
            case "--by":
                let word = try take()
                guard let by = AttributionReport.By(rawValue: word) else {
                    throw UsageError("--by takes session, model or project, not '\(word)'")
                }
                history.by = by
            case "--daily": history.daily = true
            case "--notify": invocation.notify = true
            case "--write": invocation.writeUnits = true
            case "--test": invocation.sendTest = true
            case "--account": invocation.account = try take()
            case "-v", "--verbose": invocation.verbose = true
            case "--color":
                let word = try take()
                guard let mode = ColorMode(rawValue: word) else {
                    throw UsageError("--color takes auto, always or never, not '\(word)'")
                }
                invocation.color = mode
            case "--version", "-V": invocation.command = .version; return invocation
            case "--help", "-h": invocation.command = .help; return invocation
            case "--": positional.append(contentsOf: rest); rest = []
            default:
                if arg.hasPrefix("-") && arg.count > 1 {
                    throw UsageError("unknown option '\(flag)'\(Suggest.hint(for: flag, in: flags))")
                }
                if commandName == nil && positional.isEmpty && commands.contains(arg) {
                    commandName = arg
                } else if commandName == nil && positional.isEmpty {
                    throw UsageError("unknown command '\(arg)'\(Suggest.hint(for: arg, in: commands)); see 'elbowroom --help'")
                } else {
                    positional.append(arg)
                }
            }
        }

        func noPositional() throws(UsageError) {
            if let extra = positional.first {
                throw UsageError("unexpected argument '\(extra)' for '\(commandName ?? "render")'")
            }
        }
        switch commandName ?? "render" {
        case "render":
            try noPositional()
        case "watch":
            try noPositional()
            invocation.command = .watch
        case "fetch":
            try noPositional()
            invocation.command = .fetch(force: force, json: json)
        case "doctor":
            try noPositional()
            invocation.command = .doctor
        case "adapters":
            try noPositional()
            invocation.command = .adapters
        case "help":
            invocation.command = .help
        case "history":
            try noPositional()
            if json && history.format == .csv { throw UsageError("--json and --csv do not go together") }
            if json { history.format = .json }
            if chart {
                if history.format != .text { throw UsageError("--chart and --\(json ? "json" : "csv") do not go together") }
                if history.by != nil { throw UsageError("--chart and --by do not go together") }
                history.format = .chart
            }
            history.color = invocation.color
            invocation.command = .history(history)
        case "notify":
            try noPositional()
            invocation.command = .notify
        case "guard":
            try noPositional()
            if guardOptions.timeout != nil { guardOptions.until = true }
            invocation.command = .guardCheck(guardOptions)
        case "serve":
            try noPositional()
            invocation.command = .serve(listen: listen, allowHosts: allowHosts)
        case "hook":
            try noPositional()
            invocation.command = .hook
        case "tray":
            try noPositional()
            invocation.command = .tray(listen: listen)
        case "mcp":
            try noPositional()
            invocation.command = .mcp
        case "templates":
            switch (positional.first, positional.count) {
            case (nil, _), ("list", 1): invocation.command = .templates(.list)
            case ("show", 2): invocation.command = .templates(.show(positional[1]))
            case ("check", 2): invocation.command = .templates(.check(positional[1]))
            case ("show", _), ("check", _):
                throw UsageError("usage: elbowroom templates \(positional[0]) \(positional[0] == "show" ? "NAME" : "FILE|TEXT")")
            case (let word?, _):
                throw UsageError("unknown templates action '\(word)'\(Suggest.hint(for: word, in: ["list", "show", "check"]))")
            }
        case "init":
            guard positional.count == 1 else {
                throw UsageError("usage: elbowroom init INTEGRATION (one of: \(IntegrationSnippets.names.joined(separator: ", ")))")
            }
            invocation.command = .initSnippet(positional[0])
            if invocation.keepStatusLine && positional[0] != "claude" {
                throw UsageError("--keep goes with 'elbowroom init claude' (it wraps the status line in settings.json)")
            }
        case "cache":
            guard positional.count <= 1 else { throw UsageError("usage: elbowroom cache [show|path|clear]") }
            let word = positional.first ?? "show"
            guard let action = Invocation.CacheAction(rawValue: word) else {
                throw UsageError("unknown cache action '\(word)'\(Suggest.hint(for: word, in: ["show", "path", "clear"]))")
            }
            invocation.command = .cache(action)
        case "completions":
            if let list = completionList {
                guard positional.isEmpty, CompletionsCommand.lists.contains(list) else {
                    throw UsageError("usage: elbowroom completions --list \(CompletionsCommand.lists.joined(separator: "|"))")
                }
                invocation.command = .completions(.list(list))
            } else {
                guard positional.count == 1, CompletionsCommand.shells.contains(positional[0]) else {
                    throw UsageError("usage: elbowroom completions \(CompletionsCommand.shells.joined(separator: "|"))")
                }
                invocation.command = .completions(.script(positional[0]))
            }
        default:
            break
        }
        for flag in given {
            if let rule = commandsTaking(flag), !rule.commands.contains(commandName ?? "render") {
                throw UsageError("\(flag) goes with \(rule.goesWith)")
            }
        }
        return invocation
    }
}
