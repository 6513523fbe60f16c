import Foundation

/// A stateful stand-in for both endpoints, for a `LoopbackHTTPServer` handler:
/// - `/api/oauth/usage` answers `usageReply` to the currently valid access token and 401 to any
///   other (so "401 until refreshed" is the default when the stored token is not the valid one);
/// - `/v1/oauth/token` issues `access-N` / `refresh-N` for the current refresh token, and
///   `invalid_grant` for any other (a reused, rotated refresh token).
public final class FakeAnthropic: @unchecked Sendable {
    private let lock = NSLock()
    public var validAccessToken: String
    public var validRefreshToken: String
    /// Whether the token endpoint rotates the refresh token.
    public var rotateRefreshToken = true
    public var expiresIn = 28800
    public var usageReply: ServerReply = .json(200, UsageFixtures.flat)
    /// When set, the token endpoint always answers this instead.
    public var tokenReply: ServerReply?
    /// Sent back as `scope` and `refresh_token_expires_in` when set.
    public var grantedScope: String?
    public var refreshTokenExpiresIn: Int?
    /// When set, a refresh asking for any other `scope` gets `invalid_scope`.
    public var onlyScope: String?
    private var issued = 0

    public static let usagePath = "/api/oauth/usage"
    public static let tokenPath = "/v1/oauth/token"

    public init(validAccessToken: String, validRefreshToken: String) {
        self.validAccessToken = validAccessToken
        self.validRefreshToken = validRefreshToken
    }

    public func configure(_ change: (FakeAnthropic) -> Void) {
        lock.lock()
        change(self)
        lock.unlock()
    }

    public var handler: LoopbackHTTPServer.Handler {
        { [self] request in handle(request) }
    }

    public func handle(_ request: RecordedRequest) -> ServerReply {
        lock.lock()
        defer { lock.unlock() }
        if request.path.hasPrefix(Self.usagePath) {
            guard request.header("Authorization") == "Bearer \(validAccessToken)" else {
                return .json(401, #"{"error":{"type":"authentication_error","message":"invalid token"}}"#)
            }
            return usageReply
        }
        if request.path.hasPrefix(Self.tokenPath) {
            if let tokenReply { return tokenReply }
            let body = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any]
            guard body?["grant_type"] as? String == "refresh_token",
                  body?["refresh_token"] as? String == validRefreshToken else {
                return .json(400, #"{"error":"invalid_grant","error_description":"refresh token not valid"}"#)
            }
            if let onlyScope, body?["scope"] as? String != onlyScope {
                return .json(400, #"{"error":"invalid_scope","error_description":"scope not allowed"}"#)
            }
            issued += 1
            validAccessToken = "sk-ant-oat01-issued-access-\(issued)-abcdefgh"
            var answer: [String: Any] = ["access_token": validAccessToken, "expires_in": expiresIn, "token_type": "Bearer"]
            if let grantedScope { answer["scope"] = grantedScope }
            if let refreshTokenExpiresIn { answer["refresh_token_expires_in"] = refreshTokenExpiresIn }
            if rotateRefreshToken {
                validRefreshToken = "sk-ant-ort01-issued-refresh-\(issued)-abcdefgh"
                answer["refresh_token"] = validRefreshToken
            }
            let data = (try? JSONSerialization.data(withJSONObject: answer)) ?? Data()
            return .respond(status: 200, headers: [("Content-Type", "application/json")], body: data)
        }
        if request.path.hasPrefix("/followed") {
            return .status(200, body: "{}")
        }
        return .status(404)
    }
}
