import ElbowroomCore
import ElbowroomTemplate
import ElbowroomAdapters

/// `elbowroom doctor`: one line per part — programs, config, credentials, cache, API — each saying
/// what it found and what to do. Never prints a token. Exit 0 when every part is usable, 1 if not.
/// Each line is printed through `SafeText` (one line, no controls): the cache's message, the
/// credentials' plan and tier and the probe's answer are text from outside.
enum DoctorCommand {
    struct Line {
        var ok: Bool
        var text: String
        /// Not a failure of its own, because of one another line names (no login: the cache's
        /// signed_out): `--`.
        var skipped = false
    }

    /// The width a line is folded to, mark included: a terminal's default.
    static let width = 80

    /// The marks' styles: badges, which read on a light terminal and a dark one alike (green
    /// text is 2.2:1 on white): `ok` black on green, `FAIL` the terminals' critical badge, `--`
    /// the terminals' dim grey.
    static let okStyle = Style(foreground: .palette(16), background: .named(.green))
    static let failStyle = Style(foreground: Palette.terminal.critical, background: Palette.terminal.criticalBackground, bold: true)
    static let skippedStyle = Style(foreground: Palette.terminal.dim)

    /// Prints each line with its mark (`ok`, `FAIL`, `--` for what follows from a failure above). On a terminal the
    /// lines are folded at spaces to 80 columns, the rest indented under the text, and the marks
    /// coloured (`--color`, `NO_COLOR`, `CLICOLOR_FORCE` as for a render); into a pipe each part
    /// stays one line, for grep.
    /// The lines are the context's account's (`AccountDoctor.lines`: Claude's checks, or another
    /// provider's).
    static func run(context: CLIContext, color: ColorMode = .auto) -> Int32 {
        print(AccountDoctor.lines(context: context), context: context, color: color)
    }

    /// Prints `lines` with their marks; 0 when every one is ok.
    static func print(_ lines: [Line], context: CLIContext, color: ColorMode) -> Int32 {
        let colored = color.allowsColor(environment: context.environment, isTTY: context.stdoutIsTTY)
        for line in lines {
            let mark = line.skipped ? "--  " : line.ok ? "ok  " : "FAIL"
            let style = line.skipped ? Self.skippedStyle : line.ok ? Self.okStyle : Self.failStyle
            let shown = colored ? SGR.encode([Span(mark, style: style)]) : mark
            let text = SafeText.clean(line.text, lines: .join)
            let folded = context.stdoutIsTTY ? fold(text, width: width - 5) : [text]
            context.stdout.write(shown + " " + folded.joined(separator: "\n     ") + "\n")
        }
        return lines.allSatisfy(\.ok) ? 0 : 1
    }

