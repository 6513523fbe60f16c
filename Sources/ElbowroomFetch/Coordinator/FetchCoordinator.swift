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

/// What `elbowroom-fetch` runs: lock, decide, credentials, maybe refresh, fetch, record.
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
        let env = context.environment
        let paths = context.paths
        let store = CacheStore(paths: paths)
        log("urgency \(urgency.rawValue), cache \(paths.cacheFile)")

        var config: Config
        do {
            config = try Config.load(paths: paths)
        } catch {
            let failure = FetchError.config("\(error)")
            return FetchReport(result: .failed(failure), cache: record(failure, store: store))
        }
        if let maxAge { config.maxAge = maxAge }
        let timeout = config.timeout
        // An account of another provider (`[accounts.NAME] provider`): its own read.
        if let provider = env["ELBOWROOM_PROVIDER"] {
            return runProvider(provider, urgency: urgency, config: config, store: store)
        }
        // Token-free mode: no credentials, no network, whoever started us.
        guard config.usageSource.mayFetch else {
            return FetchReport(result: .skipped(reason: UsageSource.statusLineRefusal), cache: store.load())
        }

        // Refuse a cleartext or odd URL before anything connects anywhere.
        let apiURL: URL
        let tokenURL: URL
        do {
            apiURL = try EndpointURL.api(env)
            tokenURL = try EndpointURL.token(env)
        } catch {
            let failure = FetchError.config("\(error)")
            return FetchReport(result: .failed(failure), cache: record(failure, store: store))
        }

        let source = context.credentialSource(paths: paths)
        let lock: FileLock
        let cache: CacheFile?
        switch gate(urgency: urgency, config: config, store: store, credentialsChanged: source.changedAt) {
        case .done(let report): return report
        case .go(let held, let underLock):
            lock = held
            cache = underLock
        }
        defer { lock.unlock() }

        // Claude Code's own copy, when it read usage itself since our last reading: free data.
        if urgency != .force, let snapshot = claudeSnapshot(newerThan: cache, now: context.clock()) {
            let age = context.clock().timeIntervalSince(snapshot.fetchedAt)
            log("claude code's own usage snapshot is newer (\(Int(age))s old); taking it")
            if let saved = try? store.update({ cache in
                var fresh = snapshot
                if fresh.plan == nil { fresh.plan = cache.reading?.plan }
                cache.account = store.account
                cache.reading = fresh
                // As if fetched then: the next fetch is due when the snapshot is `max_age` old.
                cache.fetch.recordSuccess(at: snapshot.fetchedAt, note: cache.fetch.message)
                return true
            }), age < config.maxAge {
                store.clearMarker()
                return FetchReport(result: .skipped(reason: "took claude code's own usage snapshot (\(Int(age))s old)"), cache: saved)
            }
        }
        let userAgent = config.userAgent ?? UsageClient.defaultUserAgent
        let client = UsageClient(apiBase: apiURL, transport: context.transport, timeout: timeout, userAgent: userAgent)
        let notes = RunNotes()
        let storage = ClaudeCodeStorage(environment: env)
        for holder in storage.lockHolders(now: context.clock()) {
            log("claude code lock: \(holder)")
        }
        let renewal = TokenRenewal(
            source: source,
            refresher: TokenRefresher(tokenURL: tokenURL, transport: context.transport, timeout: timeout, userAgent: userAgent),
            mode: config.refresh, detector: context.processDetector, log: log,
            notes: notes, storage: storage)
        // Before the first byte leaves: should this process die mid-fetch, the attempt is on
        // record all the same, with its backoff (the lock file's marker, laid over the cache).
        var inFlight = cache?.fetch ?? FetchState()
        inFlight.recordFailure(.interrupted, message: Messages.interrupted, at: context.clock())
        try? store.saveMarker(inFlight, now: context.clock())
        let fetched: Reading
        do {
            fetched = try fetch(client: client, renewal: renewal, source: source)
        } catch {
            log("failed: \(error.outcome.rawValue)")
            return FetchReport(result: .failed(error), cache: record(error, store: store))
        }
        let (reading, dropped) = fetched.limitedForCache()
        log("fetched \(fetched.windows.count) window(s)")
        if dropped > 0 {
            log("kept \(reading.windows.count) of them in the cache, dropped \(dropped) (more than \(ReadingLimits.maxWindows), or keys over \(ReadingLimits.maxKeyBytes) bytes)")
        }
        return save(reading, note: notes.message.map(log.redact), store: store, verb: "fetched")
    }

    /// What a fetch may do, after the politeness every fetch shares (Claude's and another
    /// provider's): `.go` with the account's fetch lock held (the caller unlocks it) and the cache
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

    /// Credentials → refresh when expired → fetch → on 401 at most one refresh and one retry.
    func fetch(client: UsageClient, renewal: TokenRenewal, source: any CredentialSource) throws(FetchError) -> Reading {
        let log = context.log
        var credentials: OAuthCredentials
        switch source.load() {
        case .oauth(let found, _):
            credentials = found
        case .missing, .loggedOut, .mcpOnly:
            log("no claude login in \(source.label)")
            throw .signedOut(context.environment.hasInferenceOnlyToken ? Messages.inferenceOnly : Messages.signedOut)
        case .malformed:
            throw .signedOut(Messages.malformed(source.label))
        }
        log.secret(credentials.accessToken)
        log.secret(credentials.refreshToken)
        log("credentials from \(source.label): \(credentials)")

        var renewed = false
        if credentials.isExpired(at: context.clock()) {
            log("access token expired")
            credentials = try renewal.renew(stale: credentials, why: "the access token expired", now: context.clock())
            renewed = true
        }
        log("GET \(client.usageURL.absoluteString)")
        do {
            return try client.fetch(accessToken: credentials.accessToken, plan: credentials.subscriptionType,
                                    scopes: credentials.scopes, now: context.clock())
        } catch .unauthorized where !renewed {
            log("401: trying one refresh")
            credentials = try renewal.renew(stale: credentials, why: "the usage api rejected the token (401)",
                                            now: context.clock())
            log("GET \(client.usageURL.absoluteString) (retry)")
            return try client.fetch(accessToken: credentials.accessToken, plan: credentials.subscriptionType,
                                    scopes: credentials.scopes, now: context.clock())
        }
    }

    /// Claude Code's usage snapshot (`cachedUsageUtilization` in its global config,
    /// `$CLAUDE_CONFIG_DIR/.claude.json`, else `~/.claude.json`) when it is newer than `cache`'s
    /// reading and belongs to the signed-in account (`ClaudeSnapshot`). The global config can be
    /// megabytes: this is read here, in the fetcher, never on the render path.
    func claudeSnapshot(newerThan cache: CacheFile?, now: Date) -> Reading? {
        let file = ClaudeCodeStorage(environment: context.environment).globalConfigFile
        guard let data = FileSystem.read(file, limit: 64 << 20),
              let snapshot = ClaudeSnapshot.reading(fromGlobalConfig: data, now: now, plan: cache?.reading?.plan),
              snapshot.fetchedAt > (cache?.reading?.fetchedAt ?? .distantPast) else { return nil }
        return snapshot
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
