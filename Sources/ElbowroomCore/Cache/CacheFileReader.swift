// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// Reads the cache file's JSON by hand (see `JSONReader` for why). It accepts exactly what
/// `JSONDecoder` with `CacheFile`'s `Codable` conformance accepts and builds the same value — a
/// test holds the two equal over every fixture and thousands of mutated and hostile files:
/// unknown keys are skipped (newer versions add fields), `null` is an absent optional, a
/// missing required field, a wrong type or an unknown enum word fails the whole file.
///
/// A field added to `CacheFile`, `Reading`, `UsageWindow`, `ExtraUsage` or `FetchState` must be
/// added here too; the equivalence test fails until it is.
enum CacheFileReader {
    typealias Failure = JSONReader.Failure

    static func read(_ bytes: [UInt8]) -> CacheFile? {
        var reader = JSONReader(bytes: bytes)
        do throws(Failure) {
            let file = try cacheFile(&reader)
            try reader.end()
            return file
        } catch {
            return nil
        }
    }

    /// A required field that was never seen.
    private static var missing: Failure { Failure(offset: -1) }

    // Each object is read member by member (`JSONReader.nextMember`): its key is matched as the
    // bytes it is (`keyIs`), and only a value kept becomes a `String`. A key that comes again is
    // skipped (`firstTime`), as `JSONDecoder` keeps the first.

    private static func cacheFile(_ r: inout JSONReader) throws(Failure) -> CacheFile {
        var version: Int?
        var account: String?
        var reading: Reading?
        var fetch: FetchState?
        var notified: [String]?
        var attribution: String?
        var seen: UInt64 = 0
        try r.beginObject()
        while try r.nextMember() {
            let field = r.keyIs("version") ? 0 : r.keyIs("account") ? 1 : r.keyIs("reading") ? 2
                : r.keyIs("fetch") ? 3 : r.keyIs("notified") ? 4 : r.keyIs("attribution") ? 5 : -1
            switch JSONReader.firstTime(field, seen: &seen) {
            case 0: version = try r.int()
            case 1: account = try r.string()
            case 2: reading = try r.null() ? nil : try Self.reading(&r)
            case 3: fetch = try Self.fetchState(&r)
            case 4: notified = try Self.strings(&r)
            case 5:
                attribution = try r.null() ? nil : try r.string()
                if let attribution { KeptAlive.shared.keep(attribution) }
            default: try r.skipValue()
            }
        }
        guard let version, let account, let fetch else { throw missing }
        return CacheFile(version: version, account: account, reading: reading, fetch: fetch, notified: notified,
                         attribution: attribution)
    }

    /// An array of strings, or `nil` for `null`.
    private static func strings(_ r: inout JSONReader) throws(Failure) -> [String]? {
        if try r.null() { return nil }
        var list: [String] = []
        try r.array { r throws(Failure) in list.append(try r.string()) }
        return list
    }

    private static func reading(_ r: inout JSONReader) throws(Failure) -> Reading {
        var windows: [UsageWindow]?
        var extra: ExtraUsage?
        var plan: String?
        var fetchedAt: Date?
        var source: ReadingSource?
        var notes: [String]?
        var unknownKeys: [String]?
        var seen: UInt64 = 0
        try r.beginObject()
        while try r.nextMember() {
            let field = r.keyIs("windows") ? 0 : r.keyIs("extra") ? 1 : r.keyIs("plan") ? 2 : r.keyIs("fetchedAt") ? 3
                : r.keyIs("source") ? 4 : r.keyIs("notes") ? 5 : r.keyIs("unknownKeys") ? 6 : -1
            switch JSONReader.firstTime(field, seen: &seen) {
            case 0:
                var list: [UsageWindow] = []
                // Room for every window a reading has had at once (not one doubling at a time).
                list.reserveCapacity(6)
                try r.array { r throws(Failure) in list.append(try Self.window(&r)) }
                windows = list
            case 1: extra = try r.null() ? nil : try Self.extra(&r)
            case 2: plan = try r.null() ? nil : try r.string()
            case 3: fetchedAt = try Self.date(&r)
            case 4: source = try Self.source(&r)
            case 5: notes = try Self.strings(&r)
            case 6: unknownKeys = try Self.strings(&r)
            default: try r.skipValue()
            }
        }
        guard let windows, let fetchedAt, let source else { throw missing }
        // Not `init`, which sorts the windows and drops empty notes: decoding keeps both as stored.
        return Reading(stored: windows, extra: extra, plan: plan, fetchedAt: fetchedAt, source: source,
                       notes: notes, unknownKeys: unknownKeys)
    }

    private static func window(_ r: inout JSONReader) throws(Failure) -> UsageWindow {
        var key: String?
        var label: String?
        var used: Double?
        var resetsAt: Date?
        var severity: String?
        var binding: Bool?
        var observedAt: Date?
        var source: ReadingSource?
        var detail: String?
        var seen: UInt64 = 0
        try r.beginObject()
        while try r.nextMember() {
            let field = r.keyIs("key") ? 0 : r.keyIs("used") ? 1 : r.keyIs("resetsAt") ? 2 : r.keyIs("observedAt") ? 3
                : r.keyIs("label") ? 4 : r.keyIs("severity") ? 5 : r.keyIs("binding") ? 6 : r.keyIs("source") ? 7
                : r.keyIs("detail") ? 8 : -1
            switch JSONReader.firstTime(field, seen: &seen) {
            case 0: key = try r.string()
            case 1: used = try r.double()
            case 2: resetsAt = try r.null() ? nil : try Self.date(&r)
            case 3: observedAt = try Self.date(&r)
            case 4: label = try r.null() ? nil : try r.string()
            case 5: severity = try r.null() ? nil : try r.string()
            case 6: binding = try r.null() ? nil : try r.bool()
            case 7: source = try r.null() ? nil : try Self.source(&r)
            case 8: detail = try r.null() ? nil : try r.string()
            default: try r.skipValue()
            }
        }
        guard let key, let used, let observedAt else { throw missing }
        // Not `init`, which clamps and normalises: decoding keeps what is stored.
        return UsageWindow(storedKey: key, label: label, used: used, resetsAt: resetsAt, severity: severity,
                           binding: binding, observedAt: observedAt, source: source, detail: detail)
    }

