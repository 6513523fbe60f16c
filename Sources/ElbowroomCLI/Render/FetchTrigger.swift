// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// Starts `elbowroom-fetch` in the background when the cache says a refresh is due, and (only when
/// asked, or when there has never been data) waits a bounded time for it to land.
struct FetchTrigger {
    var context: CLIContext
    var store: CacheStore
    var config: Config
    /// Shared by the accounts of one render (or serve answer, or watch tick): starts beyond it
    /// wait for a later one (`SpawnBudget`). `nil`: one account, no limit.
    var budget: SpawnBudget? = nil

    /// The first render ever waits this long for data rather than printing "loading".
    static let firstRunWait: TimeInterval = 2

    /// How long `--wait` (and guard, notify) waits for a fetch it started: a fetch's request
    /// and a token refresh, each within `timeout`, and a little for the process.
    static func waitTimeout(_ config: Config) -> TimeInterval { 2 * config.timeout + 2 }

    /// Starts a fetch when due. Returns whether one was started (or is already running).
    @discardableResult
    func startIfDue(cache: CacheFile?, urgency: FetchUrgency = .whenDue) -> Bool {
        // `source = "statusline"`: never start the fetcher for Claude's login (nor look at the
        // credentials file).
        let paths = context.paths
        guard config.usageSource.mayFetch(paths) else { return false }
        let credentialsChanged = FileSystem.modificationDate(of: paths.credentialsFile)
        let decision = RefreshPolicy.decide(
            cache: cache, now: context.now(), config: config, urgency: urgency, credentialsChanged: credentialsChanged)
        guard decision.shouldFetch else { return false }
        // Someone is fetching already: their result will land in the cache.
        if FileLock.isHeld(paths.fetchLockFile) { return true }
        // A fetcher that could not write the cache kept its attempt (and any cooldown) in the
        // fetch lock: decide again with it, as the fetcher itself would (CacheStore.withMarker).
        if let marked = store.withMarker(cache), marked.fetch != cache?.fetch,
           !RefreshPolicy.decide(cache: marked, now: context.now(), config: config, urgency: urgency,
                                 credentialsChanged: credentialsChanged).shouldFetch {
            return false
        }
        guard let fetcher = context.fetcher else {
            context.stderr.write("elbowroom: \(FetcherProgram.notFound)\n")
            return false
        }
        if let budget, !budget.take() { return false }
        do {
            try context.spawner.spawnDetached(
                path: fetcher.path,
                arguments: fetcher.arguments(["--urgency", urgency.rawValue, "--max-age", "\(Int(config.maxAge.rounded(.up)))"]),
                childOf: context.environment)
            return true
        } catch {
            context.stderr.write("elbowroom: \(error)\n")
            return false
        }
    }

    /// Whether this account has never seen a fetch: the one case a plain render waits.
    static func isFirstRun(_ cache: CacheFile?) -> Bool {
        guard let cache else { return true }
        return cache.reading == nil && cache.fetch.lastAttempt == nil
    }

    /// Polls the cache until a fetch attempt newer than `cache`'s lands, or `timeout` passes, or
    /// (after a moment for the fetcher to start) nobody holds the fetch lock any more: a fetcher
    /// that decided to skip records no attempt, and waiting on for it would only hang the prompt.
    func waitForAttempt(after cache: CacheFile?, timeout: TimeInterval) -> CacheFile? {
        let before = cache?.fetch.lastAttempt
        let start = context.now()
        let deadline = start.addingTimeInterval(timeout)
        var latest = cache
        while context.now() < deadline {
            context.sleep(0.05)
            latest = store.load() ?? latest
            if let fetch = latest?.fetch, let attempt = fetch.lastAttempt, before.map({ attempt > $0 }) ?? true {
                // The fetcher records its attempt as `interrupted` before the first byte leaves
                // (in case it dies): while it still holds the lock, that is a fetch under way.
                if fetch.lastOutcome != .interrupted || !FileLock.isHeld(context.paths.fetchLockFile) {
                    return latest
                }
            }
            if context.now().timeIntervalSince(start) >= 1, !FileLock.isHeld(context.paths.fetchLockFile) {
                return latest
            }
        }
        return latest
    }
}
