#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ElbowroomCore

/// The login Codex stored: `$CODEX_HOME/auth.json` (docs/accounts-and-agents.md; facts in
/// CODEX.md §1). Read only: elbowroom never refreshes Codex's token (Codex rotates its refresh
/// tokens, and a second refresher logs Codex out) and never writes the file.
struct CodexLogin: Sendable, Equatable {
    var accessToken: String
    var accountID: String?
    /// The access token's JWT `exp`, when readable.
    var expiresAt: Date?
    /// `last_refresh`: when Codex last stored tokens.
    var lastRefresh: Date?
    var isFedRAMP = false

    /// What reading the file found.
    enum Found: Sendable, Equatable {
        case login(CodexLogin)
        case missing
        /// An API-key login: no plan limits to read.
        case apiKey
        /// Neither tokens nor a key (an agent identity, a personal access token).
        case noTokens
        /// Not JSON (Codex writes the file in place: caught mid-write, or damaged).
        case unreadable
    }

    /// The largest auth.json read (a real one is under 8 KiB).
    static let maxBytes = 1 << 20

    static func read(_ file: String) -> Found {
        guard FileSystem.exists(file) else { return .missing }
        guard let data = FileSystem.read(file, limit: maxBytes) else { return .unreadable }
        return parse(data)
    }

    static func parse(_ data: Data) -> Found {
        struct File: Decodable {
            var auth_mode: String?
            var OPENAI_API_KEY: String?
            var tokens: Tokens?
            var last_refresh: String?
        }
        struct Tokens: Decodable {
            var id_token: String?
            var access_token: String?
            var account_id: String?
        }
        guard let file = try? JSONDecoder().decode(File.self, from: data) else { return .unreadable }
        guard let tokens = file.tokens, let access = tokens.access_token, !access.isEmpty else {
            if file.auth_mode == "apikey" || file.OPENAI_API_KEY?.isEmpty == false { return .apiKey }
            return .noTokens
        }
        let claims = JWTClaims.decode(access)
        let idClaims = tokens.id_token.flatMap(JWTClaims.decode)
        let accountID = tokens.account_id.flatMap { $0.isEmpty ? nil : $0 }
            ?? idClaims?.accountID ?? claims?.accountID
        return .login(CodexLogin(
            accessToken: access, accountID: accountID, expiresAt: claims?.exp.map { Date(timeIntervalSince1970: $0) },
            lastRefresh: file.last_refresh.flatMap(ISO8601.parse),
            isFedRAMP: idClaims?.fedRAMP == true))
    }

    /// Whether the access token has expired: its `exp`, else (unreadable) a `last_refresh` more
    /// than 8 days old, as Codex itself decides (CODEX.md §4).
    func isExpired(at now: Date) -> Bool {
        if let expiresAt { return expiresAt <= now }
        if let lastRefresh { return now.timeIntervalSince(lastRefresh) > 8 * 86400 }
        return false
    }
}

/// The few claims of a JWT's payload elbowroom reads (never its signature: only the expiry and
/// the account, for headers).
struct JWTClaims: Decodable, Sendable {
    var exp: Double?
    var chatgpt_account_id: String?
    var auth: Auth?

    struct Auth: Decodable, Sendable {
        var chatgpt_account_id: String?
        var chatgpt_account_is_fedramp: Bool?
    }

    enum CodingKeys: String, CodingKey {
        case exp, chatgpt_account_id
        case auth = "https://api.openai.com/auth"
    }

    var accountID: String? { auth?.chatgpt_account_id ?? chatgpt_account_id }
    var fedRAMP: Bool { auth?.chatgpt_account_is_fedramp == true }

    /// The middle part, base64url-decoded; `nil` when it is not a JWT with a JSON payload.
    static func decode(_ token: String) -> JWTClaims? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var text = String(parts[1].map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        while text.count % 4 != 0 { text += "=" }
        guard let data = Data(base64Encoded: text) else { return nil }
        return try? JSONDecoder().decode(JWTClaims.self, from: data)
    }
}
