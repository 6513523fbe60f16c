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

    static func make(_ invocation: Invocation, context: CLIContext) throws(Failure) -> RenderSetup {
        let paths = context.paths
        // Without -a: colour on a terminal (NO_COLOR, CLICOLOR_FORCE, --color), plain text elsewhere.
        let adapterName = invocation.adapter ?? "ansi"
        guard let adapter = AdapterRegistry.resolve(name: adapterName, paths: paths, environment: context.environment) else {
            let names = AdapterRegistry.all(paths: paths, environment: context.environment).map(\.name) + AdapterRegistry.aliasNames
            throw Failure(message: "unknown adapter '\(adapterName)'\(Suggest.hint(for: adapterName, in: names)); 'elbowroom adapters' lists them",
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
            if error.name == "template", invocation.template == nil,
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

    /// One frame from whatever the cache holds now.
    func frame(cache: CacheFile?, now: Date, statusLine: StatusLineInput? = nil,
               template override: Template? = nil, history: UsageHistory? = nil) -> RenderedFrame {
        let view = UsageView(cache: cache, now: now, config: config, history: history)
        return RenderedFrame(
            spans: (override ?? template).render(view, statusLine: statusLine),
            tooltip: tooltip?.render(view, statusLine: statusLine) ?? [],
            view: view, palette: palette, useColor: useColor)
    }

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
        context.stdout.write(output.text)
        return output.exitCode
    }
}
