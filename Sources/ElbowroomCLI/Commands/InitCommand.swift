/// `elbowroom init NAME`: prints a ready snippet for one integration (see `IntegrationSnippets`).
enum InitCommand {
    /// Said on stderr, so the snippet on stdout stays pasteable (JSON cannot carry a comment).
    static let notes: [(name: String, note: String)] = [
        ("claude", """
            elbowroom: put this in ~/.claude/settings.json. "refreshInterval" (Claude Code 2.1.97 or \
            later; older versions ignore it) re-runs the status line every 30 s while the session \
            is idle, so countdowns keep moving; each run costs a few milliseconds and no network.

            """),
        ("claude-hook", """
            elbowroom: merge this into ~/.claude/settings.json ("hooks"). On each session start and \
            prompt, elbowroom hook adds one line of context when a window is at warn or critical \
            (Weekly limit: 12% left, resets Thu 09:00.) and nothing otherwise; it reads the cache \
            only and never fails the prompt.

            """),
    ]

    static func run(_ name: String, context: CLIContext) -> Int32 {
        guard let text = IntegrationSnippets.snippet(named: name) else {
            context.stderr.write("elbowroom: unknown integration '\(name)'\(Suggest.hint(for: name, in: IntegrationSnippets.names)); one of: \(IntegrationSnippets.names.joined(separator: ", "))\n")
            return 2
        }
        context.stdout.write(text)
        if let note = notes.first(where: { $0.name == name })?.note { context.stderr.write(note) }
        return 0
    }
}
import ElbowroomCore
