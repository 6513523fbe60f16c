// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore
import ElbowroomAdapters

/// `elbowroom [render]`: read the cache, start a fetch in the background if one is due, print.
/// Never waits on the network, except with `--wait` or on the very first run (≤ 2 s).
enum RenderCommand {
    /// The visible error when the cache directory is not ours (the reason goes to stderr).
    static let cacheRefused = "cannot use the cache directory (see elbowroom doctor)"

    static func run(_ invocation: Invocation, context: CLIContext) -> Int32 {
        let setup: RenderSetup
        do {
            setup = try RenderSetup.make(invocation, context: context)
        } catch {
            return RenderSetup.report(error, context: context)
        }
        let now = context.now()
        var statusLine: StatusLineInput?
        var cache: CacheFile?
        // A fetch that is due starts once the output is written: the prompt or bar has its text
        // before the fork, and the parent then touches almost no memory the fork shared (each
        // page it writes after a fork is copied first).
        var fetchAfterOutput: FetchTrigger?
        if invocation.demo {
            cache = DemoReading.cache(now: now)
            // A person looking (a terminal): say what the numbers count, where they first see them.
            if context.stdoutIsTTY { context.stderr.write("elbowroom: sample numbers; \(setup.config.display.meaning)\n") }
            if setup.adapter.readsClaudeStatusLine { statusLine = StatusLineIngest.demo }
        } else {
            let store = CacheStore(paths: context.paths)
            switch store.read() {
            case .loaded(let found): cache = found
            case .missing, .unusable: break
            case .refused(let why):
                // Another user's cache directory: show why instead of their numbers.
                return RenderSetup.report(.init(message: why, adapter: setup.adapter, short: cacheRefused), context: context)
            }
            if setup.adapter.readsClaudeStatusLine {
                (statusLine, cache) = StatusLineIngest(context: context, store: store, verbose: invocation.verbose)
                    .ingest(into: cache)
            }
            if !invocation.offline {
                let trigger = FetchTrigger(context: context, store: store, config: setup.config)
                if invocation.wait || FetchTrigger.isFirstRun(cache) {
                    // These show the fetch's result: start it now and wait for it.
                    if trigger.startIfDue(cache: cache) {
                        let timeout = invocation.wait ? 2 * setup.config.timeout + 2 : FetchTrigger.firstRunWait
                        cache = trigger.waitForAttempt(after: cache, timeout: timeout)
                    }
                } else {
                    fetchAfterOutput = trigger
                }
            }
        }
        let history = !setup.readsHistory ? nil
            : invocation.demo ? DemoReading.history(now: now) : loadHistory(context: context, verbose: invocation.verbose)
        let frame = setup.frame(cache: cache, now: context.now(), statusLine: statusLine, history: history)
        let output = setup.adapter.render(frame)
        context.stdout.write(output.text)
        _ = fetchAfterOutput?.startIfDue(cache: cache)
        context.endProcess?(output.exitCode)
        return output.exitCode
    }

    /// The usage history for `rate` and `spark`; a history file that cannot be used leaves them
    /// empty (`eta` and `pace` fall back to the whole-window average), said under `--verbose`.
    static func loadHistory(context: CLIContext, verbose: Bool) -> UsageHistory {
        do {
            return try HistoryStore(paths: context.paths).readForRender()
        } catch {
            if verbose { context.stderr.write("elbowroom: ignoring the usage history: \(error)\n") }
            return UsageHistory()
        }
    }
}