    private static func extra(_ r: inout JSONReader) throws(Failure) -> ExtraUsage {
        var extra = ExtraUsage()
        var seen: UInt64 = 0
        try r.beginObject()
        while try r.nextMember() {
            let field = r.keyIs("isEnabled") ? 0 : r.keyIs("monthlyLimitMinor") ? 1 : r.keyIs("usedMinor") ? 2
                : r.keyIs("utilization") ? 3 : r.keyIs("currency") ? 4 : r.keyIs("exponent") ? 5
                : r.keyIs("organisation") ? 6 : r.keyIs("disabledReason") ? 7 : r.keyIs("limitReached") ? 8
                : r.keyIs("period") ? 9 : r.keyIs("resetsAt") ? 10 : r.keyIs("source") ? 11 : -1
            switch JSONReader.firstTime(field, seen: &seen) {
            case 0: extra.isEnabled = try r.null() ? nil : try r.bool()
            case 1: extra.monthlyLimitMinor = try r.null() ? nil : try r.double()
            case 2: extra.usedMinor = try r.null() ? nil : try r.double()
            case 3: extra.utilization = try r.null() ? nil : try r.double()
            case 4: extra.currency = try r.null() ? nil : try r.string()
            case 5: extra.exponent = try r.null() ? nil : try r.int()
            case 6: extra.organisation = try r.null() ? nil : try r.bool()
            case 7: extra.disabledReason = try r.null() ? nil : try r.string()
            case 8: extra.limitReached = try r.null() ? nil : try r.bool()
            case 9: extra.period = try r.null() ? nil : try r.string()
            case 10: extra.resetsAt = try r.null() ? nil : try Self.date(&r)
            case 11: extra.source = try r.null() ? nil : try Self.source(&r)
            default: try r.skipValue()
            }
        }
        return extra
    }

    private static func fetchState(_ r: inout JSONReader) throws(Failure) -> FetchState {
        var state = FetchState()
        var failures: Int?
        var seen: UInt64 = 0
        try r.beginObject()
        while try r.nextMember() {
            let field = r.keyIs("consecutiveFailures") ? 0 : r.keyIs("lastAttempt") ? 1 : r.keyIs("lastSuccess") ? 2
                : r.keyIs("lastOutcome") ? 3 : r.keyIs("message") ? 4 : r.keyIs("cooldownUntil") ? 5 : -1
            switch JSONReader.firstTime(field, seen: &seen) {
            case 0: failures = try r.int()
            case 1: state.lastAttempt = try r.null() ? nil : try Self.date(&r)
            case 2: state.lastSuccess = try r.null() ? nil : try Self.date(&r)
            case 3: state.lastOutcome = try r.null() ? nil : try Self.outcome(&r)
            case 4: state.message = try r.null() ? nil : try r.string()
            case 5: state.cooldownUntil = try r.null() ? nil : try Self.date(&r)
            default: try r.skipValue()
            }
        }
        guard let failures else { throw missing }
        state.consecutiveFailures = failures
        return state
    }

    /// Seconds since 1970, as the encoder writes them.
    private static func date(_ r: inout JSONReader) throws(Failure) -> Date {
        Date(timeIntervalSince1970: try r.double())
    }

    private static func source(_ r: inout JSONReader) throws(Failure) -> ReadingSource {
        guard let source = source(named: try r.string()) else { throw missing }
        return source
    }

    private static func outcome(_ r: inout JSONReader) throws(Failure) -> FetchOutcome {
        guard let outcome = outcome(named: try r.string()) else { throw missing }
        return outcome
    }

    // `init(rawValue:)` by hand: the synthesized one searches a table of the names, an array of
    // `StaticString` whose first use costs a render ~4 k instructions of runtime metadata. A test
    // holds these equal to the raw values.
    static func source(named name: String) -> ReadingSource? {
        switch name {
        case "api": .api
        case "status_line": .statusLine
        case "demo": .demo
        case "claude_snapshot": .claudeSnapshot
        case "session_log": .sessionLog
        case "plugin": .plugin
        default: nil
        }
    }

    static func outcome(named name: String) -> FetchOutcome? {
        switch name {
        case "ok": .ok
        case "network": .network
        case "timeout": .timeout
        case "unauthorized": .unauthorized
        case "forbidden": .forbidden
        case "rate_limited": .rateLimited
        case "server": .server
        case "undecodable": .undecodable
        case "signed_out": .signedOut
        case "expired": .expired
        case "config": .config
        case "interrupted": .interrupted
        default: nil
        }
    }
}

/// Holds the attribution state read last, so a render never frees it: freeing any long `String`
/// makes the runtime build the metadata of an optional first (some 34 k instructions of a render
/// that otherwise frees none), and a render exits without freeing anyway. Behind a mutex: `watch`
/// and `serve` read the cache on more than one thread.
final class KeptAlive: @unchecked Sendable {
    static let shared = KeptAlive()
    private let lock = ThreadLock()
    private var value: String?

    private init() {}

    func keep(_ text: String) {
        lock.withLock { value = text }
    }
}
