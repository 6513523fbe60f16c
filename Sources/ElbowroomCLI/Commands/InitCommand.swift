/// `elbowroom init NAME`: prints a ready snippet for one integration (see `IntegrationSnippets`).
enum InitCommand {
    static func run(_ name: String, context: CLIContext) -> Int32 {
        guard let text = IntegrationSnippets.snippet(named: name) else {
            context.stderr.write("elbowroom: unknown integration '\(name)'\(Suggest.hint(for: name, in: IntegrationSnippets.names)); one of: \(IntegrationSnippets.names.joined(separator: ", "))\n")
            return 2
        }
        context.stdout.write(text)
        return 0
    }
}
import ElbowroomCore
