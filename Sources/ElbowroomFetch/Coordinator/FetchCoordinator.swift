#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ElbowroomCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `elbowroom-fetch` runs: config → provider → gate → read → save. What every provider's
/// fetch shares is here; how an account's usage is read is its provider's (`UsageProvider`,
/// chosen by `ProviderRegistry`: Claude's credentials, refresh and fetch are `ClaudeProvider`'s).
///
/// - `whenDue` takes the account's fetch lock without waiting (held → someone else is fetching:
///   skip quietly); `now` and `force` wait for it, bounded.
/// - After taking the lock the cache is read again and the policy asked again, so fifty prompts
///   racing to start a fetch make exactly one request.
/// - Every attempt and outcome goes through Core's cache, so every process obeys cooldowns —
///   failures before any request (config, credentials, a refresh refused because its tokens
///   could not be saved) included. When the cache file cannot be written the state still
///   persists (`record`), so a full disk never turns into a request per render.
public struct FetchCoordinator: Sendable {
    public let context: FetchContext

    public init(context: FetchContext) {
        self.context = context
    }

    /// - Parameter maxAge: overrides the config's `max_age` (the renderer's `--max-age`).
    public func run(urgency: FetchUrgency, maxAge: TimeInterval? = nil) -> FetchReport {
        let log = context.log
        let paths = context.paths
        let store = CacheStore(paths: paths)
        log("urgency \(urgency.rawValue), cache \(paths.cacheFile)")

        // The config.
        var config: Config
        do {
            config = try Config.load(paths: paths)
        } catch {
            let failure = FetchError.config("\(error)")
            return FetchReport(result: .failed(failure), cache: record(failure, store: store))
        }
        if let maxAge { config.maxAge = maxAge }

        // The account's provider: how its usage is read.
        var provider: any UsageProvider
        do {
            provider = try ProviderRegistry.provider(for: paths.identity, context: context, config: config)
        } catch {
            return FetchReport(result: .failed(error), cache: record(error, store: store))
        }
        switch provider.prepare() {
        case .skipped(let reason)?: return FetchReport(result: .skipped(reason: reason), cache: store.load())
        case .failed(let failure)?: return FetchReport(result: .failed(failure), cache: record(failure, store: store))
        case .fetched?, nil: break
        }

        // The gate: the policy, the account's lock, the policy again.
        let lock: FileLock
        let cache: CacheFile?
        switch gate(urgency: urgency, config: config, store: store, credentialsChanged: { provider.credentialsChanged() }) {
        case .done(let report): return report
        case .go(let held, let underLock):
            lock = held
            cache = underLock
        }
        defer { lock.unlock() }
        if let report = provider.withoutAsking(cache: cache, urgency: urgency, store: store) { return report }

        // The read. Before the first byte leaves: should this process die mid-read, the attempt
        // is on record all the same, with its backoff (the lock file's marker, laid over the cache).
        var inFlight = cache?.fetch ?? FetchState()
        inFlight.recordFailure(.interrupted, message: Messages.interrupted, at: context.clock())
        try? store.saveMarker(inFlight, now: context.clock())
        let fetched: Reading
        do {
            fetched = try provider.read(cache: cache)
        } catch {
            log("failed: \(error.outcome.rawValue)")
            let failure = provider.failure(error)
            return FetchReport(result: .failed(failure), cache: record(failure, store: store))
        }

        // The save.
        let (reading, dropped) = fetched.limitedForCache()
        log("\(provider.verb) \(fetched.windows.count) window(s)")
        if dropped > 0 {
            log("kept \(reading.windows.count) of them in the cache, dropped \(dropped) (more than \(ReadingLimits.maxWindows), or keys over \(ReadingLimits.maxKeyBytes) bytes)")
        }
        return save(reading, note: provider.note.map(log.redact), store: store, verb: provider.verb)
    }

    /// What a fetch may do, after the politeness every provider's fetch shares: `.go` with the account's fetch lock held (the caller unlocks it) and the cache
    /// as it is under the lock; `.done` when the policy says not now, before or under the lock,
    /// when another fetch runs (`whenDue`), or when the process that held the lock just fetched
    /// (its result is ours).
    enum Gate {
        case go(FileLock, CacheFile?)
        case done(FetchReport)
    }

