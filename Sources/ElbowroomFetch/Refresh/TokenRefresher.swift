#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ElbowroomCore

/// New tokens from the token endpoint.
public struct TokenGrant: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// Empty in a `partial` grant.
    public var accessToken: String
    /// `nil` when the endpoint did not rotate it: keep the old one.
    public var refreshToken: String?
    /// Seconds the new access token lives, within `lifetimeRange`; `nil` when the answer had no
    /// number there.
    public var expiresIn: TimeInterval?
    /// The answer's `scope`, split at spaces: becomes `scopes` in the credentials.
    public var scopes: [String]?
    /// `refresh_token_expires_in`: becomes `refreshTokenExpiresAt`, as Claude Code keeps it.
    public var refreshTokenExpiresIn: TimeInterval?
    /// A 2xx whose access token could not be read, although a rotated refresh token could: that
    /// one must be saved (the old one is spent), and the next fetch refreshes again with it.
    public var partial = false

    public init(accessToken: String, refreshToken: String?, expiresIn: TimeInterval?,
                scopes: [String]? = nil, refreshTokenExpiresIn: TimeInterval? = nil, partial: Bool = false) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.scopes = scopes
        self.refreshTokenExpiresIn = refreshTokenExpiresIn
        self.partial = partial
    }

    /// What `expires_in` is clamped to: the endpoint's number is written into Claude Code's
    /// credentials, so it must be a time a date can hold, and a token said to expire at once must
    /// not cause a refresh per fetch.
    public static let lifetimeRange: ClosedRange<TimeInterval> = 300...(7 * 86400)

    /// `expires_in` as the endpoint sent it: any JSON value.
    public static func lifetime(_ value: JSONDocument?) -> TimeInterval? {
        seconds(value).map { min(max($0, lifetimeRange.lowerBound), lifetimeRange.upperBound) }
    }

    /// A number of seconds from JSON (not a boolean, not NaN), or `nil`.
    static func seconds(_ value: JSONDocument?) -> TimeInterval? {
        value?.doubleValue
    }

    // Never the tokens, whoever interpolates this.
    public var description: String {
        "TokenGrant(expires_in: \(expiresIn.map { TransportError.seconds($0.rounded()) } ?? "?"), refresh token \(refreshToken == nil ? "kept" : "rotated")\(partial ? ", partial" : ""), tokens: redacted)"
    }
    public var debugDescription: String { description }
}

/// `POST {token url}` as Claude Code sends it: its public client id (or the stored one), the
/// scopes it asks for plus the optional ones already held, `invalid_scope` retried once with the
/// stored scopes.
public struct TokenRefresher: Sendable {
    public static let clientID = "9d1c250a-e61b-44d9-88ed-5944d1962f5e"
    /// What Claude Code asks for on every refresh.
    public static let requestedScopes = ["user:profile", "user:inference", "user:sessions:claude_code",
                                         "user:mcp_servers", "user:file_upload", "user:plugins"]
    /// Asked for again only when already held.
    public static let optionalScopes = ["user:projects:read", "user:projects:write", "user:privacy_consents:write"]

    public let tokenURL: URL
    public let transport: any HTTPTransport
    public let timeout: TimeInterval
    public let userAgent: String

    public init(tokenURL: URL, transport: any HTTPTransport, timeout: TimeInterval,
                userAgent: String = UsageClient.defaultUserAgent) {
        self.tokenURL = tokenURL
        self.transport = transport
        self.timeout = timeout
        self.userAgent = userAgent
    }

    /// The `scope` Claude Code sends: with its own client id, what it asks for plus the optional
    /// scopes already held; with a stored `clientId`, the stored scopes.
    public static func scope(stored: [String]?, storedClientID: String?) -> String {
        if storedClientID != nil, let stored, !stored.isEmpty { return stored.joined(separator: " ") }
        let held = stored ?? []
        return (requestedScopes + optionalScopes.filter(held.contains)).joined(separator: " ")
    }

    /// Errors are the token endpoint's (`FetchError.refresh`), except `invalid_grant`, which is
    /// `signedOut`. A redirect is never followed: the refresh token stays here.
    public func refresh(refreshToken: String, storedScopes: [String]? = nil, clientID storedClientID: String? = nil,
                        now: Date) throws(FetchError) -> TokenGrant {
        let clientID = storedClientID ?? Self.clientID
        do {
            do {
                return try exchange(refreshToken: refreshToken, clientID: clientID,
                                    scope: Self.scope(stored: storedScopes, storedClientID: storedClientID), now: now)
            } catch .undecodable(let why) where why == Self.invalidScope {
                // Once, with exactly the scopes the login holds.
                return try exchange(refreshToken: refreshToken, clientID: clientID,
                                    scope: (storedScopes ?? Self.requestedScopes).joined(separator: " "), now: now)
            }
        } catch {
            if case .signedOut = error { throw error }
            throw .refresh(error)
        }
    }

