import ElbowroomCore
import ElbowroomTemplate
import ElbowroomAdapters

extension WatchCommand {
    /// One account of a `watch` over several: its own cache, history, fetch trigger and notifier.
    struct WatchedAccount {
        /// `nil` for the environment's own account (no `[accounts.NAME]`).
        var account: Account?
        var context: CLIContext
        var store: CacheStore
        var trigger: FetchTrigger
        var notifier: WatchNotifier?
        var cache: CacheFile?
        var stamp: Date?
        var history: UsageHistory?
        var lastSpawn: Date?
    }

    /// `watch` over several accounts: every tick each account's cache is looked at (a `stat`
    /// each) and re-read when it changed, each account's fetch starts when it is due (each with
    /// its own respawn guard), and the line shows them side by side as a render does. SIGUSR1
    /// and left clicks refresh every account, coalesced as for one.
    static func runSeveral(_ invocation: Invocation, setup: RenderSetup, selection: AccountSelection,
                           context: CLIContext) -> Int32 {
        installSignalHandlers()
        let out = StreamWriter(sink: context.stdout)
        let cycle = templateCycle(setup, paths: context.paths)
        var cycleIndex = 0
        var parts: [WatchedAccount] = []
        for selected in selection.parts {
            guard let account = selected.account else { continue }
            let accountContext = selected.context
            let store = CacheStore(paths: accountContext.paths)
            parts.append(WatchedAccount(
                account: account, context: accountContext, store: store,
                trigger: FetchTrigger(context: accountContext, store: store, config: setup.config),
                notifier: invocation.demo ? nil : WatchNotifier(invocation, setup: setup, context: accountContext, store: store)))
        }
        let needsHistory = invocation.notify || setup.readsHistory || cycle.contains { $0.readsHistory }
        var lastForced: Date?
        var refreshPending = false
        var lastLine: String?
        var clicks = ClickInput(fd: context.stdinFD)
        if let header = setup.adapter.streamHeader(),
           out.write(header, waiting: true, stop: { watchStopRequested != 0 }) != .written { return 0 }
        var first = true
        var refusal: String?  // the cache directory is every account's: one refusal for all
        while watchStopRequested == 0 {
            if !parts.contains(where: { $0.notifier?.isSending == true }) { PosixSpawner.reapFinishedChildren() }
            let now = context.now()
            if watchRefreshRequested != 0 {
                watchRefreshRequested = 0
                refreshPending = true
            }
            if invocation.demo || invocation.offline { refreshPending = false }
            let forceNow = refreshPending && (lastForced.map { now.timeIntervalSince($0) >= forcedRefreshInterval } ?? true)
            if forceNow {
                refreshPending = false
                lastForced = now
            }
            // At most `SpawnBudget.perPass` fetchers a tick; the rest on the next ones.
            parts.tick(now: now, first: first, force: forceNow, invocation: invocation, needsHistory: needsHistory,
                       budget: SpawnBudget(), refusal: &refusal, stderr: context.stderr)
            first = false
            if watchResumed != 0 {
                watchResumed = 0
                lastLine = nil
            }
            if out.readerHasGone() { return 0 }
            if watchPaused == 0 {
                let data = parts.compactMap { part in
                    part.account.map { RenderSetup.AccountData(account: $0, cache: part.cache, statusLine: nil, history: part.history) }
                }
                let line = refusal != nil ? setup.adapter.streamError(RenderCommand.cacheRefused)
                    : setup.adapter.streamFrame(setup.frame(accounts: data, now: now, template: cycle[cycleIndex]))
                if line != lastLine {
                    switch out.write(line, stop: { watchStopRequested != 0 }) {
                    case .written: lastLine = line
                    case .busy: break
                    case .gone: return 0
                    }
                }
            }
            WatchCommand.waitForTick(&clicks, interval: invocation.interval, now: now, lastForced: lastForced,
                                     cycleCount: cycle.count, refreshPending: &refreshPending,
                                     cycleIndex: &cycleIndex, lastLine: &lastLine)
        }
        return 0
    }
}

extension [WatchCommand.WatchedAccount] {
    /// One pass over every account (`watch` over several, and `tray`): a demo's sample once,
    /// else each account's `tick`, within this pass's `budget` of fetchers.
    mutating func tick(now: Date, first: Bool, force: Bool, invocation: Invocation, needsHistory: Bool,
                       budget: SpawnBudget?, refusal: inout String?, stderr: any OutputSink) {
        for i in indices {
            if invocation.demo {
                if first {
                    self[i].cache = DemoReading.cache(now: now, provider: self[i].account?.provider ?? self[i].context.paths.provider)
                    if needsHistory { self[i].history = DemoReading.history(now: now) }
                }
                continue
            }
            self[i].tick(now: now, first: first, force: force, offline: invocation.offline,
                         needsHistory: needsHistory, budget: budget, refusal: &refusal, stderr: stderr)
        }
    }
}

extension WatchCommand.WatchedAccount {
    /// One tick of one account (`watch` over several, and `tray`): its cache (and history) re-read
    /// when the file changed (a `stat`), its due notifications sent, and its fetch started when
    /// due, with its own respawn guard; `force` asks for a refresh now (coalesced by the caller).
    /// `refusal` is why the cache directory is refused (every account's: one for all), said on
    /// `stderr` once when it changes.
    /// `budget`: the fetchers this pass over the accounts may still start (`SpawnBudget`).
    mutating func tick(now: Date, first: Bool, force: Bool, offline: Bool, needsHistory: Bool, budget: SpawnBudget?,
                       refusal: inout String?, stderr: any OutputSink) {
        let stamp = FileSystem.modificationDate(of: store.file)
        // A refused directory is looked at again each tick (its owner or mode may be fixed).
        if first || stamp != self.stamp || refusal != nil {
            let why: String?
            (cache, why) = WatchCommand.readCache(store)
            if let why, why != refusal { stderr.write("elbowroom: \(why)\n") }
            refusal = why
            if needsHistory { history = HistoryStore(paths: context.paths).loadForRender() }
            self.stamp = stamp
        }
        notifier?.tick(cache: cache, history: history, now: now)
        guard !offline, refusal == nil else { return }
        trigger.budget = budget
        if force {
            if trigger.startIfDue(cache: cache, urgency: .now) { lastSpawn = now }
        } else if lastSpawn.map({ now.timeIntervalSince($0) >= WatchCommand.respawnGuard }) ?? true {
            if trigger.startIfDue(cache: cache, urgency: .whenDue) { lastSpawn = now }
        }
    }
}
