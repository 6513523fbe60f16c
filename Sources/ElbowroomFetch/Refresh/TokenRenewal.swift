#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ElbowroomCore

/// Gets a usable access token when the stored one expired or was rejected, without ever racing
/// Claude Code or another elbowroom into a refresh-token reuse. Runs under the account's fetch lock.
///
/// 1. Re-read the credentials: if someone else (Claude Code, another elbowroom) already put a new,
///    unexpired token there, use it — no request.
/// 2. `refresh = never` stops here ("open Claude Code to refresh").
/// 3. Prove the new tokens can be saved — the document rewrites and reads back with every other
///    key intact, the source takes a write of that size now — or refresh nothing: a refresh
///    spends the old refresh token, and a rotated one that cannot be saved logs the user out.
/// 4. Take Claude Code's own refresh locks (`ClaudeCodeRefreshLock`), in its order. While Claude
///    Code holds them, wait as it does (up to 5 tries 1–2 s apart, re-reading the credentials
///    each time: its new token is ours to use), then back off; never race it. Where the locks
///    cannot be made at all (a read-only directory), `auto` falls back to refreshing only while
///    no Claude Code process of this user runs; `always` goes ahead.
/// 5. Re-read once more with the locks held: someone may have refreshed just before.
/// 6. Refresh with the newest refresh token, with SIGTERM/SIGINT/SIGHUP held back until the new
///    tokens are saved (`TerminationSignals`), and save them as Claude Code does: under its write
///    lock, writing only if the stored refresh token is still the one we posted (or empty),
///    otherwise adopting the other writer's tokens. Every other key of the document and of
///    `claudeAiOauth` stays.
///
/// The whole renewal also holds elbowroom's own lock on the credentials directory (`flock` on the
/// directory itself), so elbowroom processes with different caches never refresh at once either.
///
/// Whether a token has expired, and when a new one does, is told by the fetch's clock (the `now`
/// handed to `renew`, which `ELBOWROOM_NOW` pins), moved on by the time the renewal itself waits;
/// how long ago a lock was touched is told by the real clock, as its file's time is real.
public struct TokenRenewal: Sendable {
    public let source: any CredentialSource
    public let refresher: TokenRefresher
    public let mode: RefreshMode
    public let detector: any ClaudeProcessDetector
    public let log: DebugLog
    /// What the fetch state should keep although the fetch may succeed (tokens not saved).
    public let notes: RunNotes
    /// Where Claude Code's locks are; `nil` to take none (tests of other parts).
    public let storage: ClaudeCodeStorage?
    /// Waits between tries while Claude Code holds its locks.
    public let pause: @Sendable (TimeInterval) -> Void

    /// How often a busy lock is tried again, and how long apart (Claude Code's own numbers).
    public static let busyRetries = 5
    public static let busyPause: ClosedRange<TimeInterval> = 1...2

    public init(source: any CredentialSource, refresher: TokenRefresher, mode: RefreshMode,
                detector: any ClaudeProcessDetector, log: DebugLog,
                notes: RunNotes = RunNotes(), storage: ClaudeCodeStorage? = nil,
                pause: @escaping @Sendable (TimeInterval) -> Void = { usleep(useconds_t($0 * 1_000_000)) }) {
        self.notes = notes
        self.source = source
        self.refresher = refresher
        self.mode = mode
        self.detector = detector
        self.log = log
        self.storage = storage
        self.pause = pause
    }

