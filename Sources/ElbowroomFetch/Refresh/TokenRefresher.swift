import Foundation
import ElbowroomCore

/// New tokens from the token endpoint.
public struct TokenGrant: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    public var accessToken: String
    /// `nil` when the endpoint did not rotate it: keep the old one.
    public var refreshToken: String?
    /// Seconds the new access token lives, within `lifetimeRange`; `nil` when the answer had no
    /// number there.
    public var expiresIn: TimeInterval?

    /// What `expires_in` is clamped to: the endpoint's number is written into Claude Code's
    /// credentials, so it must be a time a date can hold, and a token said to expire at once must
    /// not cause a refresh per fetch.
    public static let lifetimeRange: ClosedRange<TimeInterval> = 300...(7 * 86400)

    /// `expires_in` as the endpoint sent it: any JSON value.
    public static func lifetime(_ value: Any?) -> TimeInterval? {
        guard let number = value as? NSNumber, !(value is Bool) else { return nil }
        let seconds = number.doubleValue
        guard !seconds.isNaN else { return nil }
        return min(max(seconds, lifetimeRange.lowerBound), lifetimeRange.upperBound)
    }

    // Never the tokens, whoever interpolates this.
    public var description: String {
        "TokenGrant(expires_in: \(expiresIn.map { TransportError.seconds($0.rounded()) } ?? "?"), refresh token \(refreshToken == nil ? "kept" : "rotated"), tokens: redacted)"
    }
    public var debugDescription: String { description }
}

/// `POST {token url}` with Claude Code's public client id.
public struct TokenRefresher: Sendable {
    public static let clientID = "9d1c250a-e61b-44d9-88ed-5944d1962f5e"

    public let tokenURL: URL
    public let transport: any HTTPTransport
    public let timeout: TimeInterval

    public init(tokenURL: URL, transport: any HTTPTransport, timeout: TimeInterval) {
        self.tokenURL = tokenURL
        self.transport = transport
        self.timeout = timeout
    }

    /// Errors are the token endpoint's (`FetchError.refresh`), except `invalid_grant`, which is
    /// `signedOut`. A redirect is never followed: the refresh token stays here.
    public func refresh(refreshToken: String, now: Date) throws(FetchError) -> TokenGrant {
        do {
            return try exchange(refreshToken: refreshToken, now: now)
        } catch {
            if case .signedOut = error { throw error }
            throw .refresh(error)
        }
    }

    func exchange(refreshToken: String, now: Date) throws(FetchError) -> TokenGrant {
        let body: [String: String] = [
            "grant_type": "refresh_token", "refresh_token": refreshToken, "client_id": Self.clientID,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) ?? Data()
        let request = HTTPRequest(
            method: "POST", url: tokenURL,
            headers: [("Content-Type", "application/json"), ("Accept", "application/json"),
                      ("User-Agent", UsageClient.userAgent)],
            body: data, timeout: timeout)
        let response: HTTPResponse
        do {
            response = try transport.send(request)
        } catch {
            switch error {
            case .timeout(let t): throw .timeout(t)
            case .network(let why): throw .network(why)
            case .oversized: throw .undecodable("the token endpoint answered with a body over 1 MiB")
            }
        }
        let json = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any]
        switch response.status {
        case 200..<300:
            guard let access = json?["access_token"] as? String, !access.isEmpty else {
                throw .undecodable("the token endpoint answered without an access token")
            }
            let refresh = (json?["refresh_token"] as? String).flatMap { $0.isEmpty ? nil : $0 }
            return TokenGrant(accessToken: access, refreshToken: refresh, expiresIn: TokenGrant.lifetime(json?["expires_in"]))
        case 300..<400:
            throw .redirect(status: response.status)
        case 400, 401:
            if Self.errorCode(json) == "invalid_grant" {
                throw .signedOut("the login has expired or was revoked (invalid_grant); sign in again with `claude` then /login")
            }
            throw .unauthorized
        case 429:
            throw .rateLimited(retryAfter: RetryAfter.seconds(response.header("retry-after"), now: now))
        case 500..<600:
            throw .server(status: response.status)
        default:
            throw .undecodable("the token endpoint answered with an unexpected status (\(response.status))")
        }
    }

    /// `{"error":"invalid_grant"}` or `{"error":{"type":"invalid_grant"}}`.
    static func errorCode(_ json: [String: Any]?) -> String? {
        if let code = json?["error"] as? String { return code }
        if let object = json?["error"] as? [String: Any] {
            return (object["type"] as? String) ?? (object["code"] as? String)
        }
        return nil
    }
}
