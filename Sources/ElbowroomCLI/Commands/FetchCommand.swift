import ElbowroomCore

/// `elbowroom fetch [--force] [--json]`: a foreground fetch. The network lives in `elbowroom-fetch`
/// (the renderer never links it), so this replaces itself with that program: its output, errors
/// and exit status are the command's own.
///
/// Without `--force` a fetch obeys every cooldown (429 `Retry-After`, failure backoff) but not
/// `max_age`; `--force` ignores all of them.
enum FetchCommand {
    static func arguments(force: Bool, json: Bool, verbose: Bool) -> [String] {
        ["--urgency", force ? FetchUrgency.force.rawValue : FetchUrgency.now.rawValue]
            + (json ? ["--json"] : []) + (verbose ? ["--verbose"] : [])
    }

    static func run(force: Bool, json: Bool, verbose: Bool, context: CLIContext) -> Int32 {
        if (try? Config.load(paths: context.paths))?.usageSource.mayFetch == false {
            context.stderr.write("elbowroom: not fetching: \(UsageSource.statusLineRefusal); Claude Code's status line brings the data\n")
            return 1
        }
        guard let fetcher = context.fetcherPath else {
            context.stderr.write("elbowroom: elbowroom-fetch not found beside elbowroom or on PATH; install both\n")
            return 1
        }
        // What a detached fetch gets too: the environment without its secrets.
        context.environment.withChildEnvironment { envp in
            CStringArray.with([fetcher] + arguments(force: force, json: json, verbose: verbose)) { argv in
                _ = execve(fetcher, argv, envp)
            }
        }
        context.stderr.write("elbowroom: cannot run \(fetcher): \(String(cString: strerror(errno)))\n")
        return 1
    }
}