    /// - Parameter why: what is wrong with `stale`, for the message when refreshing is not ours.
    public func renew(stale: OAuthCredentials, why: String, now: Date) throws(FetchError) -> OAuthCredentials {
        let clock = RenewalClock(start: now)
        // The credentials directory `flock`ed for the whole renewal (no other elbowroom renews at once).
        let lock = storage.flatMap { try? FileLock(directory: $0.directory) }
        try? lock?.lock()
        defer { lock?.unlock() }
        var (base, baseRaw) = try current()
        if let adopted = refreshedElsewhere(base, than: stale, now: now) { return adopted }

        if mode == .never {
            log("refresh = never: leaving the token to claude code")
            throw .expired("\(why); open claude code to refresh it (refresh = never)")
        }
        guard base.refreshToken != nil else {
            throw .expired("\(why) and no refresh token is stored; open claude code to refresh it")
        }
        do {
            try CredentialsDocument.checkRewritable(baseRaw)
            try source.checkWritable(byteCount: baseRaw.count)
        } catch {
            log("not refreshing: new tokens could not be saved to \(source.label): \(error)")
            throw .expired("\(why), and new tokens could not be saved to \(source.label) (\(error)), so it was not refreshed; open claude code to refresh it")
        }

        let claudeLock = storage.map(ClaudeCodeRefreshLock.init)
        defer { claudeLock?.release() }
        if let claudeLock {
            var tries = 0
            locking: while true {
                // A lock's age is its file's real mtime against the real clock: a pinned clock
                // must never make Claude Code's live lock look stale.
                switch claudeLock.acquire(now: Date()) {
                case .acquired:
                    log("holding claude code's refresh locks (\(claudeLock.locks.map(\.path).joined(separator: ", ")))")
                    break locking
                case .busy(let path, let since):
                    let held = since.map { " (last touched \(max(0, Int(Date().timeIntervalSince($0))))s ago)" } ?? ""
                    log("claude code holds \(path)\(held): waiting, not racing it")
                    guard tries < Self.busyRetries else {
                        throw .expired("\(why); claude code is refreshing it right now (it holds \(path)\(held)); elbowroom uses what claude code writes")
                    }
                    tries += 1
                    pause(Double.random(in: Self.busyPause))
                    (base, baseRaw) = try current()
                    if let adopted = refreshedElsewhere(base, than: stale, now: clock.now) { return adopted }
                case .stuck(let path, let reason):
                    log("claude code's refresh lock \(path) is stuck: \(reason)")
                    throw .expired("\(why); claude code's refresh lock \(path) is stuck (stale, but \(reason), so neither claude code nor elbowroom can take it over): remove it when no claude code is refreshing")
                case .unavailable(let reason):
                    log("claude code's refresh locks cannot be taken: \(reason)")
                    if mode == .auto && detector.isClaudeRunning() {
                        log("refresh = auto, no locks, and claude code is running: leaving the token to it")
                        throw .expired("\(why); open claude code to refresh it (its refresh locks cannot be taken here: \(reason))")
                    }
                    break locking
                }
            }
            // With the locks held: whoever held them before us may just have refreshed.
            (base, baseRaw) = try current()
            if let adopted = refreshedElsewhere(base, than: stale, now: clock.now) { return adopted }
        } else if mode == .auto && detector.isClaudeRunning() {
            log("refresh = auto and claude code is running: leaving the token to it")
            throw .expired("\(why); open claude code to refresh it")
        }
        guard let refreshToken = base.refreshToken else {
            throw .expired("\(why) and no refresh token is stored; open claude code to refresh it")
        }
        return try TerminationSignals.held { () throws(FetchError) -> OAuthCredentials in
            try refreshAndSave(base: base, refreshToken: refreshToken, now: now)
        }
    }

    /// The login as stored now, and its document.
    func current() throws(FetchError) -> (OAuthCredentials, Data) {
        switch source.load() {
        case .oauth(let current, let raw):
            log.secret(current.accessToken)
            log.secret(current.refreshToken)
            return (current, raw)
        case .missing, .loggedOut, .mcpOnly:
            throw .signedOut(Messages.signedOut)
        case .malformed:
            throw .signedOut(Messages.malformed(source.label))
        }
    }

    /// `current` when someone else refreshed since `stale` was read (a new, unexpired token).
    func refreshedElsewhere(_ current: OAuthCredentials, than stale: OAuthCredentials, now: Date) -> OAuthCredentials? {
        guard current.accessToken != stale.accessToken, !current.isExpired(at: now) else { return nil }
        log("credentials were already refreshed by another process; using them")
        return current
    }

