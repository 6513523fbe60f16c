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
        guard let reading = input.reading(at: context.now()) else { return (input, cache) }
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
