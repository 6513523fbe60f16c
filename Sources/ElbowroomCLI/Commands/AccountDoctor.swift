import ElbowroomCore

/// `doctor` for an account of another provider (`[accounts.NAME] provider`): where its usage
/// comes from and its cache, in `doctor`'s line format (Claude's credential and api lines do not
/// apply to it).
enum AccountDoctor {
    static func run(_ account: Account, context: CLIContext) -> Int32 {
        let paths = context.paths
        var lines: [DoctorCommand.Line] = []
        lines.append(DoctorCommand.Line(
            ok: context.fetcherPath != nil,
            text: "programs: elbowroom \(Version.current), elbowroom-fetch \(context.fetcherPath ?? "not found (install it beside elbowroom)")"))
        switch account.provider {
        case .claude:
            return DoctorCommand.run(context: context)
        case .codex where account.codexSource == "logs":
            let sessions = (paths.codexHome ?? "") + "/sessions"
            lines.append(DoctorCommand.Line(ok: FileSystem.exists(sessions),
                                            text: "source: codex's session logs in \(sessions) (no login read, nothing sent)"
                                                + (FileSystem.exists(sessions) ? "" : ": none yet; run codex")))
        case .codex:
            let file = paths.credentialsFile
            lines.append(DoctorCommand.Line(ok: FileSystem.exists(file),
                                            text: FileSystem.exists(file)
                                                ? "codex login: \(file) (read by elbowroom-fetch, never refreshed or written)"
                                                : "codex login: \(file) not found: run `codex login` (a keyring login leaves none: try codex_source = \"logs\")"))
        case .plugin(let name):
            let sources = paths.configHome + "/sources"
            let found = context.environment.findExecutable("elbowroom-source-" + name,
                                                           in: [sources] + context.environment.executableSearchPath)
            lines.append(DoctorCommand.Line(ok: found != nil,
                                            text: "source plugin: " + (found ?? "elbowroom-source-\(name) not found in \(sources) or on PATH")))
        }
        let config = (try? Config.load(paths: paths)) ?? Config()
        lines.append(DoctorCommand.cache(paths: paths, now: context.now(), config: config))
        for line in lines {
            context.stdout.write("\(line.ok ? "ok  " : "FAIL") \(SafeText.clean(line.text, lines: .join))\n")
        }
        return lines.allSatisfy(\.ok) ? 0 : 1
    }
}