    /// The part that must not be interrupted: the old refresh token is spent by the request, and
    /// the new one exists only here until it is written.
    func refreshAndSave(base: OAuthCredentials, refreshToken: String, now: Date) throws(FetchError) -> OAuthCredentials {
        log("refreshing the access token at \(refresher.tokenURL.absoluteString)")
        let grant = try refresher.refresh(refreshToken: refreshToken, storedScopes: base.scopes,
                                          clientID: base.clientId, now: now)
        log.secret(grant.accessToken)
        log.secret(grant.refreshToken)
        var renewed = base
        renewed.refreshToken = grant.refreshToken ?? base.refreshToken
        if grant.partial {
            // The old refresh token is spent and the answer held only a new one: keep it, with
            // the access token marked expired, so the next fetch refreshes with it.
            renewed.expiresAt = now
            _ = save(renewed, grant: grant, posted: refreshToken, now: now)
            let note = "the token endpoint's answer had a new refresh token but no readable access token; the refresh token was saved and the next fetch refreshes again"
            log(note)
            throw .refresh(.undecodable(note))
        }
        renewed.accessToken = grant.accessToken
        // Without expires_in assume an hour, so a missing field cannot cause a refresh per fetch.
        let lifetime = grant.expiresIn ?? 3600
        renewed.expiresAt = now.addingTimeInterval(min(max(lifetime, TokenGrant.lifetimeRange.lowerBound),
                                                       TokenGrant.lifetimeRange.upperBound))
        if let scopes = grant.scopes { renewed.scopes = scopes }
        log("refreshed; new token expires \(renewed.expiresAt.map(ISO8601.format) ?? "?")\(grant.refreshToken == nil ? ", refresh token kept" : ", refresh token rotated")")
        return save(renewed, grant: grant, posted: refreshToken, now: now)
    }

    /// Claude Code's compare-and-swap: under its write lock, re-read; write only if the stored
    /// refresh token is still `posted` (or empty); otherwise the other writer's tokens win and are
    /// returned. A failed write is said loudly and kept in the fetch state.
    func save(_ renewed: OAuthCredentials, grant: TokenGrant, posted: String, now: Date) -> OAuthCredentials {
        var result = renewed
        do {
            try source.update { current in
                guard let current, !current.isEmpty else {
                    log("credentials vanished while refreshing; using the new token for this fetch only")
                    return nil
                }
                guard let parsed = try? CredentialsParser.parse(current) else {
                    log("the credentials no longer parse; not overwriting them, using the new token for this fetch only")
                    return nil
                }
                if case .oauth(let stored) = parsed, let storedRefresh = stored.refreshToken, storedRefresh != posted {
                    log("credentials were refreshed elsewhere while refreshing; adopting theirs, not overwriting them")
                    if !stored.isExpired(at: now) { result = stored }
                    return nil
                }
                let document = try CredentialsDocument.replacingTokens(
                    in: current, accessToken: renewed.accessToken, refreshToken: renewed.refreshToken,
                    expiresAt: renewed.expiresAt, scopes: grant.scopes,
                    refreshTokenExpiresAt: grant.refreshTokenExpiresIn.map { now.addingTimeInterval($0) })
                log("saving the refreshed tokens to \(source.label)")
                return document
            }
        } catch {
            // The refresh token may have rotated: say so loudly, the user may need to sign in
            // again; and keep it in the fetch state, where doctor shows it.
            log("could not save the refreshed tokens to \(source.label): \(error)")
            let note = "could not save refreshed tokens to \(source.label) (\(error)); if claude code asks you to sign in again, that is why"
            notes.append(note)
            DebugLog.writeStandardError("elbowroom-fetch: \(log.redact(note))\n")
        }
        return result
    }
}

/// The fetch's clock through one renewal: the `now` it started at, moved on by the (real, monotonic)
/// time since, so a renewal that waited for Claude Code judges tokens at the time it has reached.
struct RenewalClock {
    let start: Date
    private let started = ContinuousClock.now

    init(start: Date) { self.start = start }

    var now: Date {
        let elapsed = ContinuousClock.now - started
        return start.addingTimeInterval(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
}

/// The user-facing wording, in one place.
enum Messages {
    static let interrupted = "the last fetch stopped before it finished (the fetcher crashed or was killed)"
    static let signedOut = "not signed in to claude code: run `claude` and sign in with /login"
    static let inferenceOnly = "CLAUDE_CODE_OAUTH_TOKEN is an inference-only token and cannot read usage; sign in with `claude` (/login) so elbowroom can use the stored login"
    static func malformed(_ label: String) -> String {
        "cannot parse the credentials in \(label) (left untouched); sign in again with `claude` then /login"
    }
}
