import ElbowroomCore

/// `elbowroom notify`: one shot, for a timer (`elbowroom init systemd-notify`). Brings the cache
/// up to date when a fetch is due (waiting for it, bounded; not with `--offline` or
/// `source = "statusline"`), then sends a desktop notification for each crossing not notified yet:
/// a window into warn or critical, to 100 %, running out before its reset at the current rate, a
/// reset (see `NotifyPlanner`, `[notify]` in the config). Each crossing notifies once per window
/// instance however many `notify` runs and `watch --notify` bars there are.
///
/// Prints one line per notification sent; exit 0, or 1 when one could not be sent, 2 for a config error.
enum NotifyCommand {
    static func run(_ invocation: Invocation, context: CLIContext) -> Int32 {
        let paths = context.paths
        let config: Config
        do {
            config = try Config.load(paths: paths)
        } catch {
            context.stderr.write("elbowroom: \(error.description)\n")
            return 2
        }
        let store = CacheStore(paths: paths)
        if !invocation.offline {
            let trigger = FetchTrigger(context: context, store: store, config: config)
            let cache = store.load()
            if trigger.startIfDue(cache: cache) {
                _ = trigger.waitForAttempt(after: cache, timeout: FetchTrigger.waitTimeout(config))
            }
        }
        let notifier = Notifier(context: context, config: config, store: store)
        let (sent, failures) = notifier.run(now: context.now())
        for event in sent {
            context.stdout.write("notified: \(NotifyMessage.title(event, account: context.accountName)) (\(event.kind.rawValue))\n")
        }
        var said: [String] = []
        for failure in failures where !said.contains(failure) {
            said.append(failure)
            context.stderr.write("elbowroom: cannot notify: \(failure)\n")
        }
        return failures.isEmpty ? 0 : 1
    }
}
