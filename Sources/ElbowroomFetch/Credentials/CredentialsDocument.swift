import Foundation
import ElbowroomCore

/// Rewrites the tokens inside Claude Code's credentials JSON and nothing else: `mcpOAuth`,
/// `scopes`, `subscriptionType` and keys we have never heard of all survive.
public enum CredentialsDocument {
    public struct Unwritable: Error, CustomStringConvertible {
        public let description: String
    }

    public static func replacingTokens(in raw: Data, accessToken: String, refreshToken: String?,
                                       expiresAt: Date?) throws -> Data {
        guard var root = (try? JSONSerialization.jsonObject(with: raw)) as? [String: Any],
              var oauth = root["claudeAiOauth"] as? [String: Any] else {
            throw Unwritable(description: "credentials have no claudeAiOauth object to update")
        }
        oauth["accessToken"] = accessToken
        if let refreshToken { oauth["refreshToken"] = refreshToken }
        if let expiresAt { oauth["expiresAt"] = milliseconds(expiresAt) }
        root["claudeAiOauth"] = oauth
        do {
            return try JSONSerialization.data(withJSONObject: root, options: [.withoutEscapingSlashes])
        } catch {
            throw Unwritable(description: "cannot encode the updated credentials")
        }
    }

    /// Unix milliseconds, saturating: a date is never a reason to trap.
    static func milliseconds(_ date: Date) -> Int64 {
        let ms = (date.timeIntervalSince1970 * 1000).rounded()
        guard !ms.isNaN else { return 0 }
        return Int64(min(max(ms, -9e15), 9e15))
    }
}
