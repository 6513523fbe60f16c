import Foundation
import Testing
import ElbowroomCore
import ElbowroomTestSupport

/// `elbowroom tray` in a second real StatusNotifierItem host: xfce4-panel's Status Tray plugin
/// (`systray`, which is also the session's StatusNotifierWatcher) in Xvfb, configured through a
/// generated xfconf channel file, with its own xfconfd on a private bus. Screenshots with xwd;
/// clicks are real X pointer events from xdotool.
@Suite(.serialized) struct TrayXfceHostTests {
    static let tools = ["/usr/bin/Xvfb", "/usr/bin/xfce4-panel", "/usr/bin/xdotool", "/usr/bin/xwd", "/usr/bin/gdbus",
                        xfconfd, "/usr/lib/x86_64-linux-gnu/xfce4/panel/plugins/libsystray.so"]
    static let xfconfd = "/usr/lib/x86_64-linux-gnu/xfce4/xfconf/xfconfd"
    static var available: Bool { PrivateBus.available && tools.allSatisfy { FileManager.default.fileExists(atPath: $0) } }

    /// A panel 34 px high along the top of a 640×200 screen: an expanding separator, then the tray.
    static let channel = """
        <?xml version="1.0" encoding="UTF-8"?>
        <channel name="xfce4-panel" version="1.0">
          <property name="configver" type="int" value="2"/>
          <property name="panels" type="array">
            <value type="int" value="1"/>
            <property name="panel-1" type="empty">
              <property name="position" type="string" value="p=6;x=0;y=0"/>
              <property name="length" type="uint" value="100"/>
              <property name="position-locked" type="bool" value="true"/>
              <property name="size" type="uint" value="34"/>
              <property name="icon-size" type="uint" value="24"/>
              <property name="background-style" type="uint" value="1"/>
              <property name="background-rgba" type="array">
                <value type="double" value="0.1882"/><value type="double" value="0.1882"/>
                <value type="double" value="0.1882"/><value type="double" value="1"/>
              </property>
              <property name="plugin-ids" type="array">
                <value type="int" value="1"/>
                <value type="int" value="2"/>
              </property>
            </property>
          </property>
          <property name="plugins" type="empty">
            <property name="plugin-1" type="string" value="separator">
              <property name="expand" type="bool" value="true"/>
              <property name="style" type="uint" value="0"/>
            </property>
            <property name="plugin-2" type="string" value="systray">
              <property name="icon-size" type="int" value="24"/>
            </property>
          </property>
        </channel>
        """

    final class Session: @unchecked Sendable {
        let e: EndToEnd
        let bus: PrivateBus
        var processes: [Process] = []
        var environment: [String: String]
        let display: String

        init() throws {
            e = try EndToEnd()
            let root = e.sandbox.root
            bus = try PrivateBus()
            let config = root + "/config"
            try FileManager.default.createDirectory(atPath: config + "/xfce4/xfconf/xfce-perchannel-xml", withIntermediateDirectories: true)
            try TrayXfceHostTests.channel.write(toFile: config + "/xfce4/xfconf/xfce-perchannel-xml/xfce4-panel.xml", atomically: true, encoding: .utf8)
            try FileManager.default.createDirectory(atPath: root + "/run", withIntermediateDirectories: true)
            chmod(root + "/run", 0o700)
            // A display number nobody holds.
            var n = 200 + Int(getpid() % 300)
            while FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(n)") || FileManager.default.fileExists(atPath: "/tmp/.X\(n)-lock") { n += 1 }
            display = ":\(n)"
            environment = bus.environment(e.sandbox.environment)
            environment["XDG_CONFIG_HOME"] = config
            environment["XDG_RUNTIME_DIR"] = root + "/run"
            environment["LANG"] = "C.UTF-8"
            environment["NO_AT_BRIDGE"] = "1"
            environment["GTK_THEME"] = "Adwaita"
            environment["DISPLAY"] = display
        }

        func seed(_ windows: [(String, Double)]) throws {
            try SeededCache.save(windows, paths: e.sandbox.paths)
        }

