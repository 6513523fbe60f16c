import ElbowroomCore
import ElbowroomTemplate
import ElbowroomAdapters

// Set from signal handlers; read by the loop. Plain integers: all a handler may safely touch.
nonisolated(unsafe) private var stopRequested: sig_atomic_t = 0
nonisolated(unsafe) private var refreshRequested: sig_atomic_t = 0
nonisolated(unsafe) private var paused: sig_atomic_t = 0
nonisolated(unsafe) private var resumed: sig_atomic_t = 0

/// `elbowroom watch`: a long-running stream for i3bar / swaybar, waybar without `interval`,
/// i3blocks `interval=persist` and polybar `tail = true`.
///
/// - Re-renders every `--interval` seconds (fractions allowed, default 1) so countdowns move, and
///   prints a line only when it changed; every line is written straight to the descriptor.
/// - Picks up cache updates written by other processes (it stats the cache file each tick).
/// - Starts `elbowroom-fetch` when a refresh is due, through the same single-flight path as a render.
/// - Signals: SIGUSR1 refreshes now; SIGUSR2 / SIGCONT are i3bar's stop / continue signals (the
///   header announces them: rendering pauses while the bar is hidden); SIGTERM, SIGINT, SIGHUP or a
///   closed stdout end it cleanly with status 0.
/// - Click events (i3bar, i3blocks persist) arrive on stdin: left click refreshes now, right click
///   cycles the template (the chosen one, then `compact`, `full`, `minimal`).
enum WatchCommand {
    static let stopSignal = SIGUSR2
    static let continueSignal = SIGCONT
    /// Never start another fetch sooner than this after starting one (a fetcher that died early
    /// must not turn into one spawn per tick).
    static let respawnGuard: TimeInterval = 15

    static func run(_ invocation: Invocation, context: CLIContext) -> Int32 {
        var setup: RenderSetup
        do {
            setup = try RenderSetup.make(invocation, context: context)
        } catch {
            let status = RenderSetup.report(error, context: context, streaming: true)
            // A bar restarts a command that exits; keep the error on screen instead.
            if error.adapter != nil { waitForStop() }
            return status
        }
        installSignalHandlers()
        let store = CacheStore(paths: context.paths)
        let trigger = FetchTrigger(context: context, store: store, config: setup.config)
        let cycle = templateCycle(setup, paths: context.paths)
        var cycleIndex = 0
        var cache = invocation.demo ? DemoReading.cache(now: context.now()) : store.load()
        // watch is long-running: it keeps the history (for rate, spark, pace, eta) whatever the template.
        var history = invocation.demo ? DemoReading.history(now: context.now()) : HistoryStore(paths: context.paths).load()
        let notifier = WatchNotifier(invocation, setup: setup, context: context, store: store)
        var cacheStamp = FileSystem.modificationDate(of: store.file)
        var lastSpawn: Date?
        var lastLine: String?
        var stdinOpen = true
        var pending = ""

        if let header = setup.adapter.streamHeader(), !context.stdout.write(header) { return 0 }
        while stopRequested == 0 {
            PosixSpawner.reapFinishedChildren()
            let now = context.now()
            if !invocation.demo {
                let stamp = FileSystem.modificationDate(of: store.file)
                if stamp != cacheStamp {
                    cache = store.load()
                    history = HistoryStore(paths: context.paths).load()
                    cacheStamp = stamp
                }
                notifier?.tick(cache: cache, history: history, now: now)
                if !invocation.offline {
                    let urgent = refreshRequested != 0
                    refreshRequested = 0
                    if urgent || lastSpawn.map({ now.timeIntervalSince($0) >= respawnGuard }) ?? true {
                        if trigger.startIfDue(cache: cache, urgency: urgent ? .now : .whenDue) { lastSpawn = now }
                    }
                }
            }
            if resumed != 0 {
                resumed = 0
                lastLine = nil
            }
            // A bar that went away without a signal: the line may not change for minutes, so
            // do not wait for a failed write to notice.
            if readerHasGone() { return 0 }
            if paused == 0 {
                let line = setup.adapter.streamFrame(setup.frame(cache: cache, now: now, template: cycle[cycleIndex], history: history))
                if line != lastLine {
                    guard context.stdout.write(line) else { return 0 }
                    lastLine = line
                }
            }
            // Sleep until the next tick, a click, or a signal.
            for event in waitForInput(timeout: invocation.interval, stdinOpen: &stdinOpen, pending: &pending) {
                switch event.button {
                case 1: refreshRequested = 1
                case 3 where cycle.count > 1:
                    cycleIndex = (cycleIndex + 1) % cycle.count
                    lastLine = nil
                default: break
                }
            }
        }
        return 0
    }

    /// The templates a right click steps through.
    static func templateCycle(_ setup: RenderSetup, paths: Paths) -> [Template] {
        var list = [setup.template]
        for name in ["compact", "full", "minimal"] where name != setup.template.name {
            if let t = try? TemplateLibrary.resolve(name, paths: paths) { list.append(t) }
        }
        return list
    }

    static func installSignalHandlers() {
        signal(SIGPIPE, SIG_IGN)
        for sig in [SIGTERM, SIGINT, SIGHUP] {
            signal(sig) { _ in stopRequested = 1 }
        }
        signal(SIGUSR1) { _ in refreshRequested = 1 }
        signal(stopSignal) { _ in paused = 1 }
        signal(continueSignal) { _ in paused = 0; resumed = 1 }
        // A parent may start us with these blocked (a process spawned from a thread pool inherits
        // its mask): then SIGTERM would never end us and clicks-by-signal would never arrive.
        var handled = sigset_t()
        sigemptyset(&handled)
        for sig in [SIGTERM, SIGINT, SIGHUP, SIGUSR1, stopSignal, continueSignal] { sigaddset(&handled, sig) }
        sigprocmask(SIG_UNBLOCK, &handled, nil)
    }

    /// Waits up to `timeout` for stdin; returns click events from complete lines.
    static func waitForInput(timeout: TimeInterval, stdinOpen: inout Bool, pending: inout String) -> [ClickEvent] {
        guard stdinOpen else {
            var request = timespec(tv_sec: Int(timeout), tv_nsec: Int((timeout - timeout.rounded(.down)) * 1e9))
            _ = nanosleep(&request, nil)  // a signal cuts it short, as it should
            return []
        }
        var fd = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        let ready = poll(&fd, 1, Int32(timeout * 1000))
        guard ready > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
        if n <= 0 {
            if n == 0 || errno != EINTR { stdinOpen = false }
            return []
        }
        pending += String(decoding: buffer[0..<n], as: UTF8.self)
        var events: [ClickEvent] = []
        while let newline = pending.firstIndex(of: "\n") {
            let line = String(pending[..<newline])
            pending = String(pending[pending.index(after: newline)...])
            if let event = ClickEventParser.parse(line: line) { events.append(event) }
        }
        if pending.count > 65536 { pending = "" }  // a runaway line without newline: drop it
        return events
    }

    /// Whether stdout is a pipe or socket whose reader has closed it.
    static func readerHasGone() -> Bool {
        var fd = pollfd(fd: 1, events: 0, revents: 0)
        return poll(&fd, 1, 0) > 0 && fd.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0
    }

    /// After printing a visible error, stay alive until told to stop, so a bar that restarts
    /// exited commands does not spin.
    static func waitForStop() {
        installSignalHandlers()
        while stopRequested == 0 && !readerHasGone() {
            var request = timespec(tv_sec: 1, tv_nsec: 0)
            _ = nanosleep(&request, nil)
        }
    }
}
