import ElbowroomCore

// Set from the signal handlers; read by the loop.
nonisolated(unsafe) var guardUntilSignal: sig_atomic_t = 0
/// The write end of the pipe a signal handler writes a byte to, so a `poll` that started just
/// before the signal still wakes (`-1`: none).
nonisolated(unsafe) var guardUntilWakeFD: Int32 = -1

/// `elbowroom guard --until [--min-left PCT] [--window NAME]… [--timeout DURATION]`: waits for
/// headroom instead of deciding now (`elbowroom guard --until --window 5h --min-left 10 --timeout 6h
/// && claude -p "…"`).
///
/// - Exits 0 once every checked window (each `--window`, default every window of every account
///   checked) has at least PCT left — because its reset time passed, or fresher data shows it.
/// - Exits 1 when `--timeout` passes first (as a failed `guard`), 69 when there is no data at all
///   (none in the cache, and the fetch it started brought none), 128 + the signal on SIGINT or
///   SIGTERM, at once.
/// - Sleeps until the earliest time the answer can change: a checked window's reset, the next fetch
///   that is due (the cache, the cooldowns and `max_age` are the only schedule: it starts a fetch
///   exactly when a render would), the timeout, or the cache changing under it (another process
///   fetched; inotify on Linux, else the cache's mtime every second). It never polls the network.
/// - On a terminal, one line on stderr says what it waits for, with a countdown, updated in place
///   every second; on a pipe only the final line is written.
enum GuardUntil {
    static func run(_ options: Invocation.GuardOptions, invocation: Invocation, config: Config,
                    selection: AccountSelection, context: CLIContext) -> Int32 {
        installSignalHandlers()
        defer { guardUntilWakeFD = -1 }
        let interactive = (context.stderr as? FileDescriptorSink).map { isatty($0.fd) == 1 } ?? false
        let minLeft = options.minLeft ?? config.thresholds.warn
        let started = context.now()
        let deadline = options.timeout.map { started.addingTimeInterval($0) }
        var parts = selection.parts.map { WatchedAccount($0, config: config) }
        let watcher = CacheWatcher(directories: parts.map { $0.context.paths.cacheDir })
        var shown = false
        func finish(_ status: Int32, _ line: String) -> Int32 {
            if shown { context.stderr.write("\r\u{1B}[K") }
            context.stderr.write("elbowroom: guard: \(line)\n")
            return status
        }
        var firstRound = true
        while true {
            if guardUntilSignal != 0 {
                let sig = guardUntilSignal
                return finish(128 + sig, "stopped by \(sig == SIGINT ? "SIGINT" : "SIGTERM") before enough was left")
            }
            let now = context.now()
            var wake = deadline ?? now.addingTimeInterval(Config.maxSeconds)
            var waiting: (line: String, short: String, until: Date?)?
            var passed: [String] = []
            var nextFetch: Date?
            for i in parts.indices {
                var round = parts[i].check(options, config: config, minLeft: minLeft, invocation: invocation, now: now,
                                           firstRound: firstRound)
                var line = round.verdict.line
                if selection.isSeveral, let account = parts[i].account {
                    line = "\(SafeText.clean(account.name, lines: .join)): " + line
                    round.short = "\(SafeText.clean(account.name, lines: .join)): " + round.short
                }
                switch round.verdict.status {
                case GuardCommand.noData: return finish(GuardCommand.noData, line)
                case 0: passed.append(line)
                default:
                    if waiting == nil { waiting = (line, round.short, round.reset) }
                }
                if let reset = round.reset { wake = min(wake, reset) }
                if let due = round.nextFetch {
                    wake = min(wake, due)
                    nextFetch = min(nextFetch ?? due, due)
                }
            }
            firstRound = false
            guard let blocked = waiting else { return finish(0, passed.first ?? "enough left") }
            if let deadline, now >= deadline {
                return finish(1, "gave up after \(DurationText.short(deadline.timeIntervalSince(started))): \(blocked.line)")
            }
            var remaining = max(0, wake.timeIntervalSince(now))
            if interactive {
                let countdown = blocked.until.map { "; resets in \(DurationText.short(max(0, $0.timeIntervalSince(now)) + 0.999))" } ?? ""
                // A fetch due before the reset may bring the headroom sooner.
                let fetch = nextFetch.flatMap { due in due < (blocked.until ?? .distantFuture) ? due : nil }
                    .map { "; next fetch in \(DurationText.short(max(0, $0.timeIntervalSince(now)) + 0.999))" } ?? ""
                let giveUp = deadline.map { "; gives up in \(DurationText.short(max(0, $0.timeIntervalSince(now)) + 0.999))" } ?? ""
                let line = "elbowroom: guard: waiting for \(GuardCommand.formatted(minLeft))% left (\(blocked.short))\(countdown)\(fetch)\(giveUp)"
                // One row: a line that wrapped could not be rewritten in place.
                context.stderr.write("\r\u{1B}[K" + String(line.prefix(max(20, terminalColumns(context) - 1))))
                shown = true
                // The countdown moves every second: wake on the next whole second of it.
                remaining = min(remaining, 1)
            }
            watcher.wait(seconds: max(0.01, remaining))
        }
    }

