#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// Claude Code's OAuth login, from `claudeAiOauth` in `.credentials.json` (or the Keychain item).
/// Tokens are held here and nowhere else; `description` never shows them.
public struct OAuthCredentials: Sendable, Equatable, CustomStringConvertible {
    public var accessToken: String
    public var refreshToken: String?
    /// From `expiresAt` (unix milliseconds).
    public var expiresAt: Date?
    public var subscriptionType: String?
    public var rateLimitTier: String?
    public var scopes: [String]?
    /// A client id stored with the login (Claude Code then refreshes with it and the stored scopes).
    public var clientId: String?
    /// The signed-in account (`accountUuid`), when stored: Claude Code's usage snapshot must match it.
    public var accountUuid: String?

    public init(accessToken: String, refreshToken: String?, expiresAt: Date?,
                subscriptionType: String? = nil, rateLimitTier: String? = nil, scopes: [String]? = nil,
                clientId: String? = nil, accountUuid: String? = nil) {
        self.clientId = clientId
        self.accountUuid = accountUuid
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.subscriptionType = subscriptionType
        self.rateLimitTier = rateLimitTier
        self.scopes = scopes
    }

    public var description: String {
        "OAuthCredentials(plan: \(subscriptionType ?? "?"), expires: \(expiresAt.map(ISO8601.format) ?? "?"), tokens: redacted)"
    }

    /// Expired, or expiring within `margin` seconds.
    public func isExpired(at now: Date, margin: TimeInterval = 60) -> Bool {
        guard let expiresAt else { return false }
        return expiresAt.timeIntervalSince(now) <= margin
    }
}

/// What a credentials document holds.
public enum CredentialsContent: Sendable, Equatable {
    case oauth(OAuthCredentials)
    /// Logged out: empty tokens (Claude Code leaves a stub after `/logout`).
    case loggedOut
    /// Only MCP server logins (`mcpOAuth`), no Claude login.
    case mcpOnly
}

/// Parses Claude Code's credentials JSON. Every other key is left for the writer to preserve.
public enum CredentialsParser {
    public struct Malformed: Error, CustomStringConvertible {
        public let description: String
    }

    public static func parse(_ data: Data) throws -> CredentialsContent {
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: data)
        } catch {
            throw Malformed(description: "credentials are not valid JSON")
        }
        guard let oauth = document.claudeAiOauth?.value else {
            return document.hasMCP ? .mcpOnly : .loggedOut
        }
        guard let access = oauth.accessToken?.value, !access.isEmpty else { return .loggedOut }
        // Saturated at the last second of year 9999: an absurd expiresAt means "far away", and
        // every later use (formatting, durations in doctor) stays within integer range.
        let expires = oauth.expiresAt?.value.flatMap {
            $0 > 0 ? Date(timeIntervalSince1970: min($0 / 1000, ISO8601.lastFormattable)) : nil
        }
        let refresh = oauth.refreshToken?.value.flatMap { $0.isEmpty ? nil : $0 }
        return .oauth(OAuthCredentials(
            accessToken: access, refreshToken: refresh, expiresAt: expires,
            subscriptionType: oauth.subscriptionType?.value, rateLimitTier: oauth.rateLimitTier?.value,
            scopes: oauth.scopes?.value,
            clientId: oauth.clientId?.value.flatMap { $0.isEmpty ? nil : $0 },
            accountUuid: oauth.accountUuid?.value.flatMap { $0.isEmpty ? nil : $0 }))
    }

    /// The Keychain may hand the JSON back hex-encoded; this undoes that (or returns the input).
    public static func unhexIfNeeded(_ text: String) -> Data {
        let trimmed = text.trimmed
        guard !trimmed.hasPrefix("{"), trimmed.count % 2 == 0, !trimmed.isEmpty,
              trimmed.allSatisfy(\.isHexDigit) else { return Data(trimmed.utf8) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(trimmed.count / 2)
        var index = trimmed.startIndex
        while index < trimmed.endIndex {
            let next = trimmed.index(index, offsetBy: 2)
            bytes.append(UInt8(trimmed[index..<next], radix: 16)!)
            index = next
        }
        return Data(bytes)
    }

    struct Document: Decodable {
        struct OAuth: Decodable {
            var accessToken: Lenient<String>?
            var refreshToken: Lenient<String>?
            var expiresAt: Lenient<Double>?
            var subscriptionType: Lenient<String>?
            var rateLimitTier: Lenient<String>?
            var scopes: Lenient<[String]>?
            var clientId: Lenient<String>?
            var accountUuid: Lenient<String>?
        }
        var claudeAiOauth: Lenient<OAuth>?
        var hasMCP = false

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: DynamicKey.self)
            claudeAiOauth = try container.decodeIfPresent(Lenient<OAuth>.self, forKey: DynamicKey(stringValue: "claudeAiOauth"))
            hasMCP = container.contains(DynamicKey(stringValue: "mcpOAuth"))
        }
    }
}
