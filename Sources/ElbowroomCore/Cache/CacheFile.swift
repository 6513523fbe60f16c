// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// The on-disk cache of one account: the last good reading and the fetch state.
/// Versioned; a file of another version, or one that does not decode, is a cache miss.
public struct CacheFile: Codable, Sendable, Equatable {
    public static let currentVersion = 1

    public var version: Int
    /// The credentials source this cache belongs to (a path or a Keychain service, never a token).
    public var account: String
    public var reading: Reading?
    public var fetch: FetchState
    /// Notifications already sent, one `NotifyLedger` line per window; `nil` until `notify` runs.
    public var notified: [String]?
    /// Who used each window: `AttributionState`'s lines in one string (one string, not an array:
    /// every render reads the cache); `nil` until a status line or a fetch brings some.
    public var attribution: String?

    public init(account: String, reading: Reading? = nil, fetch: FetchState = FetchState()) {
        self.version = Self.currentVersion
        self.account = account
        self.reading = reading
        self.fetch = fetch
    }

    /// Every field as stored: the cache reader's (`CacheFileReader`).
    init(version: Int, account: String, reading: Reading?, fetch: FetchState, notified: [String]?, attribution: String?) {
        self.version = version
        self.account = account
        self.reading = reading
        self.fetch = fetch
        self.notified = notified
        self.attribution = attribution
    }

    /// The cache in `data`, or `nil` when it is not one of this version. Read by hand
    /// (`CacheFileReader`): this runs on every render. Held equal to its reference,
    /// `decodeWithCodable` (Tests/ElbowroomCoreTests/ReferenceDecoding.swift).
    public static func decode(_ data: Data) -> CacheFile? {
        decode(bytes: data.withUnsafeBytes { raw in [UInt8](raw.bindMemory(to: UInt8.self)) })
    }

    /// `decode(_:)` of the file's bytes as `FileSystem.readPrivateBytes` reads them.
    public static func decode(bytes: [UInt8]) -> CacheFile? {
        guard var file = CacheFileReader.read(bytes), file.version == currentVersion else { return nil }
        file.dropInsaneWindows()
        guard file.datesAreSane else { return nil }
        return consume file  // (moved out, not copied and the local destroyed)
    }

    /// Every date within a century of 1970…2070 (`EpochTime.isSane`): a file with absurd times
    /// (hand-edited, or written by something else) is treated as corrupt, i.e. a miss, rather
    /// than trusted. A window with an absurd time is not the file's fault: it is dropped
    /// (`dropInsaneWindows`) and the rest of the reading, and the fetch state with its cooldown,
    /// stay — a miss would mean a fetch on every render.
    var datesAreSane: Bool {
        func sane(_ date: Date?) -> Bool { date.map(EpochTime.isSane) ?? true }
        guard sane(reading?.fetchedAt), sane(fetch.lastAttempt), sane(fetch.lastSuccess),
              sane(fetch.cooldownUntil) else { return false }
        return sane(reading?.extra?.resetsAt)
    }

    /// Leaves out the windows whose observation or reset is no time at all (`EpochTime.isSane`).
    mutating func dropInsaneWindows() {
        guard let windows = reading?.windows else { return }
        var insane = false
        for window in windows where !Self.isSane(window) { insane = true }
        guard insane else { return }
        var kept: [UsageWindow] = []
        for window in windows where Self.isSane(window) { kept.append(window) }
        reading?.windows = kept
    }

    static func isSane(_ window: UsageWindow) -> Bool {
        EpochTime.isSane(window.observedAt) && (window.resetsAt.map(EpochTime.isSane) ?? true)
    }

    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        // Encoding plain value types cannot fail.
        return (try? encoder.encode(self)) ?? Data()
    }

    /// Takes in a status-line reading, window by window, only where it moves the cache forward;
    /// windows it lacks (per-model limits) are kept. Returns whether anything changed, so a
    /// status-line render that learns nothing writes nothing.
    ///
    /// Claude Code may replay old `rate_limits` (an idle session with `refreshInterval`), so the
    /// time of ingest says nothing about the data's age. A window is taken when the cache has
    /// none, when the cached one has reset, when it is a later window (its reset is later), when
    /// it has started (a reset time where the cache had none), or when it is the same window
    /// (same reset, ±60 s) with more used — usage within a window never goes down, and the same
    /// numbers again are no news. A window whose reset has passed is shown as reset, as one from
    /// the API is (`UsageView.project`): it is taken only where the cache has nothing better.
    ///
    /// The future is not believed, as the fetch state does not believe it (`FetchState.clockSlack`):
    /// a cached window observed more than that after the new one (a clock that ran ahead,
    /// `ELBOWROOM_NOW` set for one run) or resetting later than any window can
    /// (`WindowCatalog.latestPlausibleReset`) would otherwise hold off every real reading until that
    /// date; the new one replaces it.
    /// A gateway's spend limit (`newer.extra` from the status line) is taken when it differs
    /// from the cached one: spending only grows within a period, and a new period is news too.
    public mutating func ingest(_ newer: Reading) -> Bool {
        let accepted = newer.windows.filter { w in
            Self.moves(reading?.window(key: w.key), forwardTo: w)
        }
        let spend = newer.extra.flatMap { $0 == reading?.extra ? nil : $0 }
        guard !accepted.isEmpty || spend != nil else { return false }
        let fresher = Reading(windows: accepted, extra: spend, plan: nil, fetchedAt: newer.fetchedAt,
                              source: newer.source, notes: newer.notes)
        reading = reading.map { $0.merging(fresher) } ?? fresher
        return true
    }

    static func moves(_ old: UsageWindow?, forwardTo new: UsageWindow) -> Bool {
        guard let old else { return true }
        if old.observedAt.timeIntervalSince(new.observedAt) > FetchState.clockSlack { return true }
        if let oldReset = old.resetsAt,
           oldReset > WindowCatalog.latestPlausibleReset(forKey: old.key, observedAt: new.observedAt) { return true }
        guard new.observedAt > old.observedAt else { return false }
        if let reset = new.resetsAt, reset <= new.observedAt { return false }
        if let oldReset = old.resetsAt, oldReset <= new.observedAt { return true }
        switch (old.resetsAt, new.resetsAt) {
        case let (oldReset?, newReset?) where newReset.timeIntervalSince(oldReset) > 60:
            return true
        case let (oldReset?, newReset?) where newReset.timeIntervalSince(oldReset) < -60:
            return false
        case (nil, _?):
            return true
        case (_?, nil):
            return false
        default:
            return new.used > old.used
        }
    }
}
