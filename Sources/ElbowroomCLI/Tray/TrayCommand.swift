import ElbowroomCore
import ElbowroomTemplate
import ElbowroomAdapters
import ElbowroomDBus

/// `elbowroom tray`: a StatusNotifierItem on the session bus, for every Linux desktop's tray
/// (KDE Plasma, GNOME with the AppIndicator extension, XFCE, Cinnamon, LXQt, waybar's `tray`).
///
/// - Registers with `org.kde.StatusNotifierWatcher`, and again whenever a watcher appears (a
///   panel that starts later or restarts); without one it waits.
/// - Keeps the item current from the cache, as `watch` does (`WatchedAccount`: the
///   same re-read on change, fetch when due, respawn guard): a gauge icon of the binding window's
///   headroom in its level's colour, the template as title, the tooltip template as tooltip,
///   `NeedsAttention` when critical, a menu row per window.
/// - Menu: "Refresh now" (and a left click on the icon) starts a fetch, coalesced as `watch`'s
///   clicks are; "Open dashboard" (shown while `elbowroom serve` answers at `--listen`, default
///   127.0.0.1:9478) opens it with `xdg-open`; "Quit" ends it.
/// - Sleeps in `poll` until the bus, the cache directory (inotify) or a signal has something,
///   or the next tick (`tick` seconds: countdowns and due fetches); idle, it costs nothing.
/// - Signals: SIGUSR1 refreshes now; SIGTERM, SIGINT, SIGHUP end it with status 0.
enum TrayCommand {
    /// Seconds between two looks at the clock when nothing happens: the tooltip's countdowns
    /// move by minutes, and a due fetch starts at most this late.
    static let tick: TimeInterval = 10
    /// After a refresh starts, the cache is looked at this often until the fetch lands (for a
    /// cache directory without inotify).
    static let fetchWatchTick: TimeInterval = 0.5

    static func run(_ invocation: Invocation, listen: String?, context: CLIContext) -> Int32 {
        // Rendered as plain text: the title and menu are text, the tooltip is escaped as markup
        // where it is sent.
        var plain = invocation
        plain.adapter = "plain"
        plain.color = .never
        var setup: RenderSetup
        let dashboard: ListenAddress
        do {
            setup = try RenderSetup.make(plain, context: context)
            dashboard = try listen.map { text throws(UsageError) in try ListenAddress.parse(text) } ?? .loopback
            if invocation.template == nil, let name = setup.config.templates["tray"] {
                setup.template = try TemplateLibrary.resolve(name, paths: context.paths)
            }
            if invocation.tooltip == nil {
                setup.tooltip = try TemplateLibrary.resolve(setup.config.templates["tooltip"] ?? "tooltip", paths: context.paths)
            }
        } catch let error as RenderSetup.Failure {
            context.stderr.write("elbowroom: \(error.message)\n")
            return 2
        } catch let error as UsageError {
            context.stderr.write("elbowroom: \(error.description)\n")
            return 2
        } catch {
            context.stderr.write("elbowroom: \(error)\n")
            return 2
        }
        guard let selection = AccountSelection.made(invocation, config: setup.config, context: context) else { return 2 }
        let palette = Palette(config: setup.config, adapter: "tray", defaults: TrayIcon.colors)

        let bus: DBusConnection
        let item: TrayItem
        do {
            bus = try DBusConnection(addresses: DBusAddress.session(environment: context.environment.variables))
            item = try TrayItem(bus: bus, pid: getpid())
        } catch {
            context.stderr.write("elbowroom: tray: \(error)\n")
            return 1
        }
        WatchCommand.installSignalHandlers()
        item.dashboardCheck = { reachable(dashboard) }
        var dashboardShown = false
        var dashboardCheckedAt: Date?

        var parts = selection.parts.map { WatchedAccount($0, config: setup.config) }
        let needsHistory = setup.readsHistory
        let cacheWatch = CacheDirectoryWatch(directories: parts.map { $0.context.paths.cacheDir },
                                             names: parts.map { String($0.store.file.split(separator: "/").last ?? "") })
        var first = true
        var refusal: String?
        var refresh = ForcedRefresh()
        var published = false
        while watchStopRequested == 0 {
            PosixSpawner.reapFinishedChildren()
            let now = context.now()
            let forceNow = refresh.due(now: now, allowed: !invocation.demo && !invocation.offline)
            // At most `SpawnBudget.perPass` fetchers a tick, as `watch`.
            parts.tick(now: now, first: first, force: forceNow, invocation: invocation, needsHistory: needsHistory,
                       budget: SpawnBudget(), refusal: &refusal, stderr: context.stderr)
            first = false
            var view = TrayView(frame: parts.frame(setup, now: now), palette: palette, now: now)
            if refusal != nil {
                view.title = RenderCommand.cacheRefused
                view.tooltip = refusal ?? ""
            }
            do {
                // Whether serve answers: looked at once a tick (and when a menu is about to open).
                if dashboardCheckedAt.map({ now.timeIntervalSince($0) >= tick || $0 > now }) ?? true {
                    dashboardShown = reachable(dashboard)
                    dashboardCheckedAt = now
                } else {
                    dashboardShown = item.menu.dashboard
                }
                try item.update(view, dashboard: dashboardShown)
                if !published {
                    // Our properties are ready before any host is told about us.
                    published = true
                    try item.register()
                }
                // Sleep until something happens, then handle everything that came.
                var timeout = refresh.timeout(tick, now: now)
                if let last = refresh.last, now.timeIntervalSince(last) < FetchTrigger.waitTimeout(setup.config), !cacheWatch.isWatching {
                    timeout = min(timeout, fetchWatchTick)
                }
                var wait = timeout
                while let message = try Self.next(bus: bus, cacheWatch: cacheWatch, timeout: wait) {
                    wait = 0
                    switch try item.handle(message) {
                    case .refresh?: refresh.request()
                    case .quit?: return 0
                    case .openDashboard?: open(dashboard, context: context)
                    case nil: break
                    }
                }
            } catch {
                context.stderr.write("elbowroom: tray: \(error)\n")
                return 1
            }
        }
        return 0
    }