    func gate(urgency: FetchUrgency, config: Config, store: CacheStore, credentialsChanged: () -> Date?) -> Gate {
        let log = context.log
        let paths = context.paths
        let first = RefreshPolicy.decide(cache: store.load(), now: context.clock(), config: config,
                                         urgency: urgency, credentialsChanged: credentialsChanged())
        log("decision: \(first.shouldFetch ? "fetch" : "skip") (\(first.reason))")
        if !first.shouldFetch {
            return .done(FetchReport(result: .skipped(reason: first.reason), cache: store.load()))
        }

        // One fetch per account at a time, across processes.
        let lock: FileLock
        do {
            try FileSystem.makeDirectory(paths.cacheDir, mode: 0o700)
            lock = try FileLock(path: paths.fetchLockFile)
        } catch {
            return .done(FetchReport(result: .failed(.config("cannot use the cache directory: \(error)")), cache: nil))
        }
        let started = context.clock()
        let wait = config.timeout * 3 + 5
        var waited = false
        if urgency == .whenDue {
            guard lock.tryLock() else {
                log("another fetch holds the lock; leaving it to that one")
                return .done(FetchReport(result: .skipped(reason: "another fetch is running"), cache: store.load()))
            }
        } else if !lock.tryLock() {
            waited = true
            log("waiting for the fetch running in another process")
            guard Self.wait(for: lock, seconds: wait) else {
                return .done(FetchReport(result: .failed(.timeout(wait)), cache: store.load()))
            }
        }

        // Re-decide under the lock: whoever held it may have just done our work.
        let cache = store.load()
        if waited, let attempt = cache?.fetch.lastAttempt, attempt >= started.addingTimeInterval(-1) {
            log("the other process just fetched; using its result")
            lock.unlock()
            if let outcome = cache?.fetch.lastOutcome, outcome != .ok {
                return .done(FetchReport(result: .failed(.recorded(outcome, cache?.fetch.message ?? outcome.rawValue)), cache: cache))
            }
            return .done(FetchReport(result: .skipped(reason: "fetched by another process"), cache: cache))
        }
        let second = RefreshPolicy.decide(cache: cache, now: context.clock(), config: config,
                                          urgency: urgency, credentialsChanged: credentialsChanged())
        guard second.shouldFetch else {
            log("decision under the lock: skip (\(second.reason))")
            lock.unlock()
            return .done(FetchReport(result: .skipped(reason: second.reason), cache: cache))
        }
        return .go(lock, cache)
    }

    /// Records a successful attempt's reading. The attempt ended, so the in-flight marker goes
    /// before the cache records how (it would otherwise count as a failure of its own). A reading
    /// that cannot be kept makes the attempt a failure: its backoff is what stops the next render
    /// from asking again.
    func save(_ reading: Reading, note: String?, store: CacheStore, verb: String) -> FetchReport {
        let now = context.clock()
        store.clearMarker()
        do {
            let saved = try store.update { cache in
                var fresh = reading
                if fresh.plan == nil { fresh.plan = cache.reading?.plan }
                cache.account = store.account
                cache.reading = fresh
                cache.fetch.recordSuccess(at: now, note: note)
                return true
            }
            store.clearMarker()
            return FetchReport(result: .fetched, cache: saved)
        } catch {
            context.log("cannot write the cache: \(error)")
            let failure = FetchError.unstorable("\(verb), but cannot write the cache \(store.file): \(error)")
            var cache = record(failure, store: store)
            cache?.reading = reading
            return FetchReport(result: .failed(failure), cache: cache)
        }
    }

    /// Records a failure so every process obeys its backoff; returns the cache after. The cache
    /// file first (keeping the reading it holds); when that cannot be written, the fetch lock file
    /// (`FetchStateMarker`), which this run holds or at least can open.
    func record(_ error: FetchError, store: CacheStore) -> CacheFile? {
        let log = context.log
        let now = context.clock()
        let message = log.redact(error.description)
        store.clearMarker()
        do {
            let saved = try store.update { cache in
                cache.account = store.account
                cache.fetch.recordFailure(error.outcome, message: message, at: now, retryAfter: error.retryAfter)
                return true
            }
            store.clearMarker()
            return saved
        } catch let failure {
            var cache = store.loadOrEmpty()
            cache.fetch.recordFailure(error.outcome, message: message, at: now, retryAfter: error.retryAfter)
            do {
                try store.saveMarker(cache.fetch, now: now)
                log("cannot write the cache (\(failure)); kept the fetch state in \(store.fetchLockFile)")
            } catch {
                log("cannot write the cache (\(failure)) nor the fetch state (\(error))")
            }
            return cache
        }
    }

    /// Polls the lock until `seconds` pass (flock has no timed wait).
    static func wait(for lock: FileLock, seconds: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if lock.tryLock() { return true }
            usleep(50_000)
        }
        return false
    }
}
