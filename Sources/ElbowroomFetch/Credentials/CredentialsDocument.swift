#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ElbowroomCore

/// Rewrites the tokens inside Claude Code's credentials JSON and nothing else: `mcpOAuth`,
/// `scopes`, `subscriptionType` and keys we have never heard of all survive.
public enum CredentialsDocument {
    public struct Unwritable: Error, CustomStringConvertible {
        public let description: String
    }

    /// The document with new tokens, and — as Claude Code writes them — the granted `scopes` and
    /// `refreshTokenExpiresAt` when the token endpoint sent them. Every other key stays.
    public static func replacingTokens(in raw: Data, accessToken: String, refreshToken: String?,
                                       expiresAt: Date?, scopes: [String]? = nil,
                                       refreshTokenExpiresAt: Date? = nil) throws -> Data {
        let parsed: JSONDocument
        do {
            parsed = try JSONDocument.parse(raw)
        } catch {
            // What Claude Code's reader takes but this writer cannot: a lone surrogate escape
            // (`"\ud800"`), a number no double holds (`1e400`).
            // The parser's own message may quote the document: not in a message that is stored.
            throw Unwritable(description: "the credentials hold json this writer cannot reproduce (a lone surrogate escape, a number no double holds)")
        }
        guard parsed.isObject, var oauth = parsed["claudeAiOauth"], oauth.isObject else {
            throw Unwritable(description: "credentials have no claudeAiOauth object to update")
        }
        var root = parsed
        oauth["accessToken"] = .string(accessToken)
        if let refreshToken { oauth["refreshToken"] = .string(refreshToken) }
        if let expiresAt { oauth["expiresAt"] = .number(milliseconds(expiresAt)) }
        if let scopes { oauth["scopes"] = .array(scopes.map(JSONDocument.string)) }
        if let refreshTokenExpiresAt { oauth["refreshTokenExpiresAt"] = .number(milliseconds(refreshTokenExpiresAt)) }
        root["claudeAiOauth"] = oauth
        return root.serialized()
    }

    /// Proves, before a refresh spends the old refresh token, that new tokens can be written into
    /// `raw`: it is rewritten with placeholder tokens, and the result must read back with those
    /// tokens and with every other key and value as they were.
    public static func checkRewritable(_ raw: Data) throws {
        let access = "elbowroom-write-check-access-token"
        let refresh = "elbowroom-write-check-refresh-token"
        let expires = Date(timeIntervalSince1970: 4_102_444_800)
        let probe = try replacingTokens(in: raw, accessToken: access, refreshToken: refresh, expiresAt: expires)
        guard case .oauth(let read)? = try? CredentialsParser.parse(probe),
              read.accessToken == access, read.refreshToken == refresh, read.expiresAt == expires else {
            throw Unwritable(description: "the rewritten credentials do not read back")
        }
        guard let before = try? JSONDocument.parse(raw), let after = try? JSONDocument.parse(probe),
              withoutTokens(before) == withoutTokens(after) else {
            throw Unwritable(description: "rewriting the credentials would change keys other than the tokens")
        }
    }

    /// The document without the three fields a refresh replaces.
    static func withoutTokens(_ document: JSONDocument) -> JSONDocument {
        var copy = document
        if var oauth = copy["claudeAiOauth"], oauth.isObject {
            for key in ["accessToken", "refreshToken", "expiresAt"] { oauth[key] = nil }
            copy["claudeAiOauth"] = oauth
        }
        return copy
    }

    /// Unix milliseconds, saturating: a date is never a reason to trap.
    static func milliseconds(_ date: Date) -> Int64 {
        let ms = (date.timeIntervalSince1970 * 1000).rounded()
        guard !ms.isNaN else { return 0 }
        return Int64(min(max(ms, -9e15), 9e15))
    }
}
