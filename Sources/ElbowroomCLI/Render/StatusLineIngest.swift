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
    /// again changes nothing. A cache that has data, or that a fetch has written, is left alone.
    static func markNoLimits(_ input: StatusLineInput, in file: inout CacheFile) -> Bool {
        guard !input.sentRateLimits, file.reading == nil, file.fetch.lastAttempt == nil,
              file.fetch.message != UsageView.statusLineSentNoLimits else { return false }
        file.fetch.message = UsageView.statusLineSentNoLimits
        return true
    }

    /// What `--demo` shows for the `claude.*` variables.
    static let demo = StatusLineInput(modelName: "Opus", costUSD: 1.25, contextUsedPercent: 37)

    /// The status line read from stdin (`nil` when there is none or it is not one), and the cache
    /// with its reading taken in.
    ///
    /// Attribution (`AttributionState`): the session's cumulative cost and tokens, model, project
    /// and Claude Code's process (`CLAUDE_PID`) go into the cache's attribution state together
    /// with the windows, and a rise they show is appended to the attribution log. Whether this
    /// status line says anything new is decided from the cache already read (a byte comparison
    /// of its session's line): a status line that repeats its session's numbers and the cache's
    /// windows opens no file.
    func ingest(into cache: CacheFile?) -> (StatusLineInput?, CacheFile?) {
        guard let data = context.readStdin(), !data.isEmpty,
              let input = StatusLineInput.decode(data, observedAt: context.now()) else {
            return (nil, cache)
        }
        if verbose {
            for note in input.notes { context.stderr.write("elbowroom: status line: \(note)\n") }
        }
        let now = context.now()
        let reading = input.reading(at: now)
        let report = AttributionState.SessionReport(
            id: input.sessionID, pid: context.environment["CLAUDE_PID"].flatMap { Int32($0) }, costUSD: input.costUSD,
            tokens: input.tokens, model: input.modelName, project: input.project)
        var copy = cache ?? CacheFile(account: store.account)
        let moved = reading.map { copy.ingest($0) } ?? false
        let spent = report.map { !AttributionState.knows($0, in: copy.attribution) } ?? false
        let sentNone = reading == nil && Self.markNoLimits(input, in: &copy)
        guard moved || spent || sentNone else { return (input, cache) }
        let at = Int64(now.timeIntervalSince1970.rounded(.down))
        let historyFile = store.historyFile
        do {
            let updated = try store.update { cache in
                var changed = reading.map { cache.ingest($0) } ?? false
                if reading == nil && Self.markNoLimits(input, in: &cache) { changed = true }
                if AttributionRecorder.record(report, windows: reading?.windows ?? [], at: at, fromStatusLine: true,
                                              cache: &cache, historyFile: historyFile) {
                    changed = true
                }
                return changed
            }
            return (input, updated)
        } catch {
            context.stderr.write("elbowroom: cannot update the cache: \(error)\n")
            return (input, moved || sentNone ? copy : cache)
        }
    }
}
