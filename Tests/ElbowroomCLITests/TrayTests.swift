import Foundation
import Testing
import ElbowroomCore
import ElbowroomDBus
import ElbowroomTestSupport
@testable import ElbowroomCLI

/// The real `elbowroom tray` on a private session bus (a real `dbus-daemon`), read and clicked
/// through real D-Bus clients (`gdbus`, `busctl`), fetching from the loopback stand-in for
/// Anthropic.
final class TrayRun: @unchecked Sendable {
    let e: EndToEnd
    let bus: PrivateBus
    private(set) var process: Process?
    let errFile: String

    static var tools: Bool {
        PrivateBus.available && ["/usr/bin/gdbus", "/usr/bin/busctl"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }
    static let why = "needs dbus (dbus-daemon), libglib2.0-bin (gdbus) and systemd (busctl) installed"

    init(_ e: EndToEnd) throws {
        self.e = e
        bus = try PrivateBus()
        errFile = e.sandbox.root + "/tray.err"
    }

    var environment: [String: String] {
        var env = bus.environment(e.sandbox.environment)
        env["LANG"] = "C.UTF-8"  // gdbus prints what is not ASCII as '?' without it
        return env
    }

    var name: String { "org.kde.StatusNotifierItem-\(process?.processIdentifier ?? 0)-1" }

    /// Starts `elbowroom tray ARGUMENTS` and waits until its item is on the bus.
    func start(_ arguments: [String] = []) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: e.elbowroom)
        p.arguments = ["tray"] + arguments
        p.environment = environment
        FileManager.default.createFile(atPath: errFile, contents: nil)
        p.standardError = FileHandle(forWritingAtPath: errFile)
        p.standardOutput = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        try p.run()
        process = p
        let up = Eventually.within(10) { self.call("/StatusNotifierItem", "org.freedesktop.DBus.Peer.Ping").status == 0 }
        try #require(up, "the tray did not come up: \(stderr)")
    }

    var stderr: String { (try? String(contentsOfFile: errFile, encoding: .utf8)) ?? "" }

    /// `gdbus call` on the item (its output through a file: an answer with the icon is larger
    /// than a pipe holds, and BoundedRun reads at the end).
    func call(_ path: String, _ method: String, _ arguments: [String] = []) -> BoundedRun {
        let file = e.sandbox.root + "/gdbus.out"
        let command = ["/usr/bin/gdbus", "call", "--session", "--dest", name, "--object-path", path, "--method", method]
            + (arguments.isEmpty ? [] : ["--"] + arguments)
        guard var run = try? BoundedRun.run("/bin/sh", ["-c", "out=$1; shift; exec \"$@\" >\"$out\"", "sh", file] + command,
                                            environment: environment, seconds: 10) else {
            return BoundedRun(status: -1, stdout: "", stderr: "gdbus did not run", seconds: 0, timedOut: false, crashed: false)
        }
        run.stdout = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        return run
    }

    func property(_ property: String) -> String {
        call("/StatusNotifierItem", "org.freedesktop.DBus.Properties.Get", ["org.kde.StatusNotifierItem", property]).stdout
    }

    func layout() -> String { call("/MenuBar", "com.canonical.dbusmenu.GetLayout", ["0", "-1", "[]"]).stdout }

    func click(_ id: Int) -> BoundedRun { call("/MenuBar", "com.canonical.dbusmenu.Event", ["\(id)", "clicked", "<0>", "0"]) }

    /// The icon as `busctl --json` reads it: (width, height, ARGB bytes) for each size.
    func pixmaps() throws -> [(Int, Int, [UInt8])] {
        // Through a file: the JSON is larger than a pipe holds, and BoundedRun reads at the end.
        let file = e.sandbox.root + "/icon.json"
        let run = try BoundedRun.run("/bin/sh", ["-c", "exec /usr/bin/busctl --user --json=short get-property \"$0\" /StatusNotifierItem org.kde.StatusNotifierItem IconPixmap >\"$1\"", name, file],
                                     environment: environment, seconds: 10)
        try #require(run.status == 0, "busctl: \(run.stderr)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(run.stderr)")
        let data = try #require(json["data"] as? [[Any]])
        return data.map { ($0[0] as! Int, $0[1] as! Int, ($0[2] as! [Int]).map(UInt8.init)) }
    }

    func stop() -> Int32? {
        guard let p = process else { return nil }
        if p.isRunning { kill(p.processIdentifier, SIGTERM) }
        guard Eventually.within(5, { !p.isRunning }) else {
            kill(p.processIdentifier, SIGKILL)
            return nil
        }
        return p.terminationStatus
    }

    deinit { _ = stop() }

    /// Pixels (of 4 bytes ARGB) within `tolerance` of `rgb`, opaque enough to see.
    static func count(_ pixels: [UInt8], near rgb: (Int, Int, Int), tolerance: Int = 40) -> Int {
        stride(from: 0, to: pixels.count, by: 4).filter { i in
            pixels[i] > 128 && abs(Int(pixels[i + 1]) - rgb.0) + abs(Int(pixels[i + 2]) - rgb.1) + abs(Int(pixels[i + 3]) - rgb.2) <= tolerance
        }.count
    }

    static let green = (0x2e, 0xa0, 0x43)
    static let amber = (0xd2, 0x99, 0x22)
    static let red = (0xe5, 0x34, 0x34)
}

