// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// Reads and appends one account's usage history (`HistoryFile`) and its digest
/// (`HistoryDigest`). `CacheStore.update` records every reading that lands in the cache, under
/// the cache's lock, so the history needs no lock of its own; readers (`elbowroom history`, and
/// through the digest a render whose template uses `rate`, `spark`, `pace` or `eta`) read
/// without one, since both files are only ever replaced by rename.
public struct HistoryStore: Sendable {
    public let file: String
    /// `usage-<account>.digest`, beside `file`.
    public let digestFile: String

    public init(paths: Paths) {
        self.init(file: paths.historyFile)
    }

    public init(file: String) {
        self.file = file
        // Cut on bytes (`dropLast` on a `String` walks Characters back from the end), and made
        // once: a path that long made and freed costs a render ~31 k instructions (docs/performance.md).
        var digest = Array(file.utf8.dropLast(file.hasSuffix(".history") ? 8 : 0))
        digest.append(contentsOf: ".digest".utf8)
        digestFile = String(decoding: digest, as: UTF8.self)
    }

    /// The history, or an empty one when the file is missing or unreadable.
    public func load() -> UsageHistory {
        (try? read()) ?? UsageHistory()
    }

    /// The history (empty when the file is missing), or why the file cannot be used: it is read
    /// like the cache, so a symlink, a FIFO, another user's file or an oversized one is refused
    /// without being followed or waited on.
    public func read() throws(FileSystem.Failure) -> UsageHistory {
        guard let data = try FileSystem.readPrivate(file, limit: Self.readLimit) else { return UsageHistory() }
        return UsageHistory(samples: HistoryFile.parse(data))
    }

    /// `readForRender`, or an empty history when neither file can be used.
    public func loadForRender() -> UsageHistory {
        (try? readForRender()) ?? UsageHistory()
    }

    /// What a render needs (see `HistoryDigest`): the digest, or — when there is none yet (a
    /// history from before digests), or it cannot be used — the whole history.
    public func readForRender() throws(FileSystem.Failure) -> UsageHistory {
        if let data = try? FileSystem.readPrivate(digestFile, limit: Self.digestReadLimit),
           let samples = HistoryDigest.parse(data) {
            return UsageHistory(samples: samples)
        }
        return try read()
    }

    /// Well above what `HistoryRetention` keeps; a larger file is not ours and reads as empty.
    static let readLimit = 1 << 20
    /// Well above a digest of many windows at `HistoryDigest.maxSamples` each.
    static let digestReadLimit = 1 << 18

    /// Appends a sample for every window of `reading` that is newer than the latest sample of that
    /// window (so recording the same reading twice, or a merged reading's older windows, adds
    /// nothing), thins the lot by `HistoryRetention` and replaces the file. Returns whether it
    /// wrote. Call it while holding the cache lock. The file is replaced atomically but not
    /// fsynced: it is a convenience, and the status-line render path must not pay for a sync.
    ///
    /// The reading is what the cache holds now, so a sample of a window more than
    /// `FetchState.clockSlack` newer than that window's observation in it was stamped by a clock
    /// that ran ahead (or `ELBOWROOM_NOW`): it goes, as the cache does not believe the future
    /// either; kept, it would hold off every real sample until its date.
    @discardableResult
    public func record(_ reading: Reading) throws -> Bool {
        guard reading.source != .demo else { return false }
        var samples = load().samples
        var added = false
        for window in reading.windows {
            guard let sample = HistorySample(window) else { continue }
            let slack = Int64(FetchState.clockSlack)
            if samples.contains(where: { $0.key == sample.key && $0.at - sample.at > slack }) {
                samples.removeAll { $0.key == sample.key && $0.at - sample.at > slack }
                added = true
            }
            let latest = samples.last { $0.key == sample.key }
            if let latest, latest.at >= sample.at { continue }
            samples.append(sample)
            added = true
        }
        guard added else { return false }
        // Windows of one reading may be observed at different times (the status line updates
        // two of them): keep the file in time order.
        if zip(samples, samples.dropFirst()).contains(where: { $0.at > $1.at }) {
            samples = samples.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }
                .map(\.element)
        }
        let kept = HistoryRetention.apply(samples, newest: samples.last?.at ?? 0)
        try FileSystem.makeDirectory(FileSystem.directory(of: file), mode: 0o700)
        try FileSystem.writeAtomically(HistoryFile.encode(kept), to: file, mode: 0o600, durable: false)
        do {
            try FileSystem.writeAtomically(HistoryDigest.encode(HistoryDigest.reduce(kept)), to: digestFile,
                                           mode: 0o600, durable: false)
        } catch {
            // An old digest would show an old rate: without one, renders read the history.
            try? FileSystem.remove(digestFile)
            throw error
        }
        return true
    }
}

/// The history as a render sees it.
public struct UsageHistory: Sendable, Equatable {
    /// Each window's samples oldest first (a digest lists window after window; the history
    /// file, all of them in time order).
    public var samples: [HistorySample]

    public init(samples: [HistorySample] = []) {
        self.samples = samples
    }

    public var isEmpty: Bool { samples.isEmpty }

    /// The samples of the window instance `window` is in (same key, same reset time), oldest
    /// first, ending with `window`'s own observation even when the history does not have it yet.
    public func instance(of window: UsageWindow) -> [HistorySample] {
        let reset = window.resetsAt.map { EpochTime.seconds($0) }
        let observed = EpochTime.seconds(window.observedAt)
        var series: [HistorySample] = []
        // Through a buffer, so the samples of other windows are looked at, not copied (a copy
        // retains and releases its key: most of this loop's cost over a few hundred samples).
        samples.withUnsafeBufferPointer { all in
            // Room for a digest's instance at once (it keeps at most about `maxSamples`): grown
            // one doubling at a time, the series cost each window ~3.5 k instructions of copies.
            series.reserveCapacity(Swift.min(all.count, HistoryDigest.maxSamples) + 1)
            // The key is compared with the window's once for each run of samples with one key
            // (a digest holds them window by window; they share one `String`, which compares
            // equal at once): two different keys cost a comparison some 55 instructions.
            var runKey = ""
            var runIsWindows = false
            for i in all.indices {
                if all[i].key != runKey {
                    runKey = all[i].key
                    runIsWindows = runKey == window.key
                }
                if runIsWindows && all[i].at <= observed && all[i].belongs(toInstanceResettingAt: reset) {
                    series.append(all[i])
                }
            }
        }
        if series.last?.at != observed {
            series.append(HistorySample(at: observed, key: window.key, used: window.used, resetsAt: reset))
        }
        return series
    }
}
