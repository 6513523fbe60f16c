import ElbowroomCore

/// The `elsewhere` notification: a window rose by `[notify] elsewhere_points` or more in one run
/// of rises no local Claude Code session made (`AttributionState.Run`). Claimed under the cache's
/// lock with the other events, once per run; a disabled event is claimed all the same. When a
/// Claude Code process of this user without a status line (a `claude -p`) runs at the claim, the
/// run is claimed without a notification: it may be that process's spending.
enum ElsewhereClaim {
    /// The runs that would notify.
    static func due(_ cache: CacheFile, settings: NotifySettings) -> [AttributionState.Run] {
        guard let text = cache.attribution, text.hasPrefix("r ") || text.contains("|r ") else { return [] }
        return AttributionState(text: text).runs.filter { !$0.claimed && $0.points >= settings.elsewherePoints }
    }

    /// Claims every due run in `cache`; returns the events to send.
    static func claim(_ cache: inout CacheFile, view: UsageView, settings: NotifySettings) -> [NotifyEvent] {
        var state = AttributionState(text: cache.attribution)
        var events: [NotifyEvent] = []
        var silent: Bool?
        for i in state.runs.indices where !state.runs[i].claimed && state.runs[i].points >= settings.elsewherePoints {
            state.runs[i].claimed = true
            guard settings.isEnabled(.elsewhere), let window = view.windows.first(where: { $0.key == state.runs[i].key }) else { continue }
            if silent == nil { silent = ClaudeProcesses.silentOneRuns(reporting: state.reportingPIDs) }
            if silent == true { continue }
            events.append(NotifyEvent(kind: .elsewhere, window: window, run: state.runs[i]))
        }
        cache.attribution = state.text
        return events
    }
}
