import ElbowroomCore

/// `elbowroom notify`: one shot, for a timer (`elbowroom init systemd-notify`). Brings the cache
/// up to date when a fetch is due (waiting for it, bounded; not with `--offline` or
/// `source = "statusline"`), then sends a desktop notification for each crossing not notified yet:
/// a window into warn or critical, to 100 %, running out before its reset at the current rate, a
/// reset (see `NotifyPlanner`, `[notify]` in the config). Each crossing notifies once per window
/// instance however many `notify` runs and `watch --notify` bars there are.
///
/// Prints one line per notification sent; exit 0, or 1 when one could not be sent (its claim is
/// given back: the next run tries again), 2 for a config error.
///
/// `notify --test` sends one sample (the demo's session window at warn) through the configured
/// route — `notify_command`, else notify-send — and prints the route, then `sent` or the route's
/// own error output and exit status; nothing is read from the cache or claimed.
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
        if invocation.sendTest { return test(config: config, context: context) }
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

    static func test(config: Config, context: CLIContext) -> Int32 {
        let now = context.now()
        let view = UsageView(cache: DemoReading.cache(now: now), now: now, config: config)
        guard let window = view.windows.first else { return 1 }
        let sender = NotificationSender(context: context, command: config.notifyCommand)
        let route = config.notifyCommand.map { "notify_command (\(NotifyMessage.text($0, lines: .join)))" } ?? "notify-send"
        context.stdout.write("elbowroom: sending a test notification through \(route)\n")
        let result = sender.deliver(NotifyEvent(kind: .warn, window: window), now: now, test: true)
        if let failure = result.failure {
            context.stderr.write("elbowroom: cannot notify: \(failure)\n")
            if config.notifyCommand == nil {
                context.stderr.write("elbowroom: notify-send needs a session bus (DBUS_SESSION_BUS_ADDRESS) and a notification daemon running in it (dunst, mako, a desktop's own); or set notify_command in the config\n")
            }
            return 1
        }
        context.stdout.write("sent" + (result.said.isEmpty ? "" : " (it said: \(result.said))") + "\n")
        return 0
    }
}