        /// Xvfb, xfconfd, the panel, and once its tray plugin (the watcher) is on the bus, the
        /// real `elbowroom tray`; each logs to the sandbox.
        func startPanelAndTray() throws {
            let root = e.sandbox.root
            try start(["/usr/bin/Xvfb", display, "-screen", "0", "640x200x24", "-nolisten", "tcp"], log: root + "/xvfb.log")
            try #require(Eventually.within(10) { FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X" + display.dropFirst()) }, "Xvfb did not start: \(log("xvfb.log"))")
            try start([TrayXfceHostTests.xfconfd], log: root + "/xfconfd.log")
            try start(["/usr/bin/xfce4-panel"], log: root + "/panel.log")
            // The panel waits some seconds for a window manager (there is none), then shows; its
            // tray plugin is the watcher.
            var names = ""
            try #require(Eventually.within(30) {
                names = call(["/usr/bin/gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                              "--method", "org.freedesktop.DBus.ListNames"])
                return names.contains("'org.kde.StatusNotifierWatcher'")
            }, "\(names) \(log("panel.log"))")
            try start([e.elbowroom, "tray"], log: root + "/tray.log")
        }

        func start(_ arguments: [String], log: String) throws {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: arguments[0])
            p.arguments = Array(arguments.dropFirst())
            p.environment = environment
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            p.standardError = FileHandle(forWritingAtPath: log)
            p.standardOutput = FileHandle(forWritingAtPath: log)
            p.standardInput = FileHandle.nullDevice
            try p.run()
            processes.append(p)
        }

        func call(_ arguments: [String]) -> String {
            let out = e.sandbox.root + "/call.out"
            _ = FileManager.default.createFile(atPath: out, contents: nil)
            _ = try? BoundedRun.run("/bin/sh", ["-c", "out=$1; shift; exec \"$@\" >\"$out\" 2>&1", "sh", out] + arguments,
                                    environment: environment, seconds: 15)
            return (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        }

        func log(_ name: String) -> String { (try? String(contentsOfFile: e.sandbox.root + "/" + name, encoding: .utf8)) ?? "" }

        /// The whole screen from xwd (24 or 32 bits a pixel, least significant byte first), as (r, g, b) per pixel.
        func screenshot(keep: String? = nil) throws -> Shot {
            let file = e.sandbox.root + "/shot.xwd"
            _ = call(["/usr/bin/xwd", "-root", "-silent", "-out", file])
            let d = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
            func word(_ i: Int) -> Int { Int(d[i * 4]) << 24 | Int(d[i * 4 + 1]) << 16 | Int(d[i * 4 + 2]) << 8 | Int(d[i * 4 + 3]) }
            let (headerSize, width, height, byteOrder, bitsPerPixel, bytesPerLine, colours) = (word(0), word(4), word(5), word(7), word(11), word(12), word(19))
            try #require((bitsPerPixel == 32 || bitsPerPixel == 24) && byteOrder == 0, "xwd: \(bitsPerPixel) bits, byte order \(byteOrder)")
            let step = bitsPerPixel / 8
            let start = headerSize + colours * 12
            var rgb = [UInt8](repeating: 0, count: width * height * 3)
            for y in 0..<height {
                for x in 0..<width {
                    let o = start + y * bytesPerLine + x * step, t = (y * width + x) * 3
                    rgb[t] = d[o + 2]; rgb[t + 1] = d[o + 1]; rgb[t + 2] = d[o]
                }
            }
            if let keep { try Shot(width: width, height: height, pixels: rgb).png().write(to: URL(fileURLWithPath: keep)) }
            return Shot(width: width, height: height, pixels: rgb)
        }

        /// Everything it started, last first: asked to end, then killed; Xvfb's lock and socket
        /// go with it (a killed Xvfb leaves them behind).
        deinit {
            for p in processes.reversed() where p.isRunning { kill(p.processIdentifier, SIGTERM) }
            _ = Eventually.within(3) { processes.allSatisfy { !$0.isRunning } }
            for p in processes.reversed() where p.isRunning { kill(p.processIdentifier, SIGKILL) }
            for p in processes { p.waitUntilExit() }
            let n = display.dropFirst()
            unlink("/tmp/.X\(n)-lock")
            unlink("/tmp/.X11-unix/X\(n)")
        }
    }

    struct Shot {
        let width: Int, height: Int
        let pixels: [UInt8]

        /// Pixels near a colour in the rows y0..<y1.
        func points(near rgb: (Int, Int, Int), rows: Range<Int> = 0..<34, tolerance: Int = 60) -> [(Int, Int)] {
            var found: [(Int, Int)] = []
            for y in rows where y < height {
                for x in 0..<width {
                    let i = (y * width + x) * 3
                    if abs(Int(pixels[i]) - rgb.0) + abs(Int(pixels[i + 1]) - rgb.1) + abs(Int(pixels[i + 2]) - rgb.2) <= tolerance { found.append((x, y)) }
                }
            }
            return found
        }

