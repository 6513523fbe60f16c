import ElbowroomCore

/// `elbowroom fetch [--force] [--json]`: a foreground fetch. This replaces itself with the fetcher
/// (`elbowroom-fetch`, this program by that name), so its output, errors and exit status are the
/// command's own, and the fetcher starts as it always does: hardened, from `/`, with the
/// environment a detached fetch gets.
///
/// Without `--force` a fetch obeys every cooldown (429 `Retry-After`, failure backoff) but not
/// `max_age`; `--force` ignores all of them.
enum FetchCommand {
    static func arguments(force: Bool, json: Bool, verbose: Bool) -> [String] {
        ["--urgency", force ? FetchUrgency.force.rawValue : FetchUrgency.now.rawValue]
            + (json ? ["--json"] : []) + (verbose ? ["--verbose"] : [])
    }

    static func run(force: Bool, json: Bool, verbose: Bool, context: CLIContext) -> Int32 {
        if (try? Config.load(paths: context.paths))?.usageSource.mayFetch(context.paths) == false {
            context.stderr.write("elbowroom: not fetching: \(UsageSource.statusLineRefusal); Claude Code's status line brings the data\n")
            return 1
        }
        guard let fetcher = context.fetcher else {
            context.stderr.write("elbowroom: \(FetcherProgram.notFound)\n")
            return 1
        }
        // What a detached fetch gets too: the environment without its secrets.
        context.environment.withChildEnvironment { envp in
            CStringArray.with([fetcher.path] + fetcher.arguments(arguments(force: force, json: json, verbose: verbose))) { argv in
                _ = execve(fetcher.path, argv, envp)
            }
        }
        context.stderr.write("elbowroom: cannot run \(fetcher.path): \(String(cString: strerror(errno)))\n")
        return 1
    }

    /// Several accounts: one fetch after the other, each with its account's environment; a
    /// `--json` line each. Exit 1 when any failed.
    static func runEach(_ selection: AccountSelection, force: Bool, json: Bool, verbose: Bool, context: CLIContext) -> Int32 {
        guard let fetcher = context.fetcher else {
            context.stderr.write("elbowroom: \(FetcherProgram.notFound)\n")
            return 1
        }
        var status: Int32 = 0
        for part in selection.parts {
            let name = part.account.map { SafeText.clean($0.name, lines: .join) } ?? "default"
            if (try? Config.load(paths: part.context.paths))?.usageSource.mayFetch(part.context.paths) == false {
                context.stderr.write("elbowroom: \(name): not fetching: \(UsageSource.statusLineRefusal)\n")
                continue
            }
            do {
                let result = try context.spawner.run(
                    path: fetcher.path, arguments: fetcher.arguments(arguments(force: force, json: json, verbose: verbose)),
                    environment: part.context.environment.forChild, stdin: Data(), timeout: 120)
                context.stdout.write(String(decoding: result.stdout, as: UTF8.self))
                if result.status != 0 {
                    context.stderr.write("elbowroom: \(name): the fetch failed (exit \(result.status))\n")
                    status = 1
                }
            } catch {
                context.stderr.write("elbowroom: \(name): cannot run \(fetcher.path): \(error)\n")
                status = 1
            }
        }
        return status
    }
}
