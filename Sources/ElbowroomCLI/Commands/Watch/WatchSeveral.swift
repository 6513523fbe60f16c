import ElbowroomCore
import ElbowroomTemplate
import ElbowroomAdapters

extension WatchCommand {
    /// One account of a `watch` over several: its own cache, history, fetch trigger and notifier.
    struct WatchedAccount {
        var account: Account
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
            let tickBudget = SpawnBudget()
            for i in parts.indices {
                if invocation.demo {
                    if first {
                        parts[i].cache = DemoReading.cache(now: now, provider: parts[i].account.provider)
                        if needsHistory { parts[i].history = DemoReading.history(now: now) }
                    }
                    continue
                }
                let stamp = FileSystem.modificationDate(of: parts[i].store.file)
                if first || stamp != parts[i].stamp {
                    let why: String?
                    (parts[i].cache, why) = readCache(parts[i].store)
                    if let why, why != refusal { context.stderr.write("elbowroom: \(why)\n") }
                    refusal = why
                    if needsHistory { parts[i].history = HistoryStore(paths: parts[i].context.paths).loadForRender() }
                    parts[i].stamp = stamp
                }
                parts[i].notifier?.tick(cache: parts[i].cache, history: parts[i].history, now: now)
                guard !invocation.offline, refusal == nil else { continue }
                parts[i].trigger.budget = tickBudget
                if forceNow {
                    if parts[i].trigger.startIfDue(cache: parts[i].cache, urgency: .now) { parts[i].lastSpawn = now }
                } else if parts[i].lastSpawn.map({ now.timeIntervalSince($0) >= respawnGuard }) ?? true {
                    if parts[i].trigger.startIfDue(cache: parts[i].cache, urgency: .whenDue) { parts[i].lastSpawn = now }
                }
            }
            first = false
            if watchResumed != 0 {
                watchResumed = 0
                lastLine = nil
            }
            if out.readerHasGone() { return 0 }
            if watchPaused == 0 {
                let data = parts.map {
                    RenderSetup.AccountData(account: $0.account, cache: $0.cache, statusLine: nil, history: $0.history)
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