        static func center(_ points: [(Int, Int)]) -> (Int, Int)? {
            guard let x0 = points.map(\.0).min(), let x1 = points.map(\.0).max(),
                  let y0 = points.map(\.1).min(), let y1 = points.map(\.1).max() else { return nil }
            return ((x0 + x1) / 2, (y0 + y1) / 2)
        }

        /// An uncompressed-deflate PNG (stored blocks; zlib's Adler-32 and CRC-32 by hand).
        func png() -> Data {
            var raw: [UInt8] = []
            for y in 0..<height { raw.append(0); raw += pixels[(y * width * 3)..<((y + 1) * width * 3)] }
            var z: [UInt8] = [0x78, 0x01]
            var i = 0
            while i < raw.count || raw.isEmpty {
                let n = min(65535, raw.count - i), last: UInt8 = i + n >= raw.count ? 1 : 0
                z += [last, UInt8(n & 0xff), UInt8(n >> 8), UInt8(~n & 0xff), UInt8((~n >> 8) & 0xff)] + raw[i..<(i + n)]
                i += n
                if raw.isEmpty { break }
            }
            var a: UInt32 = 1, b: UInt32 = 0
            for v in raw { a = (a + UInt32(v)) % 65521; b = (b + a) % 65521 }
            z += be(b << 16 | a)
            func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xff), UInt8((v >> 8) & 0xff), UInt8(v & 0xff)] }
            func crc(_ bytes: [UInt8]) -> UInt32 {
                var c: UInt32 = 0xffffffff
                for v in bytes { c ^= UInt32(v); for _ in 0..<8 { c = c & 1 == 1 ? 0xedb88320 ^ (c >> 1) : c >> 1 } }
                return ~c
            }
            func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] { be(UInt32(body.count)) + Array(type.utf8) + body + be(crc(Array(type.utf8) + body)) }
            let header = be(UInt32(width)) + be(UInt32(height)) + [8, 2, 0, 0, 0]
            return Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] + chunk("IHDR", header) + chunk("IDAT", z) + chunk("IEND", []))
        }
    }

    @Test(.enabled(if: available, "needs xvfb, xfce4-panel, xfconf, xdotool, x11-apps (xwd), dbus and libglib2.0-bin (gdbus) installed"),
          .timeLimit(.minutes(4)))
    func xfcePanelShowsTheGaugeFollowsTheLevelAndARealClickRefreshes() throws {
        let s = try Session()
        let e = s.e
        let keep = ProcessInfo.processInfo.environment["ELBOWROOM_KEEP_SHOTS"]
        try s.seed([("five_hour", 40), ("seven_day", 20)])
        try s.startPanelAndTray()

        // The icon shows in the panel, in the ok colour: 60 % of its ring.
        var shot = try s.screenshot()
        #expect(Eventually.within(15) {
            shot = (try? s.screenshot()) ?? shot
            return shot.points(near: TrayRun.green).count > 40
        }, "green pixels: \(shot.points(near: TrayRun.green).count) \(s.log("panel.log")) \(s.log("tray.log"))")
        #expect(shot.points(near: TrayRun.red).isEmpty)
        let green = shot.points(near: TrayRun.green)
        let center = try #require(Shot.center(green))
        #expect(center.0 > 560 && center.1 < 34, "the tray is at the panel's right end: \(center)")
        if let keep { _ = try s.screenshot(keep: keep + "/xfce-ok.png") }

        // The level changes: the pixels where the icon is follow, red now and no green.
        try s.seed([("five_hour", 95), ("seven_day", 20)])
        #expect(Eventually.within(10) {
            shot = (try? s.screenshot()) ?? shot
            return shot.points(near: TrayRun.green).isEmpty && !shot.points(near: TrayRun.red).isEmpty
        }, "green \(shot.points(near: TrayRun.green).count), red \(shot.points(near: TrayRun.red).count)")
        let red = try #require(Shot.center(shot.points(near: TrayRun.red)))
        #expect(abs(red.0 - center.0) < 16 && abs(red.1 - center.1) < 16, "red where green was: \(red) \(center)")
        if let keep { _ = try s.screenshot(keep: keep + "/xfce-critical.png") }

        // A real left click on the icon: the panel calls Activate, which refreshes.
        #expect(e.usageRequests == 0)
        _ = s.call(["/usr/bin/xdotool", "mousemove", "--sync", "\(center.0)", "\(center.1)", "click", "1"])
        #expect(Eventually.within(15) { e.usageRequests == 1 }, "\(s.log("tray.log")) \(s.log("panel.log"))")
        // The stand-in's 63 % used reaches the panel: green comes back.
        #expect(Eventually.within(15) {
            shot = (try? s.screenshot()) ?? shot
            return shot.points(near: TrayRun.green).count > 20
        })
        if let keep { _ = try s.screenshot(keep: keep + "/xfce-refreshed.png") }
    }

    @Test(.enabled(if: available, "needs xvfb, xfce4-panel, xfconf, xdotool, x11-apps (xwd), dbus and libglib2.0-bin (gdbus) installed"),
          .timeLimit(.minutes(4)))
    func aRealClickOnRefreshNowInThePanelsMenuFetches() throws {
        let s = try Session()
        let e = s.e
        let keep = ProcessInfo.processInfo.environment["ELBOWROOM_KEEP_SHOTS"]
        try s.seed([("five_hour", 95), ("seven_day", 20)])
        try s.startPanelAndTray()
        var shot = try s.screenshot()
        try #require(Eventually.within(30) {
            shot = (try? s.screenshot()) ?? shot
            return !shot.points(near: TrayRun.red).isEmpty
        }, "\(s.log("panel.log")) \(s.log("tray.log"))")
        let icon = try #require(Shot.center(shot.points(near: TrayRun.red)))
        // A real right click: the panel reads our dbusmenu and opens it below the icon.
        _ = s.call(["/usr/bin/xdotool", "mousemove", "--sync", "\(icon.0)", "\(icon.1)", "click", "3"])
        // The menu: what is no longer the root window's black below the panel. Its enabled
        // items are dark text (the window rows are greyed out): the first band of dark rows is
        // Refresh now, the second Quit.
        var bands: [Range<Int>] = []
        var box: (x: Int, y0: Int, y1: Int)?
        #expect(Eventually.within(10) {
            shot = (try? s.screenshot()) ?? shot
            let lit = shot.points(near: (0, 0, 0), rows: 34..<shot.height, tolerance: 0)
            guard lit.count < (shot.height - 34) * shot.width - 2000 else { return false }
            var rows: [Int: Int] = [:]
            var xs: [Int] = [], ys: [Int] = []
            for y in 34..<shot.height {
                for x in 0..<shot.width {
                    let i = (y * shot.width + x) * 3
                    let sum = Int(shot.pixels[i]) + Int(shot.pixels[i + 1]) + Int(shot.pixels[i + 2])
                    if sum > 0 { xs.append(x); ys.append(y) }
                }
            }
            guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max(), y1 - y0 > 40 else { return false }
            for y in (y0 + 3)..<(y1 - 2) {
                for x in (x0 + 3)..<(x1 - 2) {
                    let i = (y * shot.width + x) * 3
                    if Int(shot.pixels[i]) + Int(shot.pixels[i + 1]) + Int(shot.pixels[i + 2]) < 240 { rows[y, default: 0] += 1 }
                }
            }
            bands = []
            for y in rows.keys.sorted() {
                if let last = bands.last, last.upperBound >= y - 1 { bands[bands.count - 1] = last.lowerBound..<(y + 1) } else { bands.append(y..<(y + 1)) }
            }
            box = (x0, y0, y1)
            return bands.count == 2
        }, "the menu's enabled items: \(bands) in \(String(describing: box))")
        if let keep { _ = try s.screenshot(keep: keep + "/xfce-menu.png") }
        #expect(e.usageRequests == 0, "opening the menu fetches nothing")
        let refresh = try #require(bands.first)
        let target = (x: try #require(box).x + 40, y: (refresh.lowerBound + refresh.upperBound) / 2)
        _ = s.call(["/usr/bin/xdotool", "mousemove", "--sync", "\(target.x)", "\(target.y)"])
        Thread.sleep(forTimeInterval: 0.3)
        _ = s.call(["/usr/bin/xdotool", "click", "1"])
        #expect(Eventually.within(15) { e.usageRequests == 1 }, "clicked \(target): \(s.log("tray.log")) \(s.log("panel.log"))")
        // The stand-in's 63 % used reaches the panel: green where red was.
        #expect(Eventually.within(15) {
            shot = (try? s.screenshot()) ?? shot
            return shot.points(near: TrayRun.green).count > 20 && shot.points(near: TrayRun.red).isEmpty
        })
    }
}
