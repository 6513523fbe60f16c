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
        // The accounts chosen (`Config.accounts(chosenBy:)`, the rule every command follows): one
        // renders in its context (the environment's own: no tables), several side by side.
        // (The chosen `[Account]`, not `AccountSelection`: an array of a type the render path uses
        // nowhere else costs its metadata.)
        let accounts: [Account]
        do {
            accounts = try setup.config.accounts(chosenBy: invocation.account)
        } catch {
            return RenderSetup.report(.init(message: error.message, adapter: setup.adapter, short: "unknown account"),
                                      context: context)
        }
        if accounts.count > 1 { return runSeveral(invocation, setup: setup, accounts: accounts, context: context) }
        return run(invocation, setup: setup, context: accounts.first.map { context.selecting($0) } ?? context)
    }

    /// One account's render. (A function of its own: inlined into the one that picks the
    /// accounts, its locals were 6.7 kB of stack under every render of several accounts.)
    @inline(never)
    static func run(_ invocation: Invocation, setup: RenderSetup, context: CLIContext) -> Int32 {
        let now = context.now()
        var statusLine: StatusLineInput?
        var cache: CacheFile?
        // A fetch that is due starts once the output is written: the prompt or bar has its text
        // before the fork, and the parent then touches almost no memory the fork shared (each
        // page it writes after a fork is copied first).
        var fetchAfterOutput: FetchTrigger?
        // The cache's and the history's paths, and the frame and output, live until the process
        // ends: freed, a string of 64 bytes or more (a long path, a tooltip's line) costs a
        // render ~31 k instructions (the runtime's metadata for `_StringBreadcrumbs?` on the first
        // free of such a string; docs/performance.md).
        let store = CacheStore(paths: context.paths)
        let historyStore = setup.readsHistory && !invocation.demo ? HistoryStore(paths: context.paths) : nil
        if invocation.demo {
            cache = DemoReading.cache(now: now, provider: context.paths.provider)
            // A person looking (a terminal): say what the numbers count, where they first see them.
            if context.stdoutIsTTY { context.stderr.write("elbowroom: sample numbers; \(setup.config.display.meaning)\n") }
            if setup.adapter.readsClaudeStatusLine { statusLine = StatusLineIngest.demo }
        } else {
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
                        let timeout = invocation.wait ? FetchTrigger.waitTimeout(setup.config) : FetchTrigger.firstRunWait
                        cache = trigger.waitForAttempt(after: cache, timeout: timeout)
                    }
                } else {
                    fetchAfterOutput = trigger
                }
            }
        }
        let history = !setup.readsHistory ? nil
            : invocation.demo ? DemoReading.history(now: now)
            : historyStore.map { loadHistory($0, windows: windowKeys(cache), context: context, verbose: invocation.verbose) }
        let frame = setup.frame(cache: cache, now: context.now(), statusLine: statusLine, history: history,
                                provider: context.paths.provider)
        let output = setup.adapter.render(frame)
        context.stdout.write(output)
        _ = fetchAfterOutput?.startIfDue(cache: cache)
        context.endProcess?(output.exitCode)
        withExtendedLifetime((store, historyStore, frame, output)) {}
        return output.exitCode
    }

    /// Several accounts on one line: each account's cache read (one small file each), Claude
    /// Code's status line ingested into the account it belongs to (the one the environment's
    /// `CLAUDE_CONFIG_DIR` names), each account's fetch started when due, after the output.
    static func runSeveral(_ invocation: Invocation, setup: RenderSetup, accounts: [Account],
                           context: CLIContext) -> Int32 {
        // Another user's cache directory: why, instead of every account "loading" (as one account shows it).
        if !invocation.demo, let why = CacheStore(paths: context.paths).refusal {
            return RenderSetup.report(.init(message: why, adapter: setup.adapter, short: cacheRefused), context: context)
        }
        return show(gather(invocation, setup: setup, accounts: accounts, context: context), invocation, setup: setup,
                    context: context)
    }

    /// The frame of several accounts, rendered, written, and their fetches started. (A function
    /// of its own: its frame and output were in `runSeveral`'s stack frame while the accounts
    /// were gathered, 4.8 kB under every cache read.)
    @inline(never)
    private static func show(_ data: [RenderSetup.AccountData], _ invocation: Invocation, setup: RenderSetup,
                             context: CLIContext) -> Int32 {
        let frame = setup.frame(accounts: data, now: context.now())
        let output = setup.adapter.render(frame)
        context.stdout.write(output)
        if !invocation.wait {
            for part in data where !part.waits { _ = part.trigger?.startIfDue(cache: part.cache) }
        }
        context.endProcess?(output.exitCode)
        // The accounts' parts, the frame and the output live until the process ends, as one
        // account's do: freed, their long paths and lines cost the first free's ~31 k
        // instructions of metadata.
        withExtendedLifetime((data, frame, output)) {}
        return output.exitCode
    }

    /// Each account's part of a several-account render: its cache, the status line ingested
    /// where it belongs, its history, and its fetch trigger (a first run's or `--wait`'s fetch
    /// already waited for; the rest are the caller's to start, after the output).
    static func gather(_ invocation: Invocation, setup: RenderSetup, accounts: [Account],
                       context: CLIContext) -> [RenderSetup.AccountData] {
        let now = context.now()
        var data: [RenderSetup.AccountData] = []
        data.reserveCapacity(accounts.count)  // (one allocation, not one per doubling)
        var waits = false
        // At most `SpawnBudget.perPass` fetchers from one render, whatever the number of accounts due.
        let budget = SpawnBudget()
        for account in accounts {
            let part = gather(account, invocation, setup: setup, context: context, budget: budget, now: now)
            waits = waits || part.waits
            data.append(part)
        }
        if waits { waitForFetches(&data, invocation, setup: setup, context: context) }
        return data
    }

    /// The fetches that show their result were started together: waits for them within one
    /// deadline, not one each. (A function of its own, out of `gather`'s stack frame.)
    @inline(never)
    private static func waitForFetches(_ data: inout [RenderSetup.AccountData], _ invocation: Invocation,
                                       setup: RenderSetup, context: CLIContext) {
        let deadline = context.now().addingTimeInterval(
            invocation.wait ? FetchTrigger.waitTimeout(setup.config) : FetchTrigger.firstRunWait)
        for i in data.indices where data[i].waits {
            let left = max(0, deadline.timeIntervalSince(context.now()))
            data[i].cache = data[i].trigger?.waitForAttempt(after: data[i].cache, timeout: left) ?? data[i].cache
        }
    }

    /// One account's part of `gather`. A function of its own: inlined into the loop, its
    /// contexts, stores and trigger made `gather`'s stack frame 10 kB, below which the first
    /// array of a new type ran the runtime's demangler three pages deeper than it needed to.
    @inline(never)
    private static func gather(_ account: Account, _ invocation: Invocation, setup: RenderSetup, context: CLIContext,
                               budget: SpawnBudget, now: Date) -> RenderSetup.AccountData {
        let accountContext = context.selecting(account)
        var part = RenderSetup.AccountData(account: account)
        if invocation.demo {
            part.cache = DemoReading.cache(now: now, provider: account.provider)
            if setup.adapter.readsClaudeStatusLine && account.provider == .claude { part.statusLine = StatusLineIngest.demo }
        } else {
            let store = CacheStore(paths: accountContext.paths)
            // (`runSeveral` asked whether the cache directory can be used, for every account.)
            if case .loaded(let found) = store.read(directoryChecked: true) { part.cache = found }
            if setup.adapter.readsClaudeStatusLine && account.provider == .claude
                && accountContext.paths.accountKey == context.paths.accountKey {
                ingest(into: &part, context: accountContext, store: store, verbose: invocation.verbose)
            }
            if !invocation.offline {
                trigger(&part, invocation, setup: setup, context: accountContext, store: store, budget: budget)
            }
        }
        if setup.readsHistory {
            part.history = invocation.demo ? DemoReading.history(now: now)
                : loadHistory(HistoryStore(paths: accountContext.paths), windows: windowKeys(part.cache),
                              context: accountContext, verbose: invocation.verbose)
        }
        return part
    }

    // (The status line's ingest and the fetch trigger are functions of their own for the same
    // reason: their locals were in every account's frame while its cache was read.)

    @inline(never)
    private static func ingest(into part: inout RenderSetup.AccountData, context: CLIContext, store: CacheStore,
                               verbose: Bool) {
        (part.statusLine, part.cache) = StatusLineIngest(context: context, store: store, verbose: verbose).ingest(into: part.cache)
    }

    @inline(never)
    private static func trigger(_ part: inout RenderSetup.AccountData, _ invocation: Invocation, setup: RenderSetup,
                                context: CLIContext, store: CacheStore, budget: SpawnBudget) {
        let trigger = FetchTrigger(context: context, store: store, config: setup.config, budget: budget)
        if invocation.wait || FetchTrigger.isFirstRun(part.cache) {
            part.waits = trigger.startIfDue(cache: part.cache)
        }
        part.trigger = trigger
    }

    /// The keys of the windows `cache`'s reading has: the only windows a render shows, so the
    /// only ones whose history it reads (`nil`: no reading, every window).
    static func windowKeys(_ cache: CacheFile?) -> [String]? {
        cache?.reading?.windows.map { $0.key }
    }

    /// The usage history for `rate` and `spark`, from `store` (which a one-shot render keeps to
    /// its end); a history file that cannot be used leaves them empty (`eta` and `pace` fall
    /// back to the whole-window average), said under `--verbose`. `windows`: the keys of the
    /// windows the render shows, whose series alone are read (`nil`: all; `windowKeys`).
    static func loadHistory(_ store: HistoryStore, windows: [String]? = nil, context: CLIContext,
                            verbose: Bool) -> UsageHistory {
        do {
            return try store.readForRender(windows: windows)
        } catch {
            if verbose { context.stderr.write("elbowroom: ignoring the usage history: \(error)\n") }
            return UsageHistory()
        }
    }
}