    /// The next bus message; `nil` when `timeout` passed, a signal came, or the cache directory
    /// changed (the loop then re-reads it).
    static func next(bus: DBusConnection, cacheWatch: CacheDirectoryWatch, timeout: TimeInterval) throws(DBusError) -> DBusMessage? {
        if bus.hasPending { return try bus.next(timeout: 0) }
        guard let fd = cacheWatch.fd else { return try bus.next(timeout: timeout) }
        let deadline = DBusConnection.monotonic() + timeout
        while true {
            var fds = [pollfd(fd: bus.fd, events: Int16(POLLIN), revents: 0), pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            let left = max(0, deadline - DBusConnection.monotonic())
            guard poll(&fds, 2, Int32((left * 1000).rounded(.up))) > 0 else { return nil }
            if fds[0].revents != 0 { return try bus.next(timeout: 0) }
            // Only a cache file's change wakes the loop (not a lock file's or the history's).
            if cacheWatch.drain() { return nil }
        }
    }

    /// Whether `elbowroom serve` answers at `address` (a loopback connect, a few milliseconds).
    static func reachable(_ address: ListenAddress) -> Bool {
        // A serve on a Unix socket has no address a browser can open.
        guard address.unixPath == nil else { return false }
        var target = address
        if target.host == "0.0.0.0" { target.host = "127.0.0.1" }
        if target.host == "::" { target.host = "::1" }
        let fd = socket(target.isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let started = target.withSockaddr { Glibc.connect(fd, $0, $1) } ?? -1
        if started == 0 { return true }
        guard errno == EINPROGRESS else { return false }
        var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        guard poll(&p, 1, 300) > 0 else { return false }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
        return error == 0
    }

    /// The dashboard's address for a browser.
    static func url(_ address: ListenAddress) -> String {
        switch address.host {
        case "0.0.0.0": "http://127.0.0.1:\(address.port)/"
        case "::": "http://[::1]:\(address.port)/"
        default: "http://\(address.description)/"
        }
    }

    /// Opens the dashboard in the user's browser (`xdg-open`, detached).
    static func open(_ address: ListenAddress, context: CLIContext) {
        guard let opener = context.environment.findExecutable("xdg-open") else {
            context.stderr.write("elbowroom: tray: xdg-open not found on PATH (install xdg-utils); the dashboard is at \(url(address))\n")
            return
        }
        do {
            try context.spawner.spawnDetached(path: opener, arguments: [url(address)], childOf: context.environment)
        } catch {
            context.stderr.write("elbowroom: tray: cannot start xdg-open: \(error)\n")
        }
    }
}
