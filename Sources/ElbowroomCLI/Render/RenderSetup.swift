// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore
import ElbowroomTemplate
import ElbowroomAdapters

/// What a render needs before it looks at any data: config, adapter, parsed templates. Built
/// once per process (watch renders the same setup many times).
struct RenderSetup {
    var config: Config
    var adapter: any OutputAdapter
    var template: Template
    var tooltip: Template?
    var palette: Palette
    var useColor: Bool
    /// Whether a render needs the usage history: a template shows `rate`, `spark`, `pace` or
    /// `eta`, or the adapter prints the numbers itself. Decided once from the parsed templates, so
    /// a prompt whose template uses none of them never reads the history file.
    var readsHistory: Bool {
        template.readsHistory || tooltip?.readsHistory == true || adapter.printsView
    }

    /// Why a setup failed, with the adapter when one was chosen (so a bar shows the reason).
    struct Failure: Error {
        var message: String
        var adapter: (any OutputAdapter)?
        /// A one-line reason for the bar itself.
        var short: String
    }

    /// For an adapter name that is an `init` snippet's (a program that reads another adapter's
    /// output): which adapter it runs, and the snippet that sets it up.
    static func snippetHint(_ name: String) -> String {
        switch name {
        case "starship":
            return ": starship runs elbowroom in a custom module, as -a plain (or -a ansi); 'elbowroom init starship' prints it"
        case "node-exporter", "systemd-notify", "serve", "claude-hook":
            return ": that is a snippet, not an adapter; 'elbowroom init \(name)' prints it"
        default:
            return ""
        }
    }

    static func make(_ invocation: Invocation, context: CLIContext) throws(Failure) -> RenderSetup {
        let paths = context.paths
        // Without -a: colour on a terminal (NO_COLOR, CLICOLOR_FORCE, --color), plain text elsewhere.
        let adapterName = invocation.adapter ?? "ansi"
        guard let adapter = AdapterRegistry.resolve(name: adapterName, paths: paths, environment: context.environment) else {
            let names = AdapterRegistry.all(paths: paths, environment: context.environment).map(\.name) + AdapterRegistry.aliasNames
            throw Failure(message: "unknown adapter '\(adapterName)'\(Suggest.hint(for: adapterName, in: names))\(snippetHint(adapterName)); 'elbowroom adapters' lists them",
                          adapter: nil, short: "unknown adapter")
        }
        var config: Config
        do {
            config = try Config.load(paths: paths)
        } catch {
            throw Failure(message: error.description, adapter: adapter, short: "config error: \(error.message)")
        }
        if let maxAge = invocation.maxAge { config.maxAge = maxAge }
        let templateName = invocation.template ?? config.templates[adapter.name]
            ?? config.templates["default"] ?? adapter.defaultTemplate
        // Only adapters that show a tooltip get one from the config: the rest would parse and
        // render it on every prompt for nothing. `--tooltip` is always honoured (plugins get it).
        let tooltipName = invocation.tooltip
            ?? (adapter.defaultTooltipTemplate == nil ? nil : config.templates["tooltip"] ?? adapter.defaultTooltipTemplate)
        let template: Template
        var tooltip: Template?
        do {
            template = try TemplateLibrary.resolve(templateName, paths: paths)
            tooltip = try tooltipName.map { name throws(TemplateError) in try TemplateLibrary.resolve(name, paths: paths) }
        } catch {
            var error = error
            // Inline text from the config: name the key, not "template".
            if error.name == Template.inlineName, invocation.template == nil,
               let key = config.templates[adapter.name] != nil ? adapter.name : config.templates["default"] != nil ? "default" : nil {
                error.name = (paths.configFile.split(separator: "/").last.map(String.init) ?? "config") + " [templates] " + key
            }
            throw Failure(message: error.description, adapter: adapter,
                          short: "template error: \(error.message)\(error.suggestion.map { " (did you mean '\($0)'?)" } ?? "")")
        }
        return RenderSetup(
            config: config, adapter: adapter, template: template, tooltip: tooltip,
            palette: Palette(config: config, adapter: adapter.name, defaults: adapter.defaultColors),
            useColor: invocation.color.allowsColor(environment: context.environment,
                                                   isTTY: context.stdoutIsTTY || adapter.colorsReachATerminal))
    }