/// Records what the item says on the bus (its signals), through our own client.
final class SignalRecorder: @unchecked Sendable {
    final class State: @unchecked Sendable {
        let lock = NSLock()
        var members: [String] = []
        var stopped = false
    }
    let state = State()

    init(bus: PrivateBus, sender: String) throws {
        let c = try DBusConnection(addresses: DBusAddress.parse(bus.address))
        // The match is in place once AddMatch returned: nothing sent from now on is missed.
        try c.addMatch("type='signal',sender='\(sender)'")
        let box = Unchecked(c)
        let state = state
        Thread {
            while !state.lock.withLock({ state.stopped }) {
                if let m = try? box.value.next(timeout: 0.1), m.kind == .signal, let member = m.member {
                    let text = member + (m.body.first?.string.map { "(\($0))" } ?? "")
                    state.lock.withLock { state.members.append(text) }
                }
            }
        }.start()
    }

    var seen: [String] { state.lock.withLock { state.members } }
    deinit { state.lock.withLock { state.stopped = true } }
}

final class Unchecked<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

@Suite(.serialized) struct TrayTests {
    @Test(.enabled(if: TrayRun.tools, "needs dbus (dbus-daemon), libglib2.0-bin (gdbus) and systemd (busctl) installed"))
    func theItemsPropertiesReadRightThroughGdbusAndBusctl() throws {
        let e = try EndToEnd()
        try e.seedCache(windows: [("five_hour", 40), ("seven_day", 20)], age: 0)
        let tray = try TrayRun(e)
        try tray.start()
        #expect(tray.property("Category") == "(<'ApplicationStatus'>,)\n")
        #expect(tray.property("Id") == "(<'elbowroom'>,)\n")
        #expect(tray.property("Status") == "(<'Active'>,)\n")
        #expect(tray.property("ItemIsMenu") == "(<false>,)\n")
        #expect(tray.property("Menu") == "(<objectpath '/MenuBar'>,)\n")
        #expect(tray.property("Title") == "(<'5h 60% · 7d 80%'>,)\n")
        let tooltip = tray.property("ToolTip")
        #expect(tooltip.hasPrefix("(<('', @a(iiay) [], '5h 60% · 7d 80%', '"), "\(tooltip)")
        #expect(tooltip.contains("60% left"), "\(tooltip)")
        let icons = try tray.pixmaps()
        #expect(icons.map(\.0) == [16, 22, 24, 32, 48, 64])
        for (w, h, data) in icons { #expect(data.count == w * h * 4) }
        let (_, _, small) = icons[1]
        // 60 % of the ring in the ok colour, the rest grey; nothing red.
        #expect(TrayRun.count(small, near: TrayRun.green) > 60, "\(TrayRun.count(small, near: TrayRun.green))")
        #expect(TrayRun.count(small, near: TrayRun.red) == 0)
        #expect(tray.call("/StatusNotifierItem", "org.freedesktop.DBus.Introspectable.Introspect").stdout.contains("IconPixmap"))
        #expect(tray.stop() == 0)
        #expect(tray.stderr.isEmpty, "\(tray.stderr)")
    }

    @Test(.enabled(if: TrayRun.tools, "needs dbus (dbus-daemon), libglib2.0-bin (gdbus) and systemd (busctl) installed"))
    func theMenuHasARowPerWindowThenRefreshDashboardAndQuit() throws {
        let e = try EndToEnd()
        try e.seedCache(windows: [("five_hour", 40), ("seven_day", 20)], age: 0)
        let tray = try TrayRun(e)
        try tray.start()
        let layout = tray.layout()
        #expect(layout.hasPrefix("(uint32 2, (0, {'children-display': <'submenu'>}, [<(100, {'label': <'"), "\(layout)")
        #expect(layout.contains("60% left, resets in"), "\(layout)")
        #expect(layout.contains("80% left, resets in"), "\(layout)")
        #expect(layout.contains("'enabled': <false>"))
        #expect(layout.contains("<(4, {'type': <'separator'>}, @av [])>, <(1, {'label': <'Refresh now'>}, @av [])>, <(2, {'label': <'Open dashboard'>, 'visible': <false>}, @av [])>, <(3, {'label': <'Quit'>}, @av [])>]))\n"), "\(layout)")
        let group = tray.call("/MenuBar", "com.canonical.dbusmenu.GetGroupProperties", ["[1, 3]", "['label']"]).stdout
        #expect(group == "([(1, {'label': <'Refresh now'>}), (3, {'label': <'Quit'>})],)\n")
        #expect(tray.call("/MenuBar", "org.freedesktop.DBus.Properties.Get", ["com.canonical.dbusmenu", "Version"]).stdout == "(<uint32 3>,)\n")
        // Quit ends it, with status 0.
        #expect(tray.click(3).status == 0)
        #expect(Eventually.within(5) { tray.process?.isRunning == false })
        #expect(tray.process?.terminationStatus == 0)
    }

    @Test(.enabled(if: TrayRun.tools, "needs dbus (dbus-daemon), libglib2.0-bin (gdbus) and systemd (busctl) installed"))
    func refreshNowInTheMenuFetchesFromTheStandInAndTheItemFollows() throws {
        let e = try EndToEnd()
        try e.seedCache(windows: [("five_hour", 40), ("seven_day", 20)], age: 0)
        let tray = try TrayRun(e)
        try tray.start()
        let recorder = try SignalRecorder(bus: tray.bus, sender: tray.name)
        Thread.sleep(forTimeInterval: 1)
        #expect(e.usageRequests == 0, "fresh data: nothing is due")
        #expect(tray.click(1).status == 0)
        #expect(Eventually.within(10) { e.usageRequests == 1 }, "\(tray.stderr)")
        // The stand-in says 63 % used: the title, tooltip and icon follow, each with its signal.
        #expect(Eventually.within(10) { tray.property("Title") == "(<'5h 37% · 7d 59%'>,)\n" }, "\(tray.property("Title"))")
        #expect(Eventually.within(3) { ["NewTitle", "NewIcon", "NewToolTip", "ItemsPropertiesUpdated"].allSatisfy(recorder.seen.contains) },
                "\(recorder.seen)")
        // A left click on the icon (Activate) refreshes too, coalesced with the last one.
        #expect(tray.call("/StatusNotifierItem", "org.kde.StatusNotifierItem.Activate", ["0", "0"]).status == 0)
        #expect(tray.stop() == 0)
    }

