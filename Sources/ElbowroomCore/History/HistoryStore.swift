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

    /// `paths.historyFile` and its digest, written from the bytes of the cache file beside them
    /// (`usage-<account>.json`, which a render has already worked out): `historyFile` spells the
    /// same path anew through an interpolation and a join, ~2.8 k instructions an account.
    public init(paths: Paths) {
        let cache = paths.cacheFile
        if Self.endsIn(cache, ".json") {
            self.init(file: Self.replacingSuffix(of: cache, ".json", with: ".history"),
                      digestFile: Self.replacingSuffix(of: cache, ".json", with: ".digest"))
        } else {
            self.init(file: paths.historyFile)
        }
    }

    init(file: String, digestFile: String) {
        self.file = file
        self.digestFile = digestFile
    }

    public init(file: String) {
        self.init(file: file, digestFile: Self.replacingSuffix(of: file, ".history", with: ".digest"))
    }

    /// Whether `path`'s last bytes are `suffix`'s (`hasSuffix` compares Characters).
    static func endsIn(_ path: String, _ suffix: StaticString) -> Bool {
        var path = path
        return path.withUTF8 { bytes in
            bytes.count >= suffix.utf8CodeUnitCount
                && memcmp(bytes.baseAddress! + (bytes.count - suffix.utf8CodeUnitCount), suffix.utf8Start,
                          suffix.utf8CodeUnitCount) == 0
        }
    }

    /// `path` with `replacement` for its `suffix` (or after it, when it has none). Written once
    /// into a string of its length, cut on bytes (`dropLast` on a `String` walks Characters back
    /// from the end; an array of its bytes, made and copied, cost a render ~3 k instructions an
    /// account), and kept: a path that long made and freed costs a render ~31 k instructions
    /// (docs/performance.md).
    static func replacingSuffix(of path: String, _ suffix: StaticString, with replacement: StaticString) -> String {
        var path = path
        let cut = endsIn(path, suffix) ? suffix.utf8CodeUnitCount : 0
        return path.withUTF8 { bytes in
            let stem = bytes.count - cut
            let count = stem + replacement.utf8CodeUnitCount
            return String(unsafeUninitializedCapacity: count) { out in
                if stem > 0 { out.baseAddress!.update(from: bytes.baseAddress!, count: stem) }
                (out.baseAddress! + stem).update(from: replacement.utf8Start, count: replacement.utf8CodeUnitCount)
                return count
            }
        }
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
    /// `windows`: the keys of the windows the render shows (its cache's reading's); the digest's
    /// series of other windows are not read (`HistoryDigest.parse(_:windows:)`). `nil`: all.
    public func readForRender(windows: [String]? = nil) throws(FileSystem.Failure) -> UsageHistory {
        // As bytes, into room of the file's size (`readPrivateBytes`): through `readPrivate`'s
        // 16 kB buffer and a `Data`, each account's digest touched two more heap pages.
        if let bytes = try? FileSystem.readPrivateBytes(digestFile, limit: Self.digestReadLimit),
           let history = bytes.withUnsafeBufferPointer({ HistoryDigest.parse($0, windows: windows) }) {
            return history
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
        // The file's samples as they are (not made into series and back: a thousand samples
        // cost the write a million instructions that way).
        var samples = ((try? FileSystem.readPrivate(file, limit: Self.readLimit)) ?? nil).map(HistoryFile.parse) ?? []
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
