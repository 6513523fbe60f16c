import ElbowroomCore

/// `elbowroom init NAME`: prints a ready snippet for one integration (see `IntegrationSnippets`).
///
/// Bars, window managers and systemd start programs with the system's PATH, not the login
/// shell's: where this elbowroom lives elsewhere (`~/.local/bin`), the snippet names it in full.
enum InitCommand {
    /// Said on stderr, so the snippet on stdout stays pasteable (JSON cannot carry a comment).
    static let notes: [(name: String, note: String)] = [
        ("claude", """
            elbowroom: put this in ~/.claude/settings.json. "refreshInterval" (Claude Code 2.1.97 or \
            later; older versions ignore it) re-runs the status line every 30 s while the session \
            is idle, so countdowns keep moving; each run costs a few milliseconds and no network. \
            Have a status line of your own already? elbowroom init claude --keep keeps it and adds \
            elbowroom's line under it.

            """),
        ("claude-hook", """
            elbowroom: merge this into ~/.claude/settings.json ("hooks"). On each session start and \
            prompt, elbowroom hook adds one line of context when a window is at warn or critical \
            (Weekly limit: 12% left, resets Thu 09:00.) and nothing otherwise; it reads the cache \
            only and never fails the prompt.

            """),
        ("mcp", """
            elbowroom: run the line for your agent. Each answer reads the cache (a fetch starts in \
            the background when one is due, as a render starts one) and never holds a token.

            """),
    ]

    /// The directories every session's PATH has, whoever started it (systemd's default, which
    /// display managers and window managers pass on).
    static let systemPath = ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"]

    /// How a snippet should name the program.
    enum ProgramName: Equatable {
        /// This elbowroom is in a directory of the system PATH.
        case onSystemPath
        /// Only by its full path (a user prefix such as `~/.local/bin`).
        case fullPath(String)
        /// This program's path is unknown, or cannot be written into a snippet unquoted.
        case unknown
    }

    /// By where this program is (not whether another elbowroom is on the system PATH: the
    /// snippet should run the one the user ran).
    static func programName(context: CLIContext) -> ProgramName {
        guard let own = context.ownExecutable() else { return .unknown }
        if systemPath.contains(FileSystem.directory(of: own)) { return .onSystemPath }
        // Written into JSON, shell, ini and systemd lines unquoted: only a plain path will do.
        let plain = own.hasPrefix("/") && own.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || "/._-+".utf8.contains(b)
        }
        return plain ? .fullPath(own) : .unknown
    }

    /// The snippets for prompts run in the user's own shell, whose PATH found `elbowroom` already;
    /// they keep the bare name (and its `command -v` guard).
    static let shellPrompts = ["bash", "zsh", "fish"]

    static func run(_ name: String, write: Bool = false, context: CLIContext) -> Int32 {
        if name == "systemd" {
            // Three snippets are systemd units; the word alone does not say which one is meant.
            context.stderr.write("elbowroom: 'init systemd' could mean any of three systemd snippets; pick one:\n"
                + IntegrationSnippets.systemdUnits.map { unit in
                    "  elbowroom init \(unit.name)\(String(repeating: " ", count: max(1, 16 - unit.name.count)))\(IntegrationSnippets.summary(of: unit.name))\n"
                }.joined()
                + "  (add --write to put its unit files in place)\n")
            return 2
        }
        let resolved = IntegrationSnippets.canonicalName(name)
        guard var text = IntegrationSnippets.snippet(named: resolved) else {
            context.stderr.write("elbowroom: unknown integration '\(name)'\(Suggest.hint(for: name, in: IntegrationSnippets.names + IntegrationSnippets.aliases.map(\.alias))); one of: \(IntegrationSnippets.names.joined(separator: ", "))\n")
            return 2
        }
        if resolved != name {
            context.stderr.write("elbowroom: '\(name)' is '\(resolved)': \(IntegrationSnippets.summary(of: resolved))\n")
        }
        if !shellPrompts.contains(resolved) {
            switch programName(context: context) {
            case .onSystemPath: break
            case .fullPath(let path):
                text = naming(text, program: path)
                context.stderr.write("elbowroom: \(FileSystem.directory(of: path)) is not on the PATH that bars, window managers and systemd start programs with, so this names \(path) in full (move it to /usr/local/bin to write plain 'elbowroom')\n")
            case .unknown:
                context.stderr.write("elbowroom: cannot tell where this elbowroom is (or its path needs quoting): if the bar says 'elbowroom: not found', write its full path (`command -v elbowroom`) in place of 'elbowroom'\n")
            }
        }
        if write {
            return UnitWriter.write(text, snippet: resolved, context: context)
        }
        context.stdout.write(text)
        if let note = notes.first(where: { $0.name == resolved })?.note { context.stderr.write(note) }
        if IntegrationSnippets.showsNumbers(resolved) {
            let display = (try? Config.load(paths: context.paths))?.display ?? .left
            context.stderr.write("elbowroom: \(display.meaning)\n")
        }
        return 0
    }

    /// The words after `elbowroom` that make it a command in a snippet (not prose in a comment).
    static let commandWords = [" -a ", " watch", " fetch", " notify", " serve", " hook", " guard", " -t ", " mcp",
                               // the MCP snippet's JSON and TOML, which name the program alone
                               "\", \"args\": [\"mcp\"]", "\"\n# args = [\"mcp\"]"]

    /// `text` with each command `elbowroom` (a word of its own, followed by a command word)
    /// replaced by `program`.
    static func naming(_ text: String, program: String) -> String {
        let delimiters: [Character] = [" ", "\"", "'", "=", "(", "`", "\n"]
        var out = ""
        var i = text.startIndex
        while i < text.endIndex {
            let rest = text[i...]
            if rest.hasPrefix("elbowroom"), out.last.map(delimiters.contains) ?? true {
                let after = rest.dropFirst("elbowroom".count)
                if commandWords.contains(where: { after.hasPrefix($0) }) {
                    out += program
                    i = after.startIndex
                    continue
                }
            }
            out.append(text[i])
            i = text.index(after: i)
        }
        return out
    }
}
