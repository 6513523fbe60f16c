import ElbowroomCore
import ElbowroomTemplate
import ElbowroomAdapters


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
/// - Refresh requests (SIGUSR1, left clicks) are coalesced (`ForcedRefresh`): at most one forced
///   fetch every `ForcedRefresh.interval` seconds; requests in between collapse into one that runs when the
///   interval is up, and the cache's cooldowns (429, backoff) hold as always. A storm of signals
///   costs a re-render each, never a fetch each.
/// - A bar that stops reading (a full pipe) is waited for without spinning: a frame is written
///   only when the pipe takes it, and signals are still handled meanwhile.
enum WatchCommand {
    static func run(_ invocation: Invocation, context: CLIContext) -> Int32 {
        // A bar may start us with stdout closed (nothing can be shown: done) or stdin / stderr
        // closed: keep those descriptor numbers taken, or the next file opened would get them.
        if let fd = (context.stdout as? FileDescriptorSink)?.fd, fcntl(fd, F_GETFD) == -1 { return 0 }
        for fd: Int32 in [0, 2] where fcntl(fd, F_GETFD) == -1 {
            _ = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY)
        }
        let setup: RenderSetup
        let selection: AccountSelection
        do {
            setup = try RenderSetup.make(invocation, context: context)
        } catch {
            let status = RenderSetup.report(error, context: context, streaming: true)
            // A bar restarts a command that exits; keep the error on screen instead.
            if error.adapter != nil { waitForStop(context) }
            return status
        }
        do {
            selection = try AccountSelection(choosing: invocation.account, config: setup.config, context: context)
        } catch {
            _ = RenderSetup.report(.init(message: error.message, adapter: setup.adapter, short: "unknown account"),
                                   context: context, streaming: true)
            waitForStop(context)
            return 2
        }
        installSignalHandlers()
        let out = StreamWriter(sink: context.stdout)
        let cycle = templateCycle(setup, paths: context.paths)
        var cycleIndex = 0
        // One account is a list of one: every tick each account's cache is looked at (a `stat`
        // each) and re-read when it changed, with its history; each account's fetch starts when
        // due (each with its own respawn guard); the line shows one account as a render does, or
        // several side by side. SIGUSR1 and left clicks refresh every account, coalesced.
        var parts = selection.parts.map { WatchedAccount($0, config: setup.config) }
        for i in parts.indices {
            parts[i].notifier = WatchNotifier(invocation, setup: setup, context: parts[i].context, store: parts[i].store)
        }
        // The history (rate, spark, pace, eta) is read, and re-read when the cache changes, only
        // when something shows it: a template of the cycle, the tooltip, the adapter, or --notify.
        let needsHistory = (invocation.notify && !invocation.demo) || setup.readsHistory || cycle.contains { $0.readsHistory }
        var refresh = ForcedRefresh()
        var lastLine: String?
        var clicks = ClickInput(fd: context.stdinFD)

        // The header must come first, whole: wait for the bar to take it.
        if let header = setup.adapter.streamHeader(),
           out.write(header, waiting: true, stop: { watchStopRequested != 0 }) != .written { return 0 }
        var first = true
        var refusal: String?  // the cache directory is every account's: one refusal for all
        while watchStopRequested == 0 {
            if !parts.contains(where: { $0.notifier?.isSending == true }) { PosixSpawner.reapFinishedChildren() }
            let now = context.now()
            let forceNow = refresh.due(now: now, allowed: !invocation.demo && !invocation.offline)
            // At most `SpawnBudget.perPass` fetchers a tick; the rest on the next ones.
            parts.tick(now: now, first: first, force: forceNow, invocation: invocation, needsHistory: needsHistory,
                       budget: SpawnBudget(), refusal: &refusal, stderr: context.stderr)
            first = false
            if watchResumed != 0 {
                watchResumed = 0
                lastLine = nil
            }
            // A bar that went away without a signal: the line may not change for minutes, so
            // do not wait for a failed write to notice.
            if out.readerHasGone() { return 0 }
            if watchPaused == 0 {
                let line = refusal != nil ? setup.adapter.streamError(RenderCommand.cacheRefused)
                    : setup.adapter.streamFrame(parts.frame(setup, now: now, template: cycle[cycleIndex]))
                if line != lastLine {
                    switch out.write(line, stop: { watchStopRequested != 0 }) {
                    case .written: lastLine = line
                    case .busy: break  // the bar is not reading: try again next tick
                    case .gone: return 0
                    }
                }
            }
            WatchCommand.waitForTick(&clicks, interval: invocation.interval, now: now, refresh: &refresh,
                                     cycleCount: cycle.count, cycleIndex: &cycleIndex, lastLine: &lastLine)
        }
        return 0
    }

    /// Sleeps until the next tick, a click or a signal; sooner when a coalesced refresh is due.
    /// A left click asks for a refresh, a right click moves to the next template of the cycle.
    static func waitForTick(_ clicks: inout ClickInput, interval: TimeInterval, now: Date, refresh: inout ForcedRefresh,
                            cycleCount: Int, cycleIndex: inout Int, lastLine: inout String?) {
        for event in clicks.wait(timeout: refresh.timeout(interval, now: now)) {
            switch event.button {
            case 1: refresh.request()
            case 3 where cycleCount > 1:
                cycleIndex = (cycleIndex + 1) % cycleCount
                lastLine = nil
            default: break
            }
        }
    }

    /// The cache, or why the cache directory is refused.
    static func readCache(_ store: CacheStore) -> (CacheFile?, String?) {
        switch store.read() {
        case .loaded(let cache): return (cache, nil)
        case .missing, .unusable: return (nil, nil)
        case .refused(let why): return (nil, why)
        }
    }

    /// The templates a right click steps through.
    static func templateCycle(_ setup: RenderSetup, paths: Paths) -> [Template] {
        var list = [setup.template]
        for name in ["compact", "full", "minimal"] where name != setup.template.name {
            if let t = try? TemplateLibrary.resolve(name, paths: paths) { list.append(t) }
        }
        return list
    }

    /// After printing a visible error, stay alive until told to stop, so a bar that restarts
    /// exited commands does not spin.
    static func waitForStop(_ context: CLIContext) {
        installSignalHandlers()
        while watchStopRequested == 0 && !StreamWriter(sink: context.stdout).readerHasGone() {
            var request = timespec(tv_sec: 1, tv_nsec: 0)
            _ = nanosleep(&request, nil)
        }
    }
}
