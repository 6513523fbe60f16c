#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ElbowroomCore

/// A Codex account's read: its usage endpoint with the login Codex stored, or (`codex_source =
/// "logs"`) its session logs. Never refreshes Codex's token: an expired one is "open Codex",
/// and the last good reading stays in the cache.
struct CodexProvider: UsageProvider {
    var context: FetchContext
    var config: Config
    var codexHome: String
    var usesLogin: Bool
    /// `$CODEX_HOME/auth.json`.
    var loginFile: String
    /// When the login last changed, taken before the lock (`nil` for session logs: no login).
    var loginChanged: Date?

    init(context: FetchContext, config: Config, identity: AccountIdentity) {
        self.context = context
        self.config = config
        codexHome = identity.home ?? ""
        usesLogin = identity.codexSource == .api
        loginFile = identity.credentialsFile
        loginChanged = usesLogin ? FileSystem.modificationDate(of: loginFile) : nil
    }

    static let defaultBase = "https://chatgpt.com/backend-api"
    /// What its failures name as the place that failed.
    static let endpointName = "codex's usage endpoint"
    static let openCodex = "codex's login has expired: open codex (any codex command refreshes it)"
    static let signedOut = "not signed in to codex: run `codex login`"

    func credentialsChanged() -> Date? { loginChanged }

    /// Named as this source's, not the usage api's.
    func failure(_ error: FetchError) -> FetchError { .at(Self.endpointName, error) }

    /// Codex's own `chatgpt_base_url` (a top-level key of `$CODEX_HOME/config.toml`), as Codex
    /// reads it: trailing slashes dropped, `/backend-api` added to a bare `https://chatgpt.com` or
    /// `https://chat.openai.com`. Read by a line scan (the file is Codex's TOML, not ours).
    static func configuredBase(codexHome: String) -> String? {
        let file = Paths.join(codexHome, "config.toml")
        guard let data = FileSystem.read(file, limit: 1 << 20) else { return nil }
        for raw in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if line.hasPrefix("[") { return nil }  // top-level keys come before the first table
            guard line.hasPrefix("chatgpt_base_url") else { continue }
            let rest = line.dropFirst("chatgpt_base_url".count).drop { $0 == " " || $0 == "\t" }
            guard rest.hasPrefix("=") else { continue }
            let value = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
            guard let quote = value.first, quote == "\"" || quote == "'",
                  let close = value.dropFirst().firstIndex(of: quote) else { return nil }
            var base = String(value[value.index(after: value.startIndex)..<close])
            while base.hasSuffix("/") { base.removeLast() }
            if (base == "https://chatgpt.com" || base == "https://chat.openai.com") { base += "/backend-api" }
            return base.isEmpty ? nil : base
        }
        return nil
    }

    func read(cache: CacheFile?) throws(FetchError) -> Reading {
        let now = context.clock()
        guard usesLogin else {
            guard let reading = CodexSessionLogs.reading(codexHome: codexHome, now: now) else {
                throw .signedOut("no rate limits in codex's session logs yet (\(codexHome)/sessions): they come with codex's next answer")
            }
            return reading
        }
        let base: URL
        do {
            if let override = context.environment["ELBOWROOM_CODEX_API_URL"] {
                base = try EndpointURL.validated(override, variable: "ELBOWROOM_CODEX_API_URL")
            } else {
                base = try EndpointURL.validated(Self.configuredBase(codexHome: codexHome) ?? Self.defaultBase,
                                                 variable: "chatgpt_base_url in codex's config.toml")
            }
        } catch {
            throw .config("\(error)")
        }
        let file = loginFile
        let login: CodexLogin
        switch CodexLogin.read(file) {
        case .login(let found): login = found
        case .missing: throw .signedOut(Self.signedOut + " (no \(file); a keyring login is not read)")
        case .apiKey: throw .signedOut("codex uses an api key: no plan limits to show")
        case .noTokens: throw .signedOut("codex's login has no chatgpt tokens: run `codex login`")
        case .unreadable:
            // Codex writes the file in place: caught mid-write is no verdict on the login.
            throw .network("cannot read \(file) now (codex may be writing it); trying again later")
        }
        context.log.secret(login.accessToken)
        if login.isExpired(at: now) { throw .expired(Self.openCodex) }
        let url = UsageClient.url(base, path: base.absoluteString.contains("/backend-api") ? "/wham/usage" : "/api/codex/usage")
        var headers: [(name: String, value: String)] = [
            ("Authorization", "Bearer " + login.accessToken),
            ("User-Agent", "elbowroom"),
            ("Accept", "application/json"),
        ]
        if let account = login.accountID { headers.append(("ChatGPT-Account-Id", account)) }
        if login.isFedRAMP { headers.append(("X-OpenAI-Fedramp", "true")) }
        context.log("GET \(url.absoluteString)")
        let response: HTTPResponse
        do {
            response = try context.transport.send(HTTPRequest(url: url, headers: headers, timeout: config.timeout))
        } catch {
            throw .from(error, at: .named(Self.endpointName))
        }
        switch response.status {
        case 200..<300:
            guard let reading = CodexUsage.reading(fromAPI: response.body, now: context.clock()) else {
                throw .undecodable("codex's usage answer is not usage json")
            }
            return reading
        case 401:
            let body = String(decoding: response.body.prefix(4096), as: UTF8.self)
            if body.contains("token_revoked") || body.contains("token_invalidated") {
                throw .signedOut("signed out of codex: run `codex login`")
            }
            // Expired (Codex has not refreshed yet), or a passing failure with a live token.
            throw .expired(Self.openCodex)
        case 429:
            throw .rateLimited(retryAfter: RetryAfter.seconds(response.header("Retry-After"), now: context.clock()))
        case 403, 500..<600:
            // A 403 is often a Cloudflare challenge page: no verdict on the login.
            throw .server(status: response.status)
        case 300..<400: throw .redirect(status: response.status)
        default: throw .undecodable("codex's usage api answered with an unexpected status (\(response.status))")
        }
    }
}
