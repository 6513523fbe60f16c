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
        case .render:
            if let command = invocation.then {
                return StatusLineChain.run(invocation, command: command, context: context, render: RenderCommand.run)
            }
            return RenderCommand.run(invocation, context: context)
        case .watch: return WatchCommand.run(invocation, context: context)
        case .fetch, .doctor, .history, .notify, .cache:
            return perAccount(invocation, context: context)
        case .initSnippet where invocation.keepStatusLine:
            return KeepStatusLine.run(context: context)
        default:
            return run(invocation, context: context)
        }
    }

    /// A command that works on one account at a time, run for each account chosen
    /// (`AccountSelection`): `fetch`, `doctor`, `notify` and `cache clear` for every one,
    /// `history`, `cache show|path` and `notify --test` for the first unless `--account` names another.
    static func perAccount(_ invocation: Invocation, context: CLIContext) -> Int32 {
        // A config that does not load is the command's own to report.
        guard let config = try? Config.load(paths: context.paths) else {
            if invocation.account != nil {
                context.stderr.write("elbowroom: --account needs a config that loads (see elbowroom doctor)\n")
                return 2
            }
            return run(invocation, context: context)
        }
        guard let selection = AccountSelection.made(invocation, config: config, context: context) else { return 2 }
        switch invocation.command {
        case .history, .cache(.show), .cache(.path):
            return run(invocation, context: selection.parts[0].context)
        case .notify where invocation.sendTest:
            // One sample through the one route, not one per account.
            return run(invocation, context: selection.parts[0].context)
        case .fetch(let force, let json) where selection.isSeveral:
            return FetchCommand.runEach(selection, force: force, json: json, verbose: invocation.verbose, context: context)
        case .doctor where selection.isSeveral:
            // The general lines once, then each account's own under its name.
            var status = DoctorCommand.print(DoctorCommand.general(context: selection.parts[0].context), context: context,
                                             color: invocation.color)
            for part in selection.parts {
                if let account = part.account {
                    context.stdout.write("account \(SafeText.clean(account.name, lines: .join)) (\(account.provider.word)):\n")
                }
                status = max(status, DoctorCommand.print(AccountDoctor.accountLines(context: part.context), context: part.context,
                                                         color: invocation.color))
            }
            return status
        default:
            var status: Int32 = 0
            for part in selection.parts {
                status = max(status, run(invocation, context: part.context))
            }
            return status
        }
    }

    static func run(_ invocation: Invocation, context: CLIContext) -> Int32 {
        switch invocation.command {
        case .render: return RenderCommand.run(invocation, context: context)
        case .watch: return WatchCommand.run(invocation, context: context)
        case .fetch(let force, let json):
            return FetchCommand.run(force: force, json: json, verbose: invocation.verbose, context: context)
        case .doctor: return DoctorCommand.run(context: context, color: invocation.color)
        case .templates(let action): return TemplatesCommand.run(action, context: context)
        case .adapters: return AdaptersCommand.run(context: context)
        case .initSnippet(let name): return InitCommand.run(name, write: invocation.writeUnits, context: context)
        case .cache(let action): return CacheCommand.run(action, context: context)
        case .history(let options): return HistoryCommand.run(options, context: context)
        case .notify: return NotifyCommand.run(invocation, context: context)
        case .completions(let action): return CompletionsCommand.run(action, context: context)
        case .guardCheck(let options): return GuardCommand.run(options, invocation: invocation, context: context)
        case .serve(let listen, let allowHosts):
            return ServeCommand.run(listen: listen, allowHosts: allowHosts, invocation: invocation, context: context)
        case .hook: return HookCommand.run(offline: invocation.offline, context: context)
        case .mcp: return MCPCommand.run(invocation, context: context)
        case .version:
            context.stdout.write("elbowroom \(Version.current)\n")
            return 0
        case .help:
            context.stdout.write(Help.text)
            return 0
        }
    }
}
