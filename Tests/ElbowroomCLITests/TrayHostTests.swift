import Foundation
import Testing
import ElbowroomCore
import ElbowroomTestSupport

/// `elbowroom tray` in a real StatusNotifierItem host: waybar's `tray` module in a headless
/// sway (wlroots' headless backend, pixman renderer), screenshots taken with grim. sway refuses
/// to run as root: as root, the whole session (bus, sway, waybar, the tray and its fetcher)
/// runs as nobody, in a sandbox handed to nobody.
@Suite(.serialized) struct TrayHostTests {
    static let tools = ["/usr/bin/sway", "/usr/bin/waybar", "/usr/bin/grim", "/usr/bin/swaymsg", "/usr/bin/gdbus", "/usr/bin/setpriv"]
    static var available: Bool { PrivateBus.available && tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) } }

    final class Session: @unchecked Sendable {
        let e: EndToEnd
        let bus: PrivateBus
        let runAs: [String]
        let run: String
        let bin: String
        var processes: [Process] = []
        var environment: [String: String]
        /// Ours alone, never handed over.
        let stagingArea = try! Sandbox()

        init() throws {
            e = try EndToEnd()
            let root = e.sandbox.root
            bin = root + "/bin"
            run = root + "/run"
            try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: run, withIntermediateDirectories: true)
            // The programs, where nobody can run them. Copied by cp, not in this process: a
            // copy's write descriptor open here would be inherited by whatever another test
            // spawns meanwhile, and exec would then fail with "Text file busy".
            let built = FileSystem.directory(of: e.elbowroom)
            for name in ["elbowroom", "elbowroom-http"] {
                _ = try BoundedRun.run("/bin/cp", [built + "/" + name, bin + "/" + name], environment: [:], seconds: 30)
            }
            try FileManager.default.createSymbolicLink(atPath: bin + "/elbowroom-fetch", withDestinationPath: "elbowroom")
            e.sandbox.extra["ELBOWROOM_FETCH"] = bin + "/elbowroom-fetch"
            runAs = geteuid() == 0 ? ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"] : []
            bus = try PrivateBus(runAs: runAs)
            try """
                { "layer": "top", "position": "top", "height": 34, "modules-right": ["tray"],
                  "tray": { "icon-size": 24, "spacing": 4 } }
                """.write(toFile: root + "/waybar.json", atomically: true, encoding: .utf8)
            try "window#waybar { background: #303030; }\n".write(toFile: root + "/waybar.css", atomically: true, encoding: .utf8)
            try """
                output HEADLESS-1 resolution 640x200
                exec waybar -c \(root)/waybar.json -s \(root)/waybar.css >\(root)/waybar.log 2>&1
                """.write(toFile: root + "/sway.conf", atomically: true, encoding: .utf8)
            environment = bus.environment(e.sandbox.environment)
            environment["XDG_RUNTIME_DIR"] = run
            environment["LANG"] = "C.UTF-8"
            environment["NO_AT_BRIDGE"] = "1"
            environment["WLR_BACKENDS"] = "headless"
            environment["WLR_LIBINPUT_NO_DEVICES"] = "1"
            environment["WLR_RENDERER"] = "pixman"
            handOver()
            chmod(run, 0o700)
        }

        /// Everything in the sandbox to the session's user (after each write of ours).
        func handOver() {
            guard !runAs.isEmpty else { return }
            chmod(e.sandbox.root, 0o755)
            _ = try? BoundedRun.run("/bin/chown", ["-R", "nobody:nogroup", e.sandbox.root], environment: [:], seconds: 10)
        }

        /// A cache written as a fetch would: whole, renamed into place (written as us in a
        /// directory of ours, then handed over: the session's directory is never ours meanwhile).
        func seed(_ windows: [(String, Double)]) throws {
            var env = e.sandbox.environment
            env["XDG_CACHE_HOME"] = stagingArea.cacheHome
            let staging = Paths(environment: ElbowroomEnvironment(env))
            try SeededCache.save(windows, paths: staging)
            let target = e.sandbox.paths.cacheFile
            try FileManager.default.createDirectory(atPath: FileSystem.directory(of: target), withIntermediateDirectories: true)
            if !runAs.isEmpty { chown(staging.cacheFile, 65534, 65534) }
            try #require(rename(staging.cacheFile, target) == 0)
            handOver()
        }

        func start(_ arguments: [String], log: String) throws {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: runAs.first ?? arguments[0])
            p.arguments = Array(runAs.dropFirst()) + (runAs.isEmpty ? Array(arguments.dropFirst()) : arguments)
            p.environment = environment
            FileManager.default.createFile(atPath: log, contents: nil)
            p.standardError = FileHandle(forWritingAtPath: log)
            p.standardOutput = FileHandle.nullDevice
            p.standardInput = FileHandle.nullDevice
            try p.run()
            processes.append(p)
        }

        /// Runs a program as the session's user; its output through a file.
        func call(_ arguments: [String]) -> String {
            let out = e.sandbox.root + "/call.out"
            FileManager.default.createFile(atPath: out, contents: nil)
            handOver()
            _ = try? BoundedRun.run(runAs.first ?? "/bin/sh", Array(runAs.dropFirst()) + (runAs.isEmpty ? [] : ["/bin/sh"])
                                    + ["-c", "out=$1; shift; exec \"$@\" >\"$out\" 2>&1", "sh", out] + arguments,
                                    environment: environment, seconds: 15)
            return (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        }

        /// The bar's top 34 rows, as (r, g, b) per pixel, and the width.
        func screenshot() throws -> (width: Int, pixels: [UInt8]) {
            let file = run + "/shot.ppm"
            _ = call(["/usr/bin/grim", "-t", "ppm", file])
            let data = try Data(contentsOf: URL(fileURLWithPath: file))
            // P6 \n W H \n 255 \n pixels
            var fields: [String] = []
            var i = 0
            while fields.count < 4 {
                var word = ""
                while i < data.count, data[i] != 0x0a, data[i] != 0x20 { word.append(Character(UnicodeScalar(data[i]))); i += 1 }
                i += 1
                if !word.isEmpty { fields.append(word) }
            }
            let width = Int(fields[1])!
            return (width, Array(data[i..<min(data.count, i + width * 34 * 3)]))
        }

        static func count(_ shot: (width: Int, pixels: [UInt8]), near rgb: (Int, Int, Int), tolerance: Int = 60) -> Int {
            stride(from: 0, to: shot.pixels.count, by: 3).filter { i in
                abs(Int(shot.pixels[i]) - rgb.0) + abs(Int(shot.pixels[i + 1]) - rgb.1) + abs(Int(shot.pixels[i + 2]) - rgb.2) <= tolerance
            }.count
        }

        /// Where the icon is: the middle of what differs from the bar's background.
        static func iconCenter(_ shot: (width: Int, pixels: [UInt8])) -> (Int, Int)? {
            var xs: [Int] = [], ys: [Int] = []
            for i in stride(from: 0, to: shot.pixels.count, by: 3)
            where abs(Int(shot.pixels[i]) - 0x30) + abs(Int(shot.pixels[i + 1]) - 0x30) + abs(Int(shot.pixels[i + 2]) - 0x30) > 30 {
                xs.append(i / 3 % shot.width)
                ys.append(i / 3 / shot.width)
            }
            guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() else { return nil }
            return ((x0 + x1) / 2, (y0 + y1) / 2)
        }

        deinit {
            stagingArea.cleanup()
            for p in processes.reversed() where p.isRunning { kill(p.processIdentifier, SIGKILL) }
        }
    }

    @Test(.enabled(if: available, "needs sway, waybar, grim, dbus and libglib2.0-bin (gdbus) installed"))
    func waybarShowsTheGaugeFollowsTheLevelReadsTheItemAndAMenuClickRefreshes() throws {
        let s = try Session()
        let e = s.e
        try s.seed([("five_hour", 40), ("seven_day", 20)])
        try s.start(["/usr/bin/sway", "-c", e.sandbox.root + "/sway.conf"], log: e.sandbox.root + "/sway.log")
        try #require(Eventually.within(20) { FileManager.default.fileExists(atPath: s.run + "/wayland-1") }, "sway did not start")
        s.environment["WAYLAND_DISPLAY"] = "wayland-1"
        try s.start([s.bin + "/elbowroom", "tray"], log: e.sandbox.root + "/tray.log")
        // waybar is the watcher: our item is registered with it.
        var registered = ""
        #expect(Eventually.within(20) {
            registered = s.call(["/usr/bin/gdbus", "call", "--session", "--dest", "org.kde.StatusNotifierWatcher",
                                 "--object-path", "/StatusNotifierWatcher", "--method", "org.freedesktop.DBus.Properties.Get",
                                 "org.kde.StatusNotifierWatcher", "RegisteredStatusNotifierItems"])
            return registered.contains("org.kde.StatusNotifierItem-")
        }, "\(registered) \((try? String(contentsOfFile: e.sandbox.root + "/waybar.log", encoding: .utf8)) ?? "")")
        let name = String(registered.split(separator: "'")[1].split(separator: "/")[0])

        // The icon shows in the bar, in the ok colour: 60 % of its ring.
        var shot = try s.screenshot()
        #expect(Eventually.within(10) {
            shot = (try? s.screenshot()) ?? shot
            return Session.count(shot, near: TrayRun.green) > 40
        }, "green pixels: \(Session.count(shot, near: TrayRun.green))")
        #expect(Session.count(shot, near: TrayRun.red) == 0)
        let center = try #require(Session.iconCenter(shot))
        #expect(center.0 > 560, "the tray is on the right: \(center)")

        // The level changes: the pixels follow, red now and no green.
        try s.seed([("five_hour", 95), ("seven_day", 20)])
        #expect(Eventually.within(10) {
            shot = (try? s.screenshot()) ?? shot
            return Session.count(shot, near: TrayRun.green) == 0 && Session.count(shot, near: TrayRun.red) > 0
        }, "green \(Session.count(shot, near: TrayRun.green)), red \(Session.count(shot, near: TrayRun.red))")

        // What the host reads: the tooltip and the menu.
        let gdbus = ["/usr/bin/gdbus", "call", "--session", "--dest", name]
        let tooltip = s.call(gdbus + ["--object-path", "/StatusNotifierItem", "--method", "org.freedesktop.DBus.Properties.Get",
                                      "org.kde.StatusNotifierItem", "ToolTip"])
        #expect(tooltip.contains("'5h 5% · 7d 80%'") && tooltip.contains("5% left"), "\(tooltip)")
        let layout = s.call(gdbus + ["--object-path", "/MenuBar", "--method", "com.canonical.dbusmenu.GetLayout", "0", "--", "-1", "[]"])
        #expect(layout.contains("Current session: 5% left") && layout.contains("'Refresh now'"), "\(layout)")

        // A click on the menu's Refresh now, sent as the host sends it (headless sway has no
        // pointer device to click with: `swaymsg seat … cursor press` reaches no client).
        #expect(e.usageRequests == 0)
        _ = s.call(gdbus + ["--object-path", "/MenuBar", "--method", "com.canonical.dbusmenu.Event", "1", "clicked", "<0>", "0"])
        #expect(Eventually.within(15) { e.usageRequests == 1 }, "\((try? String(contentsOfFile: e.sandbox.root + "/tray.log", encoding: .utf8)) ?? "")")
        // The stand-in's 63 % used reaches the bar: green comes back.
        #expect(Eventually.within(15) {
            shot = (try? s.screenshot()) ?? shot
            return Session.count(shot, near: TrayRun.green) > 20
        })
    }
}