    @Test(.enabled(if: TrayRun.tools, "needs dbus (dbus-daemon), libglib2.0-bin (gdbus) and systemd (busctl) installed"))
    func criticalNeedsAttentionAndTheIconTurnsRed() throws {
        let e = try EndToEnd()
        try e.seedCache(windows: [("five_hour", 40)], age: 0)
        let tray = try TrayRun(e)
        try tray.start()
        let before = try tray.pixmaps()[2].2
        let recorder = try SignalRecorder(bus: tray.bus, sender: tray.name)
        // Another process writes the cache (as a fetch would): the tray follows at once.
        try e.seedCache(windows: [("five_hour", 95)], age: 0)
        #expect(Eventually.within(5) { tray.property("Status") == "(<'NeedsAttention'>,)\n" })
        #expect(Eventually.within(3) { recorder.seen.contains("NewStatus(NeedsAttention)") }, "\(recorder.seen)")
        let after = try tray.pixmaps()[2].2
        #expect(after != before)
        #expect(TrayRun.count(before, near: TrayRun.green) > 60)
        #expect(TrayRun.count(after, near: TrayRun.green) == 0)
        #expect(TrayRun.count(after, near: TrayRun.red) > 0, "5 % of the ring is left, in red")
        try e.seedCache(windows: [("five_hour", 80)], age: 0)
        #expect(Eventually.within(5) { tray.property("Status") == "(<'Active'>,)\n" })
        #expect(TrayRun.count(try tray.pixmaps()[2].2, near: TrayRun.amber) > 0)
        #expect(tray.stop() == 0)
    }