    static let invalidScope = "the token endpoint refused the requested scopes (invalid_scope)"

    func exchange(refreshToken: String, clientID: String, scope: String, now: Date) throws(FetchError) -> TokenGrant {
        // Keys sorted, `/` escaped: the body JSONSerialization wrote.
        let data = JSONDocument.object([
            .init("client_id", .string(clientID)), .init("grant_type", .string("refresh_token")),
            .init("refresh_token", .string(refreshToken)), .init("scope", .string(scope)),
        ]).serialized(escapingSlashes: true)
        let request = HTTPRequest(
            method: "POST", url: tokenURL,
            headers: [("Content-Type", "application/json"), ("Accept", "application/json"),
                      ("User-Agent", userAgent)],
            body: data, timeout: timeout)
        let response: HTTPResponse
        do {
            response = try transport.send(request)
        } catch {
            throw .from(error, at: .tokenEndpoint)
        }
        let json = (try? JSONDocument.parse(response.body)).flatMap { $0.isObject ? $0 : nil }
        switch response.status {
        case 200..<300:
            return try Self.grant(json: json, body: response.body)
        case 300..<400:
            throw .redirect(status: response.status)
        case 400, 401:
            switch Self.errorCode(json) {
            case "invalid_grant":
                throw .signedOut("the login has expired or was revoked (invalid_grant); sign in again with `claude` then /login")
            case "invalid_scope":
                throw .undecodable(Self.invalidScope)
            default:
                throw .unauthorized
            }
        case 429:
            throw .rateLimited(retryAfter: RetryAfter.seconds(response.header("retry-after"), now: now))
        case 500..<600:
            throw .server(status: response.status)
        default:
            throw .undecodable("the token endpoint answered with an unexpected status (\(response.status))")
        }
    }

    /// A 2xx answer's tokens. When the access token cannot be read but a rotated refresh token
    /// can — from the JSON, or from a body that is not quite JSON — the grant is `partial`: the
    /// caller saves what it can, since the old refresh token is spent either way.
    static func grant(json: JSONDocument?, body: Data) throws(FetchError) -> TokenGrant {
        let access = json?["access_token"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        let refresh = json?["refresh_token"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
            ?? (json == nil ? salvagedString("refresh_token", in: body) : nil)
        let scopes = json?["scope"]?.stringValue.map { $0.split(separator: " ").map(String.init) }
            .flatMap { $0.isEmpty ? nil : $0 }
        let refreshLife = TokenGrant.seconds(json?["refresh_token_expires_in"]).map { min(max($0, 0), 10 * 365 * 86400) }
        if let access {
            return TokenGrant(accessToken: access, refreshToken: refresh, expiresIn: TokenGrant.lifetime(json?["expires_in"]),
                              scopes: scopes, refreshTokenExpiresIn: refreshLife)
        }
        if let refresh {
            return TokenGrant(accessToken: "", refreshToken: refresh, expiresIn: nil, partial: true)
        }
        throw .undecodable(json == nil
            ? "the token endpoint's answer could not be read (not json); if claude code asks you to sign in again, that is why"
            : "the token endpoint answered without an access token; if claude code asks you to sign in again, that is why")
    }

    /// `"NAME": "value"` from bytes that are not valid JSON as a whole (a truncated or garbled
    /// answer): a token is base64url-ish, so no escapes are needed to read it.
    static func salvagedString(_ name: String, in body: Data) -> String? {
        let text = String(decoding: body.prefix(64 * 1024), as: UTF8.self)
        guard let key = text.firstRange(of: "\"\(name)\"") else { return nil }
        var rest = text[key.upperBound...].drop(while: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        guard rest.first == ":" else { return nil }
        rest = rest.dropFirst().drop(while: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        guard rest.first == "\"" else { return nil }
        let value = rest.dropFirst().prefix { $0 != "\"" && $0 != "\\" }
        guard value.endIndex < rest.endIndex, rest[value.endIndex] == "\"", !value.isEmpty, value.count <= 4096,
              value.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else { return nil }
        return String(value)
    }

    /// `{"error":"invalid_grant"}` or `{"error":{"type":"invalid_grant"}}`.
    static func errorCode(_ json: JSONDocument?) -> String? {
        guard let error = json?["error"] else { return nil }
        if let code = error.stringValue { return code }
        return error["type"]?.stringValue ?? error["code"]?.stringValue
    }
}
