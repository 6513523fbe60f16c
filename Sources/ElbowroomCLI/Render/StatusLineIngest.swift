// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// Claude Code hands its status line a JSON reading on stdin, with `rate_limits`: free fresh
/// data. A render for an adapter that reads it (`OutputAdapter.readsClaudeStatusLine`) takes it in
/// here: the `claude.*` variables, and the reading into the shared cache when it moves the cache
/// forward, so tmux and the panel get it too. The same numbers again (every status-line render)
/// take no lock and write nothing.
struct StatusLineIngest {
    var context: CLIContext
    var store: CacheStore
    var verbose: Bool

    /// A status line that came without `rate_limits` (before Claude Code's first answer, an API-key
    /// session, some versions) while the cache has nothing: the cache says so
    /// (`UsageView.statusLineSentNoLimits` as the fetch state's message), so every bar and prompt
    /// says "Claude Code sent no limits" instead of waiting for what came. Written once: the same
    /// again takes no lock. A cache that has data, or that a fetch has written, is left alone.
    func recordNoLimits(_ input: StatusLineInput, cache: CacheFile?) -> CacheFile? {
        guard !input.sentRateLimits, cache?.reading == nil, cache?.fetch.lastAttempt == nil,
              cache?.fetch.message != UsageView.statusLineSentNoLimits else { return cache }
        func mark(_ file: inout CacheFile) -> Bool {
            guard file.reading == nil, file.fetch.lastAttempt == nil else { return false }
            file.fetch.message = UsageView.statusLineSentNoLimits
            return true
        }
        do {
            return try store.update(mark)
        } catch {
            context.stderr.write("elbowroom: cannot update the cache: \(error)\n")
            return cache
        }
    }

    /// What `--demo` shows for the `claude.*` variables.
    static let demo = StatusLineInput(modelName: "Opus", costUSD: 1.25, contextUsedPercent: 37)

    /// The status line read from stdin (`nil` when there is none or it is not one), and the cache
    /// with its reading taken in.
    func ingest(into cache: CacheFile?) -> (StatusLineInput?, CacheFile?) {
        guard let data = context.readStdin(), !data.isEmpty,
              let input = StatusLineInput.decode(data, observedAt: context.now()) else {
            return (nil, cache)
        }
        if verbose {
            for note in input.notes { context.stderr.write("elbowroom: status line: \(note)\n") }
        }
        guard let reading = input.reading(at: context.now()) else {
            return (input, recordNoLimits(input, cache: cache))
        }
        var copy = cache ?? CacheFile(account: store.account)
        guard copy.ingest(reading) else { return (input, cache) }
        do {
            let updated = try store.update { $0.ingest(reading) }
            return (input, updated)
        } catch {
            context.stderr.write("elbowroom: cannot update the cache: \(error)\n")
            return (input, copy)
        }
    }
}