    /// The terminal's width (stderr's), else `COLUMNS`, else 80.
    static func terminalColumns(_ context: CLIContext) -> Int {
        var size = winsize()
        if let fd = (context.stderr as? FileDescriptorSink)?.fd, ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return Int(size.ws_col)
        }
        return context.environment["COLUMNS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } ?? 80
    }

    /// One account's look, each time `--until` wakes.
    struct Round {
        var verdict: GuardCommand.Verdict
        /// What holds it back, for the countdown: `5h has 5%`.
        var short = ""
        /// The reset of the checked window that holds it back, when that comes later.
        var reset: Date?
        /// When the next fetch is due (a render would start one), when one can come.
        var nextFetch: Date?
    }

    static func installSignalHandlers() {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            guardUntilWakeFD = fds[1]
            CacheWatcher.signalReadFD = fds[0]
        }
        for sig in [SIGINT, SIGTERM] {
            WatchCommand.handle(sig) { sig in
                guardUntilSignal = sig
                if guardUntilWakeFD >= 0 {
                    var byte: UInt8 = 1
                    _ = write(guardUntilWakeFD, &byte, 1)
                }
            }
        }
        var handled = sigset_t()
        sigemptyset(&handled)
        sigaddset(&handled, SIGINT)
        sigaddset(&handled, SIGTERM)
        sigprocmask(SIG_UNBLOCK, &handled, nil)
    }
}

/// Sleeps until a timeout, a signal (the wake pipe), or a change in a cache directory.
final class CacheWatcher {
    nonisolated(unsafe) static var signalReadFD: Int32 = -1
    private var inotifyFD: Int32 = -1

    init(directories: [String]) {
        #if os(Linux)
        inotifyFD = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        if inotifyFD >= 0 {
            let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE)
            var watched = 0
            for dir in directories where inotify_add_watch(inotifyFD, dir, mask) >= 0 { watched += 1 }
            if watched < directories.count {
                close(inotifyFD)
                inotifyFD = -1
            }
        }
        #endif
    }

    deinit {
        if inotifyFD >= 0 { close(inotifyFD) }
    }

    /// Returns after `seconds`, on a signal, or when a cache directory changed.
    func wait(seconds: TimeInterval) {
        // Without inotify (another platform, or a cache directory not made yet): look again
        // every second.
        let step = inotifyFD >= 0 ? seconds : min(seconds, 1)
        var fds: [pollfd] = []
        if Self.signalReadFD >= 0 { fds.append(pollfd(fd: Self.signalReadFD, events: Int16(POLLIN), revents: 0)) }
        if inotifyFD >= 0 { fds.append(pollfd(fd: inotifyFD, events: Int16(POLLIN), revents: 0)) }
        let ms = Int32(min(max(step * 1000, 1), 3_600_000).rounded(.up))
        _ = poll(&fds, nfds_t(fds.count), ms)
        if inotifyFD >= 0 {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while read(inotifyFD, &buffer, buffer.count) > 0 {}
        }
    }
}

extension WatchedAccount {
    /// Reads the cache, starts a fetch when a render would (waiting for it when there is no
    /// data yet), and decides as `guard` does.
    mutating func check(_ options: Invocation.GuardOptions, config: Config, minLeft: Double, invocation: Invocation,
                        now: Date, firstRound: Bool) -> GuardUntil.Round {
        var cache: CacheFile?
        switch store.read() {
        case .loaded(let found): cache = found
        case .missing, .unusable: break
        case .refused(let why): return GuardUntil.Round(verdict: .init(status: GuardCommand.noData, line: "no data: \(why)"))
        }
        let mayFetch = !invocation.offline && config.usageSource.mayFetch(context.paths)
        if mayFetch, lastSpawn.map({ now.timeIntervalSince($0) >= WatchedAccount.respawnGuard }) ?? true,
           trigger.startIfDue(cache: cache) {
            lastSpawn = now
            // No data at all: wait for this fetch before calling it "no data".
            if cache?.reading == nil || (firstRound && invocation.wait) {
                cache = trigger.waitForAttempt(after: cache, timeout: FetchTrigger.waitTimeout(config))
            }
        }
        let view = UsageView(cache: cache, now: context.now(), config: config, provider: context.paths.provider)
        let verdict = GuardCommand.decide(view, options: options, minLeft: minLeft)
        guard verdict.status == 1 else { return GuardUntil.Round(verdict: verdict) }
        var reset: Date?
        var short: [String] = []
        let chosen = options.windows.isEmpty ? view.windows : options.windows.compactMap { view.window(named: $0) }
        for window in chosen where window.left < minLeft {
            short.append("\(SafeText.clean(WindowCatalog.shortName(forKey: window.key), lines: .join)) has \(PercentText.whole(window.left))%")
            if let at = window.resetsAt, at > now { reset = reset.map { max($0, at) } ?? at }
        }
        var nextFetch: Date?
        if mayFetch {
            var due = RefreshSchedule.nextDue(cache: cache, config: config, now: now)
            if let last = lastSpawn { due = max(due, last.addingTimeInterval(WatchedAccount.respawnGuard)) }
            nextFetch = due
        }
        return GuardUntil.Round(verdict: verdict, short: short.joined(separator: ", "), reset: reset, nextFetch: nextFetch)
    }
}
