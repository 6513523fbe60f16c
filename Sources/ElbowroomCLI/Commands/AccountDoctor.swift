import ElbowroomCore
import ElbowroomAdapters

/// `doctor`'s lines for the account the context names (`Paths.provider`): Claude's checks
/// (`DoctorCommand.check`), or for another provider's account (`[accounts.NAME] provider`) where
/// its usage comes from and its cache (Claude's credential and api lines do not apply to it).
/// `DoctorCommand.run` prints them.
enum AccountDoctor {
    /// One account alone: Claude's whole check, or the programs line and the account's own.
    static func lines(context: CLIContext) -> [DoctorCommand.Line] {
        if case .claude = context.paths.provider { return DoctorCommand.check(context: context) }
        return [DoctorCommand.programs(context: context)] + accountLines(context: context)
    }

    /// The account's own lines, without the general ones (several accounts print those once).
    static func accountLines(context: CLIContext) -> [DoctorCommand.Line] {
        let paths = context.paths
        var lines: [DoctorCommand.Line] = []
        let identity = paths.identity
        switch identity.provider {
        case .claude:
            return DoctorCommand.claudeAccount(context: context)
        case .codex:
            switch identity.codexSource {
            case .logs:
                let sessions = (identity.home ?? "") + "/sessions"
                lines.append(DoctorCommand.Line(ok: FileSystem.exists(sessions),
                                                text: "source: codex's session logs in \(sessions) (no login read, nothing sent)"
                                                    + (FileSystem.exists(sessions) ? "" : ": none yet; run codex")))
            case .api:
                let file = identity.credentialsFile
                lines.append(DoctorCommand.Line(ok: FileSystem.exists(file),
                                                text: FileSystem.exists(file)
                                                    ? "codex login: \(file) (read by elbowroom-fetch, never refreshed or written)"
                                                    : "codex login: \(file) not found: run `codex login` (a keyring login leaves none: try codex_source = \"logs\")"))
            }
        default:
            lines.append(source(context: context))
        }
        let config = (try? Config.load(paths: paths)) ?? Config()
        lines.append(DoctorCommand.cache(paths: paths, now: context.now(), config: config))
        // What the last body or session-log event left out, and its drift, as for Claude.
        lines += DoctorCommand.dataNotes(paths: paths)
        return lines
    }

    /// Where a source plugin's account, or another built-in provider's, reads its usage: the
    /// plugin found (and trusted), or the file its identity names.
    static func source(context: CLIContext) -> DoctorCommand.Line {
        let paths = context.paths
        let identity = paths.identity
        guard case .plugin(let name) = identity.provider else {
            let file = identity.credentialsFile
            let found = file.isEmpty || FileSystem.exists(file)
            return DoctorCommand.Line(ok: found, text: "source: \(identity.source)" + (found ? "" : ": not found"))
        }
        let sources = paths.configHome + "/sources"
        let found = context.environment.findExecutable("elbowroom-source-" + name,
                                                       in: [sources] + context.environment.executableSearchPath)
        let refused = found.flatMap { ExecutableTrust.refusal($0) }
        return DoctorCommand.Line(ok: found != nil && refused == nil,
                                  text: "source plugin: " + (found.map { path in refused.map { "\(path) refused: \($0): a plugin another user could change is not run" } ?? path }
                                      ?? "elbowroom-source-\(name) not found in \(sources) or on PATH"))
    }

    /// A FAIL for each adapter plugin that is not run (`ExecutableTrust`), naming why (a general
    /// line: adapter plugins are not an account's).
    static func refusedAdapters(context: CLIContext) -> [DoctorCommand.Line] {
        PluginDiscovery.all(paths: context.paths, environment: context.environment).compactMap { plugin in
            ExecutableTrust.refusal(plugin.path).map {
                DoctorCommand.Line(ok: false, text: "adapter plugin: \(plugin.path) refused: \($0): a plugin another user could change is not run")
            }
        }
    }
}