    /// One frame from whatever the cache holds now; `provider` is whose usage it is
    /// (`Paths.provider`: every caller says, so a Codex account never reads as Claude's).
    func frame(cache: CacheFile?, now: Date, statusLine: StatusLineInput? = nil,
               template override: Template? = nil, history: UsageHistory? = nil, provider: Provider) -> RenderedFrame {
        let view = UsageView(cache: cache, now: now, config: config, history: history, provider: provider)
        let spans = (override ?? template).render(view, statusLine: statusLine, tooltip: tooltip)
        return RenderedFrame(spans: spans.line, tooltip: spans.tooltip, view: view, palette: palette, useColor: useColor)
    }

    /// One account's data for a frame of several.
    struct AccountData {
        var account: Account
        var cache: CacheFile?
        var statusLine: StatusLineInput?
        var history: UsageHistory?
        /// Its fetch (render: started after the output, or waited for when `waits`).
        var trigger: FetchTrigger?
        var waits = false
    }

    /// A frame of several accounts, in config order. A template that names accounts
    /// (`{work:5h.left}`, `{each:…}`) is rendered once over all of them; any other is rendered
    /// once per account, after the account's label (`W 5h 37% · 7d 59%  H 5h 88%`). The tooltip
    /// groups by account: each account's label on a line, its tooltip under it.
    func frame(accounts data: [AccountData], now: Date, template override: Template? = nil) -> RenderedFrame {
        let template = override ?? self.template
        let accounts = views(of: data, now: now)
        var worst = 0
        for i in accounts.indices where accounts[i].view.level > accounts[worst].view.level { worst = i }
        var spans: [Span] = []
        var tooltipSpans: [Span] = []
        if template.namesAccounts {
            spans = template.render(accountAt: worst, of: accounts)
        }
        // Each joined array is given room for every account's part at the first (as large as
        // the first, and its separators): grown one doubling at a time, each growth copied every
        // span so far, ~10 k instructions with three accounts.
        for (i, account) in accounts.enumerated() {
            // (The line and the tooltip through one context: making one copies the account's view.)
            let parts = template.namesAccounts ? (line: [], tooltip: tooltip?.render(accountAt: i, of: accounts) ?? [])
                : template.render(accountAt: i, of: accounts, tooltip: tooltip)
            if !template.namesAccounts {
                let part = parts.line
                if i == 0 { spans.reserveCapacity((part.count + 2) * accounts.count) }
                if !spans.isEmpty { spans.append(Span(Self.accountSeparator)) }
                spans.append(Span(account.label + " "))
                spans.append(contentsOf: part)
            }
            if tooltip != nil {
                let part = parts.tooltip
                if i == 0 { tooltipSpans.reserveCapacity((part.count + 3) * accounts.count) }
                if !tooltipSpans.isEmpty { tooltipSpans.append(Span("\n\n")) }
                tooltipSpans.append(Span(account.label, style: Style(bold: true)))
                tooltipSpans.append(Span("\n"))
                tooltipSpans.append(contentsOf: part)
            }
        }
        var frame = RenderedFrame(spans: spans, tooltip: tooltipSpans, view: accounts[worst].view,
                                  palette: palette, useColor: useColor)
        frame.accounts = accounts
        return frame
    }

    /// Each account's view, in config order. (A function of its own: its views, built in the
    /// frame, made the frame's stack 7 kB, under every template render of several accounts.)
    @inline(never)
    private func views(of data: [AccountData], now: Date) -> [AccountView] {
        var accounts: [AccountView] = []
        accounts.reserveCapacity(data.count)
        for part in data {
            let view = UsageView(cache: part.cache, now: now, config: config, history: part.history,
                                 provider: part.account.provider)
            accounts.append(AccountView(
                name: part.account.name, label: part.account.label, provider: part.account.provider.word,
                view: view, statusLine: part.statusLine))
        }
        return accounts
    }

    /// Between two accounts' parts of a line.
    static let accountSeparator = "  "

    /// Reports a failed setup: the detail on stderr; for an adapter, its short visible error on
    /// stdout (a bar shows why instead of going blank). Returns the exit status: 2, or the
    /// adapter's (0 where its consumer would hide output that exits non-zero).
    static func report(_ failure: Failure, context: CLIContext, streaming: Bool = false) -> Int32 {
        context.stderr.write("elbowroom: \(failure.message)\n")
        guard let adapter = failure.adapter else { return 2 }
        if streaming {
            context.stdout.write((adapter.streamHeader() ?? "") + adapter.streamError(failure.short))
            return 2
        }
        let output = adapter.renderError(failure.short)
        context.stdout.write(output)
        return output.exitCode
    }
}