    /// A watcher of our own (as a panel would be): the item registers with it, and again with a
    /// new one after the panel restarts.
    @Test(.enabled(if: TrayRun.tools, "needs dbus (dbus-daemon), libglib2.0-bin (gdbus) and systemd (busctl) installed"))
    func itRegistersWithTheWatcherAndAgainWhenAWatcherComesBack() throws {
        let e = try EndToEnd()
        try e.seedCache(windows: [("five_hour", 40)], age: 0)
        let tray = try TrayRun(e)
        try tray.start()
        func watcher() throws -> (DBusConnection, () -> [String]) {
            let c = try DBusConnection(addresses: DBusAddress.parse(tray.bus.address))
            #expect(try c.requestName("org.kde.StatusNotifierWatcher"))
            var registered: [String] = []
            return (c, {
                while let m = try? c.next(timeout: 0.05) {
                    if m.kind == .methodCall, m.member == "RegisterStatusNotifierItem" {
                        registered.append((m.sender ?? "") + " " + (m.body.first?.string ?? ""))
                        try? c.send(.methodReturn(to: m))
                    }
                }
                return registered
            })
        }
        var (first, registered) = try watcher()
        var seen: [String] = []
        #expect(Eventually.within(5) { seen = registered(); return seen.count == 1 }, "\(seen) \(tray.stderr)")
        #expect(seen.first?.hasSuffix(" " + tray.name) == true, "\(seen)")
        // The panel restarts: its watcher goes, another comes.
        _ = try first.call(.methodCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                       interface: "org.freedesktop.DBus", member: "ReleaseName",
                                       body: [.string("org.kde.StatusNotifierWatcher")]))
        (first, registered) = try watcher()
        #expect(Eventually.within(5) { seen = registered(); return seen.count == 1 }, "registered again with the new watcher: \(seen)")
        #expect(tray.stop() == 0)
    }

    @Test(.enabled(if: TrayRun.tools, "needs dbus (dbus-daemon), libglib2.0-bin (gdbus) and systemd (busctl) installed"))
    func openDashboardShowsWhileServeAnswersAndOpensItWithXdgOpen() throws {
        let e = try EndToEnd()
        try e.seedCache(windows: [("five_hour", 40)], age: 0)
        // A port nobody listens on yet.
        let probe = try LoopbackHTTPServer()
        let port = probe.port
        probe.stop()
        let bin = e.sandbox.root + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try "#!/bin/sh\necho \"$@\" >> '\(e.sandbox.root)/opened'\n".write(toFile: bin + "/xdg-open", atomically: true, encoding: .utf8)
        chmod(bin + "/xdg-open", 0o755)
        e.sandbox.extra["PATH"] = bin + ":/usr/bin:/bin"
        let tray = try TrayRun(e)
        try tray.start(["--listen", "127.0.0.1:\(port)"])
        #expect(tray.layout().contains("'Open dashboard'>, 'visible': <false>"))
        let serve = try BuiltExecutable.start(e.elbowroom, arguments: ["serve", "--listen", "127.0.0.1:\(port)", "--offline"],
                                              environment: e.sandbox.environment)
        defer {
            _ = try? BoundedRun.run("/usr/bin/pkill", ["-TERM", "-f", "serve --listen 127.0.0.1:\(port)"], environment: [:], seconds: 5)
            _ = serve()
        }
        // The menu is about to open: the tray looks again, and says the layout changed.
        var answer = ""
        #expect(Eventually.within(5) {
            answer = tray.call("/MenuBar", "com.canonical.dbusmenu.AboutToShow", ["0"]).stdout
            return tray.layout().contains("'Open dashboard'>, 'visible': <true>")
        }, "\(answer) \(tray.layout())")
        #expect(tray.click(2).status == 0)
        #expect(Eventually.within(5) {
            (try? String(contentsOfFile: e.sandbox.root + "/opened", encoding: .utf8)) == "http://127.0.0.1:\(port)/\n"
        }, "\(tray.stderr)")
        #expect(tray.stop() == 0)
    }

    @Test(.enabled(if: TrayRun.tools, "needs dbus (dbus-daemon), libglib2.0-bin (gdbus) and systemd (busctl) installed"))
    func noTokenOrHomePathIsInAnythingTheItemAnswers() throws {
        let e = try EndToEnd()
        try e.seedCache(windows: [("five_hour", 40), ("seven_day", 20)], age: 0)
        let tray = try TrayRun(e)
        try tray.start()
        #expect(tray.click(1).status == 0)
        #expect(Eventually.within(10) { e.usageRequests == 1 })
        Thread.sleep(forTimeInterval: 0.5)
        let answers = [
            tray.call("/StatusNotifierItem", "org.freedesktop.DBus.Properties.GetAll", ["org.kde.StatusNotifierItem"]).stdout,
            tray.call("/MenuBar", "org.freedesktop.DBus.Properties.GetAll", ["com.canonical.dbusmenu"]).stdout,
            tray.layout(),
            tray.call("/", "org.freedesktop.DBus.Introspectable.Introspect").stdout,
        ].joined(separator: "\n")
        #expect(answers.contains("ApplicationStatus"))
        for secret in [e.anthropic.validAccessToken, e.anthropic.validRefreshToken, "sk-ant", e.sandbox.root, e.sandbox.home] {
            #expect(!answers.contains(secret), "\(secret) is on the bus")
        }
        #expect(tray.stop() == 0)
    }

    @Test(.enabled(if: TrayRun.tools, "needs dbus (dbus-daemon), libglib2.0-bin (gdbus) and systemd (busctl) installed"))
    func severalAccountsShowEachAndAccountPicksOne() throws {
        let e = try EndToEnd()
        try e.sandbox.writeConfig("timeout = 3\n[accounts.work]\nlabel = \"W\"\n[accounts.home]\nlabel = \"H\"\nclaude_config_dir = \"~/.claude-home\"\n")
        for (name, used) in [("work", 30.0), ("home", 70.0)] {
            var env = e.sandbox.environment
            env["ELBOWROOM_ACCOUNT"] = name
            if name == "home" { env["CLAUDE_CONFIG_DIR"] = e.sandbox.home + "/.claude-home" }
            let paths = Paths(environment: ElbowroomEnvironment(env))
            var cache = CacheFile(account: paths.accountSource, reading: Reading(
                windows: [UsageWindow(key: "five_hour", used: used, resetsAt: Date().addingTimeInterval(3600), observedAt: Date())],
                fetchedAt: Date(), source: .api))
            cache.fetch.recordSuccess(at: Date())
            try CacheStore(paths: paths).save(cache)
        }
        let tray = try TrayRun(e)
        try tray.start(["--offline"])
        #expect(tray.property("Title") == "(<'W 5h 70%  H 5h 30%'>,)\n", "\(tray.stderr)")
        let layout = tray.layout()
        #expect(layout.contains("'W Current session: 70% left") && layout.contains("'H Current session: 30% left"), "\(layout)")
        #expect(tray.stop() == 0)
        let one = try TrayRun(e)
        try one.start(["--offline", "--account", "home"])
        #expect(one.property("Title") == "(<'5h 30%'>,)\n")
        #expect(one.stop() == 0)
    }

    @Test(.enabled(if: TrayRun.tools, "needs dbus (dbus-daemon), libglib2.0-bin (gdbus) and systemd (busctl) installed"))
    func idleItCostsNoCPUAndItsMemoryStaysFlat() throws {
        let e = try EndToEnd()
        try e.seedCache(windows: [("five_hour", 40), ("seven_day", 20)], age: 0)
        let tray = try TrayRun(e)
        try tray.start()
        let pid = tray.process!.processIdentifier
        func cpuTicks() -> Int {
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
            return fields.count > 13 ? Int(fields[11])! + Int(fields[12])! : -1
        }
        func rssKB() -> Int {
            let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
            return Int(line.split(separator: " ")[1]) ?? -1
        }
        for _ in 0..<20 { _ = tray.call("/StatusNotifierItem", "org.freedesktop.DBus.Properties.GetAll", ["org.kde.StatusNotifierItem"]) }
        let idleFrom = cpuTicks()
        Thread.sleep(forTimeInterval: 3)
        #expect(cpuTicks() - idleFrom <= 1, "idle for 3 s: \(cpuTicks() - idleFrom) ticks of CPU")
        let rss = rssKB()
        for _ in 0..<50 {
            _ = tray.call("/StatusNotifierItem", "org.freedesktop.DBus.Properties.GetAll", ["org.kde.StatusNotifierItem"])
            _ = tray.layout()
        }
        #expect(rssKB() - rss < 1024, "RSS grew from \(rss) KB to \(rssKB()) KB over 100 calls")
        #expect(tray.stop() == 0)
    }

    @Test func withoutASessionBusItSaysSoAndExits1() throws {
        let e = try EndToEnd()
        let run = try e.runBounded(["tray"], seconds: 10)
        #expect(run.status == 1)
        #expect(run.stderr.contains("no D-Bus session bus"), "\(run.stderr)")
    }
}

