import ElbowroomCore
import ElbowroomTemplate
import ElbowroomAdapters

/// One account of a long-running command (`watch`, `tray`, `serve`, `mcp`, `guard --until`), one
/// of a list of one or several (`AccountSelection`): its own cache, history, fetch trigger, respawn
/// guard and notifier.
struct WatchedAccount {
    /// Never start another fetch for an account sooner than this after starting one (a fetcher
    /// that died early must not turn into one spawn per tick, wake or answer).
    static let respawnGuard: TimeInterval = 15

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

    /// The account `part` chose, nothing read yet (the first `tick` or `read` reads it).
    init(_ part: AccountSelection.Part, config: Config) {
        account = part.account
        context = part.context
        store = CacheStore(paths: part.context.paths)
        trigger = FetchTrigger(context: part.context, store: store, config: config)
    }
}

extension [WatchedAccount] {
    /// One pass over every account (`watch` and `tray`, for one account or several): a demo's sample once,
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

    /// One answer's look at every account (`serve`, `mcp`; `watch` and `tray` `tick` instead):
    /// each cache read, each due fetch started when `mayStart` (within one `SpawnBudget`; none
    /// while the cache directory is refused; a first run's waited for, at most
    /// `FetchTrigger.firstRunWait`, when `waitForFirstRun`), each history read when `history`.
    /// Whether a fetch started (for the caller's respawn guard), and why the directory is refused.
    mutating func read(mayStart: Bool, waitForFirstRun: Bool, history: Bool) -> (started: Bool, refusal: String?) {
        let budget = SpawnBudget()
        var started = false
        var refusal: String?
        for i in indices {
            switch self[i].store.read() {
            case .loaded(let found): self[i].cache = found
            case .missing, .unusable: break
            case .refused(let why): refusal = why
            }
            if mayStart && refusal == nil {
                self[i].trigger.budget = budget
                if self[i].trigger.startIfDue(cache: self[i].cache) {
                    started = true
                    if waitForFirstRun && FetchTrigger.isFirstRun(self[i].cache) {
                        self[i].cache = self[i].trigger.waitForAttempt(after: self[i].cache, timeout: FetchTrigger.firstRunWait)
                    }
                }
            }
            if history { self[i].history = HistoryStore(paths: self[i].context.paths).loadForRender() }
        }
        return (started, refusal)
    }

    /// The frame of the pass: one account as a render shows one (in its context: no account
    /// name), several side by side as a render shows them.
    func frame(_ setup: RenderSetup, now: Date, template: Template? = nil) -> RenderedFrame {
        guard count > 1 else {
            return setup.frame(cache: self[0].cache, now: now, template: template, history: self[0].history,
                               provider: self[0].context.paths.provider)
        }
        return setup.frame(accounts: compactMap { part in
            part.account.map { RenderSetup.AccountData(account: $0, cache: part.cache, statusLine: nil, history: part.history) }
        }, now: now, template: template)
    }
}

extension WatchedAccount {
    /// One tick of one account (`watch` and `tray`): its cache (and history) re-read
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
        } else if lastSpawn.map({ now.timeIntervalSince($0) >= WatchedAccount.respawnGuard }) ?? true {
            if trigger.startIfDue(cache: cache, urgency: .whenDue) { lastSpawn = now }
        }
    }
}
