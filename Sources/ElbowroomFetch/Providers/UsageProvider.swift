#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ElbowroomCore

/// How one provider's usage is read. `FetchCoordinator.run` does what every fetch shares —
/// the config, the gate (the policy asked before and under the account's fetch lock), the
/// in-flight marker, and the record of every outcome with its cooldown — and asks the account's
/// provider (`ProviderRegistry`) for the rest, in this order: `prepare`, `credentialsChanged`
/// (asked by the gate), `withoutAsking` and `read` under the lock, then `note` for the saved
/// reading. Only `read` and `credentialsChanged` have no default.
protocol UsageProvider {
    /// Before the gate, nothing locked: `nil` to go on; `.skipped` stops without a record (Claude's
    /// token-free mode), `.failed` is recorded with its backoff (an endpoint URL refused before
    /// anything connects).
    mutating func prepare() -> FetchReport.Result?
    /// When the login last changed: the policy fetches again after a new login. `nil`: no login,
    /// or none read.
    func credentialsChanged() -> Date?
    /// Under the lock, before the in-flight marker: the run's report when a reading was to be
    /// had without asking anyone (Claude Code's own usage snapshot); `nil` to read.
    func withoutAsking(cache: CacheFile?, urgency: FetchUrgency, store: CacheStore) -> FetchReport?
    /// The reading. The in-flight marker is down: whatever this throws is recorded.
    func read(cache: CacheFile?) throws(FetchError) -> Reading
    /// What a failure of `read` is recorded as: another provider's names its source
    /// (`codex's usage endpoint`), where Claude's failures name the usage api.
    func failure(_ error: FetchError) -> FetchError
    /// What the fetch state keeps beside a good reading (Claude's run notes: refreshed tokens that
    /// could not be saved); asked after `read`.
    var note: String? { get }
    /// `fetched` (a request was made) or `read` (a file or a program): the log's word, and the
    /// one a reading that cannot be stored is described with.
    var verb: String { get }
}

extension UsageProvider {
    mutating func prepare() -> FetchReport.Result? { nil }
    func withoutAsking(cache: CacheFile?, urgency: FetchUrgency, store: CacheStore) -> FetchReport? { nil }
    func failure(_ error: FetchError) -> FetchError { error }
    var note: String? { nil }
    var verb: String { "read" }
}