    /// `text` cut at spaces into lines of at most `width` characters (a word longer than that,
    /// such as a long path, stands alone on its line).
    static func fold(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        var count = 0
        var first = true
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            let length = word.count
            if first {
                current = String(word)
                count = length
                first = false
            } else if count + 1 + length > width {
                lines.append(current)
                current = String(word)
                count = length
            } else {
                current += " " + word
                count += 1 + length
            }
        }
        lines.append(current)
        return lines
    }

    /// The program, how the fetcher is started, and (Linux) whether `elbowroom-http`, which makes
    /// the fetcher's HTTP calls through the system libcurl, is there and starts.
    static func programs(context: CLIContext) -> Line {
        var ok = true
        var parts = ["elbowroom \(Version.current)"]
        switch context.fetcher {
        case .some(let fetcher) where fetcher.leadingArguments.isEmpty: parts.append("elbowroom-fetch \(fetcher.path)")
        case .some(let fetcher):
            // An older install's elbowroom-fetch (a program of its own then) is passed over, but
            // a user who types `elbowroom-fetch` runs it.
            let sibling = FetcherLocator.sibling(of: fetcher.path)
            if FileSystem.exists(sibling) {
                ok = false
                parts.append("elbowroom-fetch is elbowroom itself: \(sibling) is another program (an older install's?), never started; remove it, or reinstall")
            } else {
                parts.append("elbowroom-fetch is elbowroom itself (no link beside it)")
            }
        case .none:
            ok = false
            parts.append(FetcherProgram.notFound)
        }
        if let locate = context.locateHTTPHelper {
            let helper = httpHelper(locate(), context: context)
            ok = ok && helper.ok
            parts.append(helper.text)
        }
        return Line(ok: ok, text: "programs: " + parts.joined(separator: ", "))
    }

    /// `elbowroom-http --version`: its path and libcurl's version, or why fetches cannot reach
    /// the network (it is missing, or the loader cannot find libcurl).
    static func httpHelper(_ path: String?, context: CLIContext) -> (ok: Bool, text: String) {
        guard let path else {
            return (false, "\(HTTPHelper.name) not found in PREFIX/libexec/elbowroom/ or beside elbowroom: no fetch can reach the network; reinstall elbowroom")
        }
        let run = try? context.spawner.run(path: path, arguments: ["--version"], environment: context.environment.forChild,
                                           stdin: Data(), timeout: 10)
        let said = run.map { String(decoding: $0.stdout.prefix(300), as: UTF8.self).trimmed } ?? ""
        if let run, run.status == 0, said.hasPrefix(HTTPHelper.name + " ") {
            let curl = said.split(separator: " ").first { $0.hasPrefix("libcurl/") }.map { " (\($0))" } ?? ""
            return (true, "\(HTTPHelper.name) \(path)\(curl)")
        }
        let reason = loaderMessage(path, asking: "--version", context: context) ?? run.map { "exit \($0.status)" } ?? "it does not start"
        return (false, "\(HTTPHelper.name) \(path) cannot start (\(reason)): no fetch can reach the network; install libcurl (Debian: libcurl4) or reinstall elbowroom")
    }

    /// One account's whole check: the general lines, then the account's.
    static func check(context: CLIContext) -> [Line] {
        general(context: context) + claudeAccount(context: context)
    }

    /// What holds for every account: the programs, the config and its templates, the PATH bars
    /// see, the environment, and which `source` is on (one line each, printed once).
    static func general(context: CLIContext) -> [Line] {
        let paths = context.paths
        var lines = [programs(context: context)]
        var config = Config()
        if !FileSystem.exists(paths.configFile) {
            lines.append(Line(ok: true, text: "config: \(paths.configFile) not found, using defaults"))
        } else {
            do {
                config = try Config.load(paths: paths)
                lines.append(Line(ok: true, text: "config: \(paths.configFile) (max_age \(Int(config.maxAge))s, stale_after \(Int(config.staleAfter))s, refresh \(config.refresh.rawValue))"))
            } catch {
                lines.append(Line(ok: false, text: "config: \(error.description)"))
            }
        }
        lines.append(contentsOf: templates(config: config, paths: paths))
        if let path = pathNote(context: context) { lines.append(path) }
        let ignored = context.environment.ignoredRelativePaths
        if !ignored.isEmpty {
            lines.append(Line(ok: false, text: "environment: ignoring \(ignored.joined(separator: ", ")): a path there must be absolute (a relative one would depend on the current directory)"))
        }
        lines.append(sourceLine(config: config))
        lines.append(contentsOf: AccountDoctor.refusedAdapters(context: context))
        // In statusline mode the fetcher is never started: not having it is fine.
        if !config.usageSource.mayFetch { lines[0].ok = true }
        return lines
    }

    /// A Claude account's own lines: its status-line setting (statusline mode), login, the
    /// locks held on it, its cache and data, and whether the api answers.
    static func claudeAccount(context: CLIContext) -> [Line] {
        let paths = context.paths
        let now = context.now()
        let config = (try? Config.load(paths: paths)) ?? Config()
        var lines = statusLineSetting(config: config, paths: paths)
        var signedIn = true
        if config.usageSource.mayFetch {
            let login = credentials(paths: paths, environment: context.environment, now: now)
            signedIn = login.ok
            lines.append(login)
            // Only while someone is refreshing: Claude Code (or elbowroom) holding its locks.
            for lock in ClaudeCodeStorage(environment: context.environment).lockStates(now: now) {
                lines.append(Line(ok: !lock.stuck, text: "claude code lock: \(lock.text)"))
            }
        }
        var cacheLine = cache(paths: paths, now: now, config: config)
        // No login is one cause: the cache saying "signed out" follows from it.
        if !signedIn && !cacheLine.ok && cacheLine.text.contains(", status \(DisplayStatus.signedOut.rawValue)") {
            cacheLine.ok = true
            cacheLine.skipped = true
        }
        lines.append(cacheLine)
        lines.append(contentsOf: dataNotes(paths: paths))
        lines.append(contentsOf: elsewhere(paths: paths, now: now))
        // The probe sends no token: whether the api answers is its own question, login or not.
        if config.usageSource.mayFetch { lines.append(api(context: context)) }
        return lines
    }

    /// Every `[templates]` entry parsed as a render would, each error naming its key.
    static func templates(config: Config, paths: Paths) -> [Line] {
        var lines: [Line] = []
        let file = paths.configFile.split(separator: "/").last.map(String.init) ?? paths.configFile
        for key in config.templates.keys.sorted() {
            guard let value = config.templates[key] else { continue }
            do {
                _ = try TemplateLibrary.resolve(value, paths: paths)
            } catch {
                var error = error
                if error.name == Template.inlineName { error.name = "\(file) [templates] \(key)" }
                else { error.name = "\(file) [templates] \(key): \(error.name)" }
                let hint = error.suggestion.map { " (did you mean '\($0)'?)" } ?? ""
                lines.append(Line(ok: false, text: "template: \(error.name):\(error.line):\(error.column): \(error.message)\(hint)"))
            }
        }
        return lines
    }

    /// Whether bars, window managers and timers, which start programs without the login
    /// shell's PATH, find `elbowroom` by name (`InitCommand` names it in full when not).
    static func pathNote(context: CLIContext) -> Line? {
        switch InitCommand.programName(context: context) {
        case .onSystemPath: return nil
        case .fullPath(let path):
            return Line(ok: true, text: "path: \(FileSystem.directory(of: path)) is not on the PATH bars, window managers and systemd start programs with: snippets must name \(path) in full (`elbowroom init` does)")
        case .unknown:
            return nil  // `init` says why when it prints a snippet
        }
    }

    static func credentials(paths: Paths, environment: ElbowroomEnvironment, now: Date) -> Line {
        let envNote = environment.hasInferenceOnlyToken
            ? "; CLAUDE_CODE_OAUTH_TOKEN is set but is inference-only and cannot read usage" : ""
        #if os(macOS)
        return Line(ok: true, text: "credentials: macOS Keychain item '\(ClaudeCodeStorage(environment: environment).keychainService())' (read by elbowroom-fetch; see the api line)\(envNote)")
        #else
        let file = paths.credentialsFile
        guard FileSystem.exists(file) else {
            return Line(ok: false, text: "credentials: \(file) not found: sign in with Claude Code (run `claude`, then /login)\(envNote)")
        }
        // Claude Code's document grows with every MCP login: the fetcher reads up to 16 MiB.
        let limit = 16 << 20
        if let size = FileSystem.size(of: file), size > limit {
            return Line(ok: false, text: "credentials: \(file) is \(size) bytes, more than the 16 MiB elbowroom reads")
        }
        guard let data = FileSystem.read(file, limit: limit) else {
            return Line(ok: false, text: "credentials: \(file) cannot be read (permissions?)")
        }
        let mode = FileSystem.mode(of: file).map { String($0, radix: 8) } ?? "?"
        do {
            switch try CredentialsParser.parse(data) {
            case .loggedOut:
                return Line(ok: false, text: "credentials: \(file) holds no Claude login (logged out): run `claude` and /login\(envNote)")
            case .mcpOnly:
                return Line(ok: false, text: "credentials: \(file) holds only MCP logins, no Claude login: run `claude` and /login\(envNote)")
            case .oauth(let c):
                var text = "credentials: \(file) (mode \(mode)), plan \(c.subscriptionType ?? "unknown")"
                if let tier = c.rateLimitTier { text += " (\(tier))" }
                // A hand-edited or corrupt expiresAt can be any number: beyond a century it is
                // no date at all (and would not fit the duration's integer arithmetic).
                if let expires = c.expiresAt, abs(expires.timeIntervalSince(now)) > 100 * 365 * 86400 {
                    text += ", token expiry (expiresAt) out of range"
                } else if let expires = c.expiresAt {
                    let delta = expires.timeIntervalSince(now)
                    text += delta > 0 ? ", token expires in \(DurationText.short(delta))" : ", token expired \(DurationText.short(-delta)) ago"
                }
                text += c.refreshToken == nil ? ", no refresh token" : ", refresh token present"
                return Line(ok: true, text: text + envNote)
            }
        } catch {
            return Line(ok: false, text: "credentials: \(file) is not valid JSON; elbowroom will not touch it")
        }
        #endif
    }

    static func cache(paths: Paths, now: Date, config: Config) -> Line {
        let store = CacheStore(paths: paths)
        // The directory (repaired here when others may write to it) and planted lock files.
        let (problems, repairs) = CacheStore.inspect(paths: paths)
        let notes = (repairs + problems).map { "; " + $0 }.joined()
        let cache: CacheFile
        switch store.read() {
        case .refused(let why):
            return Line(ok: false, text: "cache: \(why)")
        case .missing:
            let filler = config.usageSource == .statusLine ? "Claude Code's status line fills it" : "the first render fetches"
            return Line(ok: problems.isEmpty, text: "cache: \(store.file) (none yet; \(filler))" + notes)
        case .unusable(let why):
            return Line(ok: false, text: "cache: \(why) (treated as empty; the next fetch replaces it, `elbowroom cache clear` removes it)" + notes)
        case .loaded(let found):
            cache = found
        }
        let view = UsageView(cache: cache, now: now, config: config, provider: paths.provider)
        var text = "cache: \(store.file), status \(view.status.rawValue)"
        if let age = view.age { text += ", data \(DurationText.short(age)) old" }
        if let type = view.accountType {
            text += ", account type \(type)\(view.plan.map { " (plan \($0))" } ?? "")"
            var sources: [String] = []
            for w in view.windows where !sources.contains(w.source.rawValue) { sources.append(w.source.rawValue) }
            if let spend = view.spend, !sources.contains(spend.source.rawValue) { sources.append(spend.source.rawValue) }
            if !sources.isEmpty { text += ", numbers from \(sources.joined(separator: " and "))" }
        }
        let f = cache.fetch
        if let outcome = f.lastOutcome, let at = f.lastAttempt {
            text += ", last fetch \(outcome.rawValue) \(DurationText.short(now.timeIntervalSince(at))) ago"
            if let message = f.message { text += " (\(message))" }
        }
        if let until = f.cooldownUntil, until > now {
            text += ", next fetch not before \(DurationText.short(until.timeIntervalSince(now))) from now"
        }
        let ok = [DisplayStatus.ok, .stale, .loading].contains(view.status) && problems.isEmpty
        return Line(ok: ok, text: text + notes)
    }

    /// What the last reading left out as not data (a percentage far outside 0…100): the
    /// window shows as unknown, and this says why.
    /// And the top-level keys of the last body elbowroom has never heard of: drift shows here
    /// before a wrong number does.
    static func dataNotes(paths: Paths) -> [Line] {
        let reading = CacheStore(paths: paths).load()?.reading
        var lines = (reading?.notes ?? []).map { Line(ok: true, text: "data: " + $0) }
        if let keys = reading?.unknownKeys, !keys.isEmpty {
            lines.append(Line(ok: true, text: "data: keys elbowroom has never heard of in the last body: \(keys.joined(separator: ", "))"))
        }
        return lines
    }

    static func api(context: CLIContext) -> Line {
        guard let fetcher = context.fetcher else {
            return Line(ok: false, text: "api: not checked (elbowroom-fetch not found)")
        }
        do {
            let result = try context.spawner.run(
                path: fetcher.path, arguments: fetcher.arguments(["--probe"]), environment: context.environment.forChild,
                stdin: Data(), timeout: 20)
            let text = String(decoding: result.stdout, as: UTF8.self).trimmed
            // 126/127 with nothing said: the program was never run (the loader gave up on it).
            if text.isEmpty && (result.status == 126 || result.status == 127) {
                return cannotStart(loaderMessage(fetcher.path, context: context) ?? "exit \(result.status)")
            }
            return Line(ok: result.status == 0, text: "api: " + (text.isEmpty ? "probe exited \(result.status)" : text))
        } catch let error as PosixSpawner.Failure {
            return cannotStart(dropping("cannot start \(fetcher.path): ", from: error.description))
        } catch {
            return Line(ok: false, text: "api: \(error)")
        }
    }

    /// Not the network's fault: elbowroom-fetch itself does not start (e.g. a clone install whose
    /// Swift toolchain moved; `ldd` on it names what is missing).
    static func cannotStart(_ reason: String) -> Line {
        Line(ok: false, text: "api: not checked: the fetcher cannot start (\(reason)); reinstall elbowroom")
    }

    /// What the loader said on stderr when `program` would not start, asked for `question` (which
    /// it answers on stdout without doing anything: the fetcher's `--help`, the helper's `--version`).
    static func loaderMessage(_ program: String, asking question: String = "--help", context: CLIContext) -> String? {
        guard let run = try? context.spawner.run(
            path: "/bin/sh", arguments: ["-c", #"exec "$0" "$1" 2>&1 >/dev/null"#, program, question],
            environment: context.environment.forChild, stdin: Data(), timeout: 10) else { return nil }
        let said = dropping(program + ": ", from: String(decoding: run.stdout.prefix(300), as: UTF8.self).trimmed)
        return said.isEmpty ? nil : said
    }

    private static func dropping(_ prefix: String, from text: String) -> String {
        text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
    }
}
