/// Every command `elbowroom` takes, with its one line: the parser and the three completion
/// scripts read this list (`scripts/generate` writes the scripts out to completions/).
enum CommandCatalog {
    struct Command {
        let name: String
        let summary: String
        /// Whether it renders, and so takes the render options (-a, -t, …).
        var renders = false
    }

    static let all: [Command] = [
        Command(name: "render", summary: "print the status once (the default)", renders: true),
        Command(name: "watch", summary: "stream one line per change for bars", renders: true),
        Command(name: "tray", summary: "a tray icon for Linux desktops (StatusNotifierItem)", renders: true),
        Command(name: "fetch", summary: "fetch now, in the foreground"),
        Command(name: "doctor", summary: "check every part, one line each"),
        Command(name: "templates", summary: "list, show or check templates"),
        Command(name: "adapters", summary: "list the output formats, plugins included"),
        Command(name: "init", summary: "print a ready snippet for one integration"),
        Command(name: "cache", summary: "show, locate or clear the cache"),
        Command(name: "history", summary: "print the usage samples (for plotting or export)"),
        Command(name: "notify", summary: "send the desktop notifications that are due, once"),
        Command(name: "completions", summary: "print a completion script"),
        Command(name: "guard", summary: "exit 0 when enough is left, 1 when not (for scripts)"),
        Command(name: "serve", summary: "serve /metrics and /v1/usage over HTTP"),
        Command(name: "hook", summary: "Claude Code hook: a line of context when a window is low"),
        Command(name: "mcp", summary: "an MCP server on stdio: the tool get_headroom, for any agent"),
        Command(name: "help", summary: "show help"),
    ]

    static var names: [String] { all.map(\.name) }
}
