#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// Claude Code's own copy of the usage body: after each successful read it stores the whole
/// body in its global config (`$CLAUDE_CONFIG_DIR/.claude.json`, else `~/.claude.json`) as
/// `cachedUsageUtilization: {fetchedAtMs, accountUuid, utilization: <body>}` (CLAUDE-CODE.md).
/// Numbers from it are the API's, as old as `fetchedAtMs`, with the source `claude_snapshot`.
///
/// A snapshot whose `accountUuid` is not the signed-in account's (`oauthAccount.accountUuid` in
/// the same file) is another account's and is not used — as Claude Code itself discards it.
public enum ClaudeSnapshot {
    /// The reading in a global config document, or `nil` when it has no usable snapshot.
    /// - Parameter maxAge: older snapshots are not used (Claude Code shows one as last-known for
    ///   up to an hour).
    public static func reading(fromGlobalConfig data: Data, now: Date, maxAge: TimeInterval = 3600,
                               plan: String? = nil) -> Reading? {
        guard let document = try? JSONDecoder().decode(Document.self, from: data),
              let snapshot = document.cachedUsageUtilization?.value,
              let ms = snapshot.fetchedAtMs?.value, ms.isFinite, let body = snapshot.utilization?.value else { return nil }
        let signedIn = document.oauthAccount?.value?.accountUuid?.value
        guard let owner = snapshot.accountUuid?.value, let signedIn, owner == signedIn else { return nil }
        let fetchedAt = Date(timeIntervalSince1970: ms / 1000)
        let age = now.timeIntervalSince(fetchedAt)
        guard age >= -60, age <= maxAge else { return nil }
        return try? UsageDecoder.reading(body, observedAt: fetchedAt, plan: plan, source: .claudeSnapshot)
    }

    struct Document: Decodable {
        struct Account: Decodable { var accountUuid: Lenient<String>? }
        struct Snapshot: Decodable {
            var fetchedAtMs: FlexibleNumber?
            var accountUuid: Lenient<String>?
            var utilization: Lenient<UsageDecoder.Body>?
        }
        var oauthAccount: Lenient<Account>?
        var cachedUsageUtilization: Lenient<Snapshot>?
    }
}