/// The icon and menu without a bus.
@Suite struct TrayDrawingTests {
    @Test(arguments: [0.0, 25, 60, 100])
    func theRingInTheLevelColourGrowsWithTheHeadroomLeft(_ left: Double) {
        let icon = TrayIcon(left: left, color: (0xe5, 0x34, 0x34), stale: false)
        let pixels = icon.pixels(size: 64)
        let full = TrayRun.count(TrayIcon(left: 100, color: (0xe5, 0x34, 0x34), stale: false).pixels(size: 64), near: TrayRun.red, tolerance: 0)
        let shown = TrayRun.count(pixels, near: TrayRun.red, tolerance: 0)
        #expect(abs(Double(shown) / Double(full) - left / 100) < 0.05, "\(shown) of \(full)")
        // Straight ARGB: the corner (outside the ring) is transparent.
        #expect(Array(pixels[0..<4]) == [0, 0, 0, 0])
    }

    @Test func withoutNumbersTheRingIsGreyAllRound() {
        let pixels = TrayIcon(left: nil, color: (0x2e, 0xa0, 0x43), stale: false).pixels(size: 22)
        #expect(TrayRun.count(pixels, near: TrayRun.green) == 0)
        #expect(pixels.contains { $0 != 0 })
    }

    @Test func menuLabelsKeepTheirUnderscores() {
        #expect(TrayMenu.label("seven_day_opus: 5% left") == "seven__day__opus: 5% left")
    }

    @Test func initTrayPrintsAUserUnitAndAnAutostartEntry() throws {
        let snippet = try #require(IntegrationSnippets.snippet(named: "tray"))
        #expect(snippet.contains("ExecStart=elbowroom tray\n"))
        #expect(snippet.contains("WantedBy=graphical-session.target"))
        #expect(snippet.contains("~/.config/autostart/elbowroom-tray.desktop (without the \"# \"). One or the other, not both.\n# [Desktop Entry]\n"))
        let units = IntegrationSnippets.units(in: snippet)
        #expect(units.map(\.file) == ["elbowroom-tray.service"])
        #expect(units.first?.text.contains("Desktop Entry") == false)
        #expect(snippet.contains("# Exec=elbowroom tray\n"))
        let named = InitCommand.naming(snippet, program: "/home/u/.local/bin/elbowroom")
        #expect(named.contains("ExecStart=/home/u/.local/bin/elbowroom tray\n"))
        #expect(named.contains("# Exec=/home/u/.local/bin/elbowroom tray\n"))
    }
}
