#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ElbowroomCore

/// A Claude account's read (the default provider): Claude Code's login and Anthropic's usage
/// endpoint. Before the lock it refuses in token-free mode (`source = "statusline"`: no
/// credentials, no network, whoever started us) and refuses a cleartext or odd endpoint URL
/// before anything connects anywhere; under the lock it takes Claude Code's own usage snapshot
/// when that is newer (free data); its read renews the token when it expired, and once more on a
/// 401, under Claude Code's own locks (`TokenRenewal`), and keeps what the run learned
/// (`RunNotes`) beside the reading.
struct ClaudeProvider: UsageProvider {
    var context: FetchContext
    var config: Config
    let source: any CredentialSource
    let notes = RunNotes()
    /// The usage api and the token endpoint, once `prepare` has validated them.
    private var endpoints: (api: URL, token: URL)?

    init(context: FetchContext, config: Config) {
        self.context = context
        self.config = config
        source = context.credentialSource(paths: context.paths)
    }

    mutating func prepare() -> FetchReport.Result? {
        // Token-free mode: no credentials, no network, whoever started us.
        guard config.usageSource.mayFetch else { return .skipped(reason: UsageSource.statusLineRefusal) }
        // Refuse a cleartext or odd URL before anything connects anywhere.
        do {
            endpoints = (try EndpointURL.api(context.environment), try EndpointURL.token(context.environment))
        } catch {
            return .failed(.config("\(error)"))
        }
        return nil
    }

    func credentialsChanged() -> Date? { source.changedAt() }

    /// Claude Code's own copy, when it read usage itself since our last reading: free data.
    func withoutAsking(cache: CacheFile?, urgency: FetchUrgency, store: CacheStore) -> FetchReport? {
        let log = context.log
        guard urgency != .force, let snapshot = claudeSnapshot(newerThan: cache, now: context.clock()) else { return nil }
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
        return nil
    }

    func read(cache: CacheFile?) throws(FetchError) -> Reading {
        guard let endpoints else { throw .config("the endpoints were not checked") }
        let log = context.log
        let userAgent = config.userAgent ?? UsageClient.defaultUserAgent
        let client = UsageClient(apiBase: endpoints.api, transport: context.transport, timeout: config.timeout, userAgent: userAgent)
        let storage = ClaudeCodeStorage(environment: context.environment)
        for holder in storage.lockHolders(now: context.clock()) {
            log("claude code lock: \(holder)")
        }
        let renewal = TokenRenewal(
            source: source,
            refresher: TokenRefresher(tokenURL: endpoints.token, transport: context.transport, timeout: config.timeout, userAgent: userAgent),
            mode: config.refresh, detector: context.processDetector, log: log,
            notes: notes, storage: storage)
        return try fetch(client: client, renewal: renewal)
    }

    var note: String? { notes.message }
    var verb: String { "fetched" }

    /// Credentials → refresh when expired → fetch → on 401 at most one refresh and one retry.
    func fetch(client: UsageClient, renewal: TokenRenewal) throws(FetchError) -> Reading {
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
}
