import ElbowroomCore
import ElbowroomTemplate
import ElbowroomAdapters

/// `elbowroom completions bash|zsh|fish`: prints the completion script for that shell (the same
/// text ships as files under `completions/`, written by `scripts/generate`).
///
/// The scripts hold commands and flags; adapter names (plugins included), template names (the
/// user's included), the config's account names and `init` targets are asked for at completion
/// time with the hidden `elbowroom completions --list adapters|templates|accounts|init`, which
/// prints `NAME<TAB>SUMMARY` lines.
enum CompletionsCommand {
    static let shells = ["bash", "zsh", "fish"]
    static let lists = ["adapters", "templates", "accounts", "init"]

    static func run(_ action: Invocation.CompletionsAction, context: CLIContext) -> Int32 {
        switch action {
        case .script(let shell):
            context.stdout.write(CompletionScripts.script(for: shell))
        case .list(let kind):
            for (name, summary) in names(kind, context: context) {
                // A summary (a plugin's path) on one line, without controls or a tab of its own.
                let shown = SafeText.map(summary, lines: .join) { $0 == "\t" ? " " : nil }
                context.stdout.write(shown.isEmpty ? "\(name)\n" : "\(name)\t\(shown)\n")
            }
        }
        return 0
    }

    static func names(_ kind: String, context: CLIContext) -> [(String, String)] {
        switch kind {
        case "adapters":
            return AdapterRegistry.all(paths: context.paths, environment: context.environment).map { ($0.name, $0.summary) }
        case "templates":
            return TemplateLibrary.list(paths: context.paths).map { ($0.name, $0.summary) }
        case "accounts":
            // Nothing (not an error) when the config does not load: completion stays quiet.
            let accounts = (try? Config.load(paths: context.paths))?.accounts ?? []
            return accounts.map { ($0.name, $0.label == $0.name ? $0.provider.agent : $0.label + ", " + $0.provider.agent) }
        default:
            return IntegrationSnippets.snippets.map { ($0.name, "snippet for " + $0.file) }
        }
    }
}
