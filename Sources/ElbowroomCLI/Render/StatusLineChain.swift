import ElbowroomCore
import ElbowroomAdapters

/// `elbowroom -a claude --then 'COMMAND'`: keep your own status line (ccstatusline,
/// claude-powerline, a script of yours) and have elbowroom's numbers too.
///
/// Claude Code runs one status-line command; this is it. It reads the status line from stdin
/// once, renders as `elbowroom -a claude` does (taking the reading into the cache: tmux and the
/// bar get it too), then runs COMMAND through `/bin/sh -c` with the same stdin bytes, in the same
/// directory, and prints COMMAND's output with elbowroom's own line after it (`--then-position
/// after`, the default), before it (`before`), or not at all (`none`: the numbers are still taken
/// in). The template (`-t`) decides what elbowroom's line shows.
///
/// COMMAND gets elbowroom's environment less every variable that carries a credential (as
/// plugins and the fetcher do) and `timeout` seconds (2): then it is killed, with everything it
/// started (its process group). Claude Code itself waits on a status line until the next run
/// replaces it (each assistant message, each `refreshInterval`), and shows nothing of a command
/// that exits non-zero: a failing, slow or missing COMMAND shows a short reason in its place
/// (`⚠ status line: exited with status 1`), and never costs the ingest, which happened first.
/// Its stderr is dropped, as Claude Code drops it; its stdout is kept as it is (colours, links),
/// up to 64 KiB.
enum StatusLineChain {
    /// How long COMMAND may run, seconds.
    static let timeout: Double = 2
    /// The most of COMMAND's output kept.
    static let outputLimit = 64 << 10

    /// Runs the render (`render`, with stdin read once and handed to it, its output kept), then
    /// COMMAND, and writes both.
    static func run(_ invocation: Invocation, command: String, context: CLIContext,
                    render: (Invocation, CLIContext) -> Int32) -> Int32 {
        if let adapter = AdapterRegistry.resolve(name: invocation.adapter ?? "ansi", paths: context.paths,
                                                 environment: context.environment),
           !adapter.readsClaudeStatusLine {
            context.stderr.write("elbowroom: --then goes with -a claude (Claude Code's status line), not -a \(adapter.name)\n")
            return 2
        }
        let input = context.readStdin() ?? Data()
        var inner = context
        inner.readStdin = { input }
        let kept = KeptOutput()
        inner.stdout = kept
        inner.endProcess = nil
        let status = render(invocation, inner)
        let ours = kept.text
        let theirs = runCommand(command, input: input, context: context)
        context.stdout.write(combine(ours: ours, theirs: theirs, position: invocation.thenPosition))
        context.endProcess?(status)
        return status
    }

    /// COMMAND's output, or the short reason it has none.
    static func runCommand(_ command: String, input: Data, context: CLIContext) -> String {
        var environment = context.environment.forChild
        environment["ELBOWROOM_ENV_TOKEN_PRESENT"] = nil
        do {
            let result = try context.spawner.run(path: "/bin/sh", arguments: ["-c", command], environment: environment,
                                                 stdin: input, timeout: timeout)
            guard result.status == 0 else {
                return failure(result.status == 127 ? "command not found (exit 127)" : "exited with status \(result.status)",
                               context: context)
            }
            var output = result.stdout
            if output.count > outputLimit { output = output.prefix(outputLimit) }
            return String(decoding: output, as: UTF8.self)
        } catch let error as PosixSpawner.TimedOut {
            return failure("did not finish within \(error.limit)", context: context)
        } catch {
            return failure("could not start: \(error)", context: context)
        }
    }

    /// The reason, dimmed red, as the one line Claude Code shows in COMMAND's place; the same
    /// words on stderr for a person running it by hand.
    static func failure(_ reason: String, context: CLIContext) -> String {
        context.stderr.write("elbowroom: --then: \(reason)\n")
        return "\u{1B}[31m⚠ status line: \(SafeText.firstLine(reason))\u{1B}[0m\n"
    }

    /// Elbowroom's lines and COMMAND's, each ending in a newline, in the chosen order.
    static func combine(ours: String, theirs: String, position: ThenPosition) -> String {
        func line(_ text: String) -> String {
            text.isEmpty || text.utf8.last == 0x0A ? text : text + "\n"
        }
        switch position {
        case .after: return line(theirs) + line(ours)
        case .before: return line(ours) + line(theirs)
        case .none: return line(theirs)
        }
    }

    /// Keeps what the render writes.
    final class KeptOutput: OutputSink, @unchecked Sendable {
        private(set) var text = ""
        @discardableResult func write(_ text: String) -> Bool {
            self.text += text
            return true
        }
    }
}
