import ElbowroomCore
import ElbowroomAdapters

/// Claims due notifications under the cache's lock and sends them, for `elbowroom notify` and
/// `watch --notify`. Whoever claims a crossing first sends it; everyone else finds it claimed, so
/// twenty timers and bars make one notification. A claimed notification whose sending fails is
/// reported, not retried (at most once beats twice).
struct Notifier {
    var context: CLIContext
    var config: Config
    var store: CacheStore

    /// Claims what is due now. The view includes the history, so `runs_out` uses the current rate.
    func claim(now: Date) throws -> [NotifyEvent] {
        var claimed: [NotifyEvent] = []
        let history = HistoryStore(file: store.historyFile).load()
        try store.update { cache in
            var changed = false
            if let plan = plan(cache, history: history, now: now) {
                cache.notified = plan.ledger.lines
                claimed = plan.events
                changed = true
            }
            if !ElsewhereClaim.due(cache, settings: config.notify).isEmpty {
                let view = UsageView(cache: cache, now: now, config: config, history: history, provider: context.paths.provider)
                claimed += ElsewhereClaim.claim(&cache, view: view, settings: config.notify)
                changed = true
            }
            return changed
        }
        return claimed
    }

    /// Whether anything may be due, judged from a cache already in memory without taking the
    /// lock (`watch` asks every tick; the claim under the lock decides).
    func mayBeDue(cache: CacheFile?, history: UsageHistory?, now: Date) -> Bool {
        guard let cache, cache.reading != nil else { return false }
        return plan(cache, history: history, now: now) != nil || !ElsewhereClaim.due(cache, settings: config.notify).isEmpty
    }

    /// The plan for `cache`, or `nil` when it would change nothing in its ledger.
    private func plan(_ cache: CacheFile, history: UsageHistory?, now: Date) -> (events: [NotifyEvent], ledger: NotifyLedger)? {
        let view = UsageView(cache: cache, now: now, config: config, history: history, provider: context.paths.provider)
        let plan = NotifyPlanner.plan(reading: cache.reading, view: view, ledger: NotifyLedger(lines: cache.notified),
                                      settings: config.notify)
        return plan.ledger.lines == (cache.notified ?? []) ? nil : plan
    }

    /// Claims and sends; returns the events sent and one message per failure.
    func run(now: Date) -> (sent: [NotifyEvent], failures: [String]) {
        let events: [NotifyEvent]
        do {
            events = try claim(now: now)
        } catch {
            return ([], ["cannot update the cache: \(error)"])
        }
        var sent: [NotifyEvent] = []
        var failures: [String] = []
        let sender = NotificationSender(context: context, command: config.notifyCommand)
        for event in events {
            if let failure = sender.send(event, now: now) {
                failures.append(failure)
            } else {
                sent.append(event)
            }
        }
        return (sent, failures)
    }
}

/// Delivers one notification: the user's `notify_command` (the event as JSON on stdin), else
/// `notify-send` on Linux (urgency critical for critical and exhausted), `osascript` on macOS.
struct NotificationSender {
    var context: CLIContext
    var command: String?
    static let timeout: TimeInterval = 10

    /// `nil` when sent, else why not.
    func send(_ event: NotifyEvent, now: Date) -> String? {
        let title = NotifyMessage.title(event, account: context.accountName)
        let body = NotifyMessage.body(event)
        let env = context.environment.forChild
        let path: String
        let arguments: [String]
        var stdin = Data()
        if let command {
            path = "/bin/sh"
            arguments = ["-c", command]
            stdin = Data(NotifyMessage.json(event, now: now, account: context.accountName).utf8)
        } else {
            #if os(macOS)
            path = "/usr/bin/osascript"
            arguments = ["-e", "display notification \(Self.appleScript(body)) with title \(Self.appleScript(title))"]
            #else
            guard let notifySend = context.environment.findExecutable("notify-send") else {
                return "notify-send not found on PATH (install libnotify-bin), or set notify_command in the config"
            }
            path = notifySend
            // The body may be read as markup (the spec allows `<b>`, `<a href>`, `<img>`), so it is
            // escaped; the summary is plain text by the spec, and daemons escape it themselves.
            arguments = ["-a", "elbowroom", "-u", event.kind.isUrgent ? "critical" : "normal", title, Pango.escape(body)]
            #endif
        }
        do {
            let result = try context.spawner.run(path: path, arguments: arguments, environment: env, stdin: stdin,
                                                 timeout: Self.timeout)
            return result.status == 0 ? nil : "\(command == nil ? path : "notify_command") exited with status \(result.status)"
        } catch {
            return "cannot run \(command == nil ? path : "notify_command"): \(error)"
        }
    }

    /// An AppleScript string literal.
    static func appleScript(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            if scalar == "\\" || scalar == "\"" { out += "\\" }
            out.unicodeScalars.append(scalar)
        }
        return out + "\""
    }
}
