#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// One notification to send: what happened, to which window (as the user sees it now).
public struct NotifyEvent: Sendable, Equatable {
    public var kind: NotifyKind
    public var window: WindowView
    /// For `elsewhere`: the run of rises no local session made (`AttributionState.Run`).
    public var run: AttributionState.Run?

    public init(kind: NotifyKind, window: WindowView, run: AttributionState.Run? = nil) {
        self.kind = kind
        self.window = window
        self.run = run
    }
}

/// Decides which notifications are due: compares each window with what the ledger says was
/// already claimed for its window instance.
///
/// - `warn`, `critical`, `exhausted` are a ladder: a window that crosses several at once (or is
///   first seen past them) notifies once, for the highest enabled one; all reached are claimed.
/// - `runs_out`: the first time in a window instance that `eta` has a value (it runs out before
///   the reset at the current rate), unless it is used up already.
/// - `unused`: the first time in a window instance that it resets within `unused_before` with at
///   least `unused_left` % left (use it or lose it).
/// - `reset`: when a window the ledger knew resets — its reset time passes, or a reading shows a
///   later window instance. A window first seen after its reset does not notify.
/// - Disabled events are claimed all the same, so turning one on later does not replay old crossings.
public enum NotifyPlanner {
    public static func plan(reading: Reading?, view: UsageView, ledger: NotifyLedger,
                            settings: NotifySettings) -> (events: [NotifyEvent], ledger: NotifyLedger) {
        var events: [NotifyEvent] = []
        var entries: [NotifyLedger.Entry] = []
        let now = EpochTime.seconds(view.now)
        for stored in reading?.windows ?? [] {
            guard HistoryFile.isStorableKey(stored.key),
                  let window = view.windows.first(where: { $0.key == stored.key }) else { continue }
            let reset = stored.resetsAt.map { EpochTime.seconds($0) }
            func notify(_ kind: NotifyKind) {
                if settings.isEnabled(kind) { events.append(NotifyEvent(kind: kind, window: window)) }
            }
            var entry: NotifyLedger.Entry
            var known = false
            if let old = ledger.entry(forKey: stored.key) {
                if HistorySample.sameInstance(old.resetsAt, reset) {
                    entry = old
                    known = true
                } else {
                    // A later window instance replaced the one we knew: that one reset.
                    if let oldReset = old.resetsAt, oldReset <= now, !old.has(.reset) { notify(.reset) }
                    entry = NotifyLedger.Entry(key: stored.key, resetsAt: reset, claimed: [])
                    if window.hasReset { entry.claim(.reset) }
                }
            } else {
                entry = NotifyLedger.Entry(key: stored.key, resetsAt: reset, claimed: [])
            }
            if window.hasReset {
                if !entry.has(.reset) {
                    if known && entry.resetsAt != nil { notify(.reset) }
                    entry.claim(.reset)
                }
            } else {
                var reached: [NotifyKind] = []
                if window.level >= .warn { reached.append(.warn) }
                if window.level == .critical { reached.append(.critical) }
                if window.used >= 100 { reached.append(.exhausted) }
                let fresh = reached.filter { !entry.has($0) }
                fresh.forEach { entry.claim($0) }
                if let top = fresh.filter(settings.isEnabled).max() { notify(top) }
                if window.eta != nil && window.used < 100 && !entry.has(.runsOut) {
                    entry.claim(.runsOut)
                    notify(.runsOut)
                }
                if let resetsIn = window.resetsIn, resetsIn > 0, resetsIn <= settings.unusedBefore,
                   window.left >= settings.unusedLeft, !entry.has(.unused) {
                    entry.claim(.unused)
                    notify(.unused)
                }
            }
            entries.append(entry)
        }
        return (events, NotifyLedger(entries: entries))
    }
}
