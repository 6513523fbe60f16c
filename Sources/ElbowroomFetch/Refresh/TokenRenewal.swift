import Foundation
import ElbowroomCore

/// Gets a usable access token when the stored one expired or was rejected, without ever racing
/// Claude Code or another elbowroom into a refresh-token reuse. Runs under the account's fetch lock.
///
/// 1. Re-read the credentials: if someone else (Claude Code, another elbowroom) already put a new,
///    unexpired token there, use it — no request.
/// 2. Ask the policy: `never` never refreshes; `auto` only while no Claude Code process runs;
///    otherwise the outcome is `expired` ("open Claude Code to refresh").
/// 3. Prove the new tokens can be saved — the document rewrites and reads back with every other
///    key intact, the source takes a write of that size now — or refresh nothing: a refresh
///    spends the old refresh token, and a rotated one that cannot be saved logs the user out.
/// 4. Refresh with the newest refresh token, with SIGTERM/SIGINT/SIGHUP held back until the new
///    tokens are saved (`TerminationSignals`).
/// 5. Re-read once more just before writing: if the stored refresh token changed meanwhile
///    (someone else refreshed), leave the document alone and use the new token in memory only.
///    Otherwise write our tokens into the document as it is now (other keys, e.g. `mcpOAuth`
///    that Claude Code rewrote meanwhile, are kept): the old refresh token is spent, so not
///    saving the rotated one would log the user out.
///
/// The whole renewal also holds a lock on the Claude config directory (`flock` on the directory
/// itself; no file is created there), so elbowroom processes with different `XDG_CACHE_HOME`s —
/// and so different fetch locks — still never refresh at the same time.
public struct TokenRenewal: Sendable {
    public let source: any CredentialSource
    public let refresher: TokenRefresher
    public let mode: RefreshMode
    public let detector: any ClaudeProcessDetector
    public let log: DebugLog
    /// A directory to `flock` for the whole renewal (the Claude config dir); `nil` for none.
    public let lockDirectory: String?
    /// What the fetch state should keep although the fetch may succeed (tokens not saved).
    public let notes: RunNotes

    public init(source: any CredentialSource, refresher: TokenRefresher, mode: RefreshMode,
                detector: any ClaudeProcessDetector, log: DebugLog, lockDirectory: String? = nil,
                notes: RunNotes = RunNotes()) {
        self.lockDirectory = lockDirectory
        self.notes = notes
        self.source = source
        self.refresher = refresher
        self.mode = mode
        self.detector = detector
        self.log = log
    }

    /// - Parameter why: what is wrong with `stale`, for the message when refreshing is not ours.
    public func renew(stale: OAuthCredentials, why: String, now: Date) throws(FetchError) -> OAuthCredentials {
        let lock = lockDirectory.flatMap { try? FileLock(directory: $0) }
        try? lock?.lock()
        defer { lock?.unlock() }
        let base: OAuthCredentials
        let baseRaw: Data
        switch source.load() {
        case .oauth(let current, let raw):
            log.secret(current.accessToken)
            log.secret(current.refreshToken)
            if current.accessToken != stale.accessToken && !current.isExpired(at: now) {
                log("credentials were already refreshed by another process; using them")
                return current
            }
            base = current
            baseRaw = raw
        case .missing, .loggedOut, .mcpOnly:
            throw .signedOut(Messages.signedOut)
        case .malformed:
            throw .signedOut(Messages.malformed(source.label))
        }

        switch mode {
        case .never:
            log("refresh = never: leaving the token to claude code")
            throw .expired("\(why); open claude code to refresh it (refresh = never)")
        case .auto where detector.isClaudeRunning():
            log("refresh = auto and claude code is running: leaving the token to it")
            throw .expired("\(why); open claude code to refresh it")
        case .auto, .always:
            break
        }
        guard let refreshToken = base.refreshToken else {
            throw .expired("\(why) and no refresh token is stored; open claude code to refresh it")
        }
        do {
            try CredentialsDocument.checkRewritable(baseRaw)
            try source.checkWritable(byteCount: baseRaw.count)
        } catch {
            log("not refreshing: new tokens could not be saved to \(source.label): \(error)")
            throw .expired("\(why), and new tokens could not be saved to \(source.label) (\(error)), so it was not refreshed; open claude code to refresh it")
        }
        return try TerminationSignals.held { () throws(FetchError) -> OAuthCredentials in
            try refreshAndSave(base: base, baseRaw: baseRaw, refreshToken: refreshToken, now: now)
        }
    }

    /// The part that must not be interrupted: the old refresh token is spent by the request, and
    /// the new one exists only here until it is written.
    func refreshAndSave(base: OAuthCredentials, baseRaw: Data, refreshToken: String,
                        now: Date) throws(FetchError) -> OAuthCredentials {
        log("refreshing the access token at \(refresher.tokenURL.absoluteString)")
        let grant = try refresher.refresh(refreshToken: refreshToken, now: now)
        log.secret(grant.accessToken)
        log.secret(grant.refreshToken)
        var renewed = base
        renewed.accessToken = grant.accessToken
        renewed.refreshToken = grant.refreshToken ?? base.refreshToken
        // Without expires_in assume an hour, so a missing field cannot cause a refresh per fetch.
        let lifetime = grant.expiresIn ?? 3600
        renewed.expiresAt = now.addingTimeInterval(min(max(lifetime, TokenGrant.lifetimeRange.lowerBound),
                                                       TokenGrant.lifetimeRange.upperBound))
        log("refreshed; new token expires \(renewed.expiresAt.map(ISO8601.format) ?? "?")\(grant.refreshToken == nil ? ", refresh token kept" : ", refresh token rotated")")

        let latest: Data
        do {
            guard let read = try source.readRaw() else {
                log("credentials vanished while refreshing; using the new token for this fetch only")
                return renewed
            }
            latest = read
        } catch {
            // Cannot tell (e.g. a keychain that will not answer): the old refresh token is spent,
            // so try to save the rotated one into the document we read before refreshing.
            log("cannot re-read \(source.label) (\(error)); saving into the document read before the refresh")
            latest = baseRaw
        }
        if latest != baseRaw {
            guard case .oauth(let current)? = try? CredentialsParser.parse(latest),
                  current.refreshToken == refreshToken else {
                log("credentials were refreshed elsewhere while refreshing; not overwriting them, using the new token for this fetch only")
                return renewed
            }
            log("credentials changed while refreshing (not their refresh token); saving into the current document")
        }
        do {
            let document = try CredentialsDocument.replacingTokens(
                in: latest, accessToken: renewed.accessToken, refreshToken: renewed.refreshToken,
                expiresAt: renewed.expiresAt)
            try source.writeRaw(document)
            log("saved the refreshed tokens to \(source.label)")
        } catch {
            // The refresh token may have rotated: say so loudly, the user may need to sign in
            // again; and keep it in the fetch state, where doctor shows it.
            log("could not save the refreshed tokens to \(source.label): \(error)")
            let note = "could not save refreshed tokens to \(source.label); if claude code asks you to sign in again, that is why"
            notes.append(note)
            FileHandle.standardError.write(Data("elbowroom-fetch: \(note)\n".utf8))
        }
        return renewed
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
