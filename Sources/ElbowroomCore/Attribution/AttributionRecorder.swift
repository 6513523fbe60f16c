// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// Takes one observation into the cache's `AttributionState` and appends its rises to the
/// attribution log (`AttributionLog`). Called under the cache's lock: by the status-line ingest
/// (a session and its windows) and by `CacheStore.update` for every fetched reading that changed
/// the cache (the server's windows).
public enum AttributionRecorder {
    /// Returns whether the cache's state changed. A log that cannot be written costs its lines,
    /// never the cache write; one grown past its bound is compacted here.
    @discardableResult
    public static func record(_ report: AttributionState.SessionReport?, windows: [UsageWindow], at: Int64,
                              fromStatusLine: Bool, cache: inout CacheFile, historyFile: String) -> Bool {
        var state = AttributionState(text: cache.attribution)
        let rises = state.observe(report, windows: windows, at: at, fromStatusLine: fromStatusLine,
                                  silentLocalClaude: { [state] in ClaudeProcesses.silentOneRuns(reporting: state.reportingPIDs) })
        if !rises.isEmpty {
            let log = AttributionLog(historyFile: historyFile)
            let text = AttributionLog.lines(for: rises, state: &state)
            if let size = try? log.append(text), size > AttributionLog.compactAbove {
                try? log.compact(now: at)
            }
        }
        let text = state.text
        guard text != (cache.attribution ?? "") else { return false }
        cache.attribution = text
        return true
    }
}
