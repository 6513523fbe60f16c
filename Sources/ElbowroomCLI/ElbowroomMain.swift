// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// The `elbowroom` command: parses the arguments and runs one command. `main.swift` calls this.
public enum ElbowroomMain {
    public static func run(_ arguments: [String], context: CLIContext) -> Int32 {
        let invocation: Invocation
        do {
            invocation = try ArgumentParser.parse(arguments)
        } catch {
            context.stderr.write("elbowroom: \(error.description)\n")
            return 2
        }
        switch invocation.command {
        case .render: return RenderCommand.run(invocation, context: context)
        case .watch: return WatchCommand.run(invocation, context: context)
        case .fetch(let force, let json):
            return FetchCommand.run(force: force, json: json, verbose: invocation.verbose, context: context)
        case .doctor: return DoctorCommand.run(context: context, color: invocation.color)
        case .templates(let action): return TemplatesCommand.run(action, context: context)
        case .adapters: return AdaptersCommand.run(context: context)
        case .initSnippet(let name): return InitCommand.run(name, context: context)
        case .cache(let action): return CacheCommand.run(action, context: context)
        case .history(let options): return HistoryCommand.run(options, context: context)
        case .notify: return NotifyCommand.run(invocation, context: context)
        case .completions(let action): return CompletionsCommand.run(action, context: context)
        case .guardCheck(let options): return GuardCommand.run(options, invocation: invocation, context: context)
        case .serve(let listen): return ServeCommand.run(listen: listen, invocation: invocation, context: context)
        case .hook: return HookCommand.run(offline: invocation.offline, context: context)
        case .version:
            context.stdout.write("elbowroom \(Version.current)\n")
            return 0
        case .help:
            context.stdout.write(Help.text)
            return 0
        }
    }
}
