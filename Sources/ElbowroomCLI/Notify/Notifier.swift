import ElbowroomCore
import ElbowroomAdapters

/// Claims due notifications under the cache's lock and sends them, for `elbowroom notify` and
/// `watch --notify`. Whoever claims a crossing first sends it; everyone else finds it claimed, so
/// twenty timers and bars make one notification. A claimed notification whose sending fails
/// (no notification daemon yet, no session bus) is reported and its claim given back under the
/// lock, so the next run tries again; one that was sent is never sent again.
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
        var unsent: [NotifyEvent] = []
        for event in events {
            if let failure = sender.send(event, now: now) {
                failures.append(failure)
                unsent.append(event)
            } else {
                sent.append(event)
            }
        }
        if !unsent.isEmpty {
            do {
                try release(unsent)
            } catch {
                failures.append("cannot update the cache: \(error)")
            }
        }
        return (sent, failures)
    }

    /// Gives back the claims of events that could not be sent, so the next run sends them: each
    /// event's kind, in its window's ledger line, while that line is still of the same window
    /// instance (a window that has reset since is a new crossing anyway).
    func release(_ events: [NotifyEvent]) throws {
        try store.update { cache in
            var ledger = NotifyLedger(lines: cache.notified)
            var changed = false
            for event in events {
                let reset = event.window.resetsAt.map { Int64($0.timeIntervalSince1970.rounded(.down)) }
                guard let i = ledger.entries.firstIndex(where: { $0.key == event.window.key }),
                      HistorySample.sameInstance(ledger.entries[i].resetsAt, reset),
                      let k = ledger.entries[i].claimed.firstIndex(of: event.kind) else { continue }
                ledger.entries[i].claimed.remove(at: k)
                changed = true
            }
            if changed { cache.notified = ledger.lines }
            return changed
        }
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
        deliver(event, now: now, test: false).failure
    }

    /// Sends `event` (`test`: as `notify --test`'s sample, said so in its words and JSON) and
    /// returns what the route answered.
    func deliver(_ event: NotifyEvent, now: Date, test: Bool) -> (failure: String?, status: Int32?, said: String) {
        let title = test ? NotifyMessage.testTitle : NotifyMessage.title(event, account: context.accountName)
        let body = test ? NotifyMessage.testBody(event, account: context.accountName) : NotifyMessage.body(event)
        let env = context.environment.forChild
        let path: String
        let arguments: [String]
        var stdin = Data()
        if let command {
            path = "/bin/sh"
            arguments = ["-c", command]
            stdin = Data(NotifyMessage.json(event, now: now, account: context.accountName, test: test).utf8)
        } else {
            #if os(macOS)
            path = "/usr/bin/osascript"
            arguments = ["-e", "display notification \(Self.appleScript(body)) with title \(Self.appleScript(title))"]
            #else
            guard let notifySend = context.environment.findExecutable("notify-send") else {
                return ("notify-send not found on PATH (install libnotify-bin), or set notify_command in the config", nil, "")
            }
            path = notifySend
            // The body may be read as markup (the spec allows `<b>`, `<a href>`, `<img>`), so it is
            // escaped; the summary is plain text by the spec, and daemons escape it themselves.
            arguments = ["-a", "elbowroom", "-u", event.kind.isUrgent ? "critical" : "normal", title, Pango.escape(body)]
            #endif
        }
        return deliver(path: path, arguments: arguments, environment: env, stdin: stdin)
    }

    /// What a route said: `failure` `nil` when it exited 0; else its name, exit status and its
    /// own words (stderr and stdout, cleaned, bounded), e.g. `notify-send exited with status 1:
    /// Cannot autolaunch D-Bus without X11 $DISPLAY`.
    func deliver(path: String, arguments: [String], environment: [String: String], stdin: Data)
        -> (failure: String?, status: Int32?, said: String) {
        let route = command == nil ? path : "notify_command"
        do {
            let result = try context.spawner.runCollectingErrors(path: path, arguments: arguments, environment: environment,
                                                                 stdin: stdin, timeout: Self.timeout)
            let said = Self.said(result.output)
            guard result.status != 0 else { return (nil, 0, said) }
            return ("\(route) exited with status \(result.status)" + (said.isEmpty ? "" : ": " + said), result.status, said)
        } catch {
            return ("cannot run \(route): \(error)", nil, "")
        }
    }

    /// A route's output as one bounded line: lines joined with "; ", controls dropped.
    static func said(_ output: Data) -> String {
        let text = String(decoding: output.prefix(4096), as: UTF8.self)
        let lines = text.split(whereSeparator: \.isNewline).map { NotifyMessage.text(String($0), lines: .join) }
            .map { String($0.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()) }.filter { !$0.isEmpty }
        let joined = lines.joined(separator: "; ")
        return joined.utf8.count > 400 ? String(joined.prefix(400)) + "…" : joined
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
