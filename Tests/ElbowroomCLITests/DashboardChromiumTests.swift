import Foundation
import ElbowroomCore
import ElbowroomTestSupport
import Testing
@testable import ElbowroomCLI

/// `serve`'s `GET /` dashboard in a real browser: headless Chromium (Debian `chromium`) loads it
/// from a running `elbowroom serve` whose data came from the loopback stand-in for Anthropic.
@Suite(.serialized) struct DashboardChromiumTests {
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static var available: Bool { chromium != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") }

    /// Runs headless Chromium with a throwaway profile and no background traffic of its own.
    static func chromium(_ arguments: [String], root: String) throws -> EndToEnd.Run? {
        let profile = root + "/chromium-profile-\(UUID().uuidString.prefix(6))"
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = root
        return try runBounded(try #require(chromium), [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
            "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-extensions",
            "--disable-dev-shm-usage", "--user-data-dir=" + profile,
        ] + arguments, environment: env, seconds: 60)
    }

    /// A running serve with the stand-in's numbers (5h 37 % left, 7d 59 % left) fetched into its
    /// cache, and a week of history behind them.
    static func serving() throws -> (EndToEnd, ServeProcess) {
        let e = try EndToEnd()
        try EndToEndHistoryChartTests.seed(e, now: Int64(Date().timeIntervalSince1970) - 120, days: 7)
        let serve = try ServeProcess(elbowroom: e.elbowroom, environment: e.sandbox.environment)
        // The first request starts the fetch, as a render would.
        _ = try RawHTTP.get(port: serve.port, "/v1/usage")
        try #require(Eventually.within(15) { CacheStore(paths: e.sandbox.paths).load()?.reading != nil }, "no fetch landed")
        return (e, serve)
    }

    @Test(.enabled(if: available, "needs chromium (Debian: chromium) and python3"))
    func theDomHasEveryGaugesNumbersAndTheScreenshotIsNotBlank() throws {
        let (e, serve) = try Self.serving()
        let url = "http://127.0.0.1:\(serve.port)/"
        let dom = try #require(try Self.chromium(["--dump-dom", url], root: e.sandbox.root), "chromium hung")
        #expect(dom.status == 0, "\(dom.stderr.suffix(500))")
        let html = dom.stdout
        #expect(html.contains("<h1>Usage headroom</h1>"), "\(html.prefix(300))")
        // One meter per window, with the numbers the stand-in answered.
        #expect(html.components(separatedBy: "role=\"meter\"").count - 1 == 2)
        #expect(html.contains("aria-valuenow=\"37\""))
        #expect(html.contains("aria-valuenow=\"59\""))
        #expect(html.contains("data-left=\"37\">37% left</span>"))
        #expect(html.contains("data-left=\"59\">59% left</span>"))
        #expect(html.contains("aria-valuetext=\"37% left, resets in 1h59m, level ok\"")
                || html.contains("aria-valuetext=\"37% left, resets in 2h, level ok\""), "\(html)")
        #expect(html.contains("<h3>Last 24 hours</h3>") && html.contains("<h3>Last 7 days</h3>"))
        #expect(html.contains("<h3>Last 90 days, each day&#39;s peak</h3>") || html.contains("<h3>Last 90 days, each day's peak</h3>"), "the daily summaries' chart")
        #expect(html.components(separatedBy: "<polyline class=\"series").count > 4, "the charts have lines")
        #expect(html.contains("class=\"reset\""), "resets are marked")

        let shot = e.sandbox.root + "/dashboard.png"
        let taken = try #require(try Self.chromium(["--screenshot=" + shot, "--window-size=1100,1000", "--hide-scrollbars", url],
                                                   root: e.sandbox.root), "chromium hung")
        #expect(taken.status == 0, "\(taken.stderr.suffix(500))")
        let light = try Self.colours(shot, root: e.sandbox.root)
        #expect(light.distinct >= 8, "a blank page has one or two colours; this one has \(light.distinct)")
        #expect(light.corner > 200, "a light system theme gets a light page")
        // A dark system theme (prefers-color-scheme: dark) gets a dark page, just as full.
        let darkShot = e.sandbox.root + "/dashboard-dark.png"
        _ = try Self.chromium(["--force-dark-mode", "--screenshot=" + darkShot, "--window-size=1100,1000", "--hide-scrollbars", url],
                              root: e.sandbox.root)
        let dark = try Self.colours(darkShot, root: e.sandbox.root)
        #expect(dark.distinct >= 8 && dark.corner < 60, "\(dark)")
        // ELBOWROOM_SCREENSHOT_DIR=docs/images: the README's picture (the gauges and the day).
        if let keep = ProcessInfo.processInfo.environment["ELBOWROOM_SCREENSHOT_DIR"] {
            _ = try Self.chromium(["--screenshot=" + keep + "/dashboard.png", "--window-size=1000,640", "--hide-scrollbars", url],
                                  root: e.sandbox.root)
            _ = try Self.chromium(["--force-dark-mode", "--screenshot=" + keep + "/dashboard-full-dark.png", "--window-size=1000,1500",
                                   "--hide-scrollbars", url], root: e.sandbox.root)
        }
        #expect(serve.stop()?.status == 0)
    }

    /// Chromium's own record of every request it made (its net log): the page asks for nothing
    /// but itself — no font, script, image or icon from anywhere, its own origin included.
    @Test(.enabled(if: available, "needs chromium (Debian: chromium) and python3"))
    func noRequestLeavesThePagesOrigin() throws {
        let (e, serve) = try Self.serving()
        let origin = "http://127.0.0.1:\(serve.port)"
        let log = e.sandbox.root + "/netlog.json"
        let run = try #require(try Self.chromium(["--log-net-log=" + log, "--net-log-capture-mode=Default",
                                                  "--dump-dom", origin + "/"], root: e.sandbox.root), "chromium hung")
        #expect(run.status == 0)
        #expect(run.stdout.contains("role=\"meter\""))
        // Every request the page made: the net log's request starts whose isolation key is the
        // page's site (Chromium's own traffic — its updater, its clock — has another or none).
        let script = """
            import json, sys
            log = json.load(open(sys.argv[1]))
            names = {v: k for k, v in log['constants']['logEventTypes'].items()}
            for event in log['events']:
                params = event.get('params', {})
                if names.get(event['type']) == 'URL_REQUEST_START_JOB' and '127.0.0.1' in params.get('network_isolation_key', ''):
                    print(params['url'])
            """
        try script.write(toFile: e.sandbox.root + "/netlog.py", atomically: true, encoding: .utf8)
        let listed = try #require(try runBounded("/usr/bin/python3", [e.sandbox.root + "/netlog.py", log], environment: [:], seconds: 30))
        let urls = listed.stdout.split(separator: "\n").map(String.init)
        #expect(urls == [origin + "/"], "the page asked for more than itself: \(urls)")
        // And the page names no other place at all.
        #expect(!run.stdout.contains("://"), "a URL in the page")
        #expect(serve.stop()?.status == 0)
    }

    /// A hostile account label reaches the browser as text: no element, no handler, no request.
    @Test(.enabled(if: available, "needs chromium (Debian: chromium) and python3"))
    func aHostileLabelIsTextInTheBrowser() throws {
        let e = try EndToEnd()
        let label = "<img src=x onerror=alert(1)><b>W</b>"
        try e.sandbox.writeConfig("timeout = 3\n[accounts.work]\nlabel = \"\(label)\"\nclaude_config_dir = \"\(e.sandbox.claudeConfigDir)\"\n")
        let serve = try ServeProcess(elbowroom: e.elbowroom, environment: e.sandbox.environment)
        _ = try RawHTTP.get(port: serve.port, "/v1/usage")
        try #require(Eventually.within(15) { ((try? RawHTTP.get(port: serve.port, "/"))?.body ?? "").contains("role=\"meter\"") },
                     "no data reached the page")
        let origin = "http://127.0.0.1:\(serve.port)"
        let log = e.sandbox.root + "/netlog.json"
        let dom = try #require(try Self.chromium(["--log-net-log=" + log, "--dump-dom", origin + "/"], root: e.sandbox.root))
        #expect(dom.status == 0)
        #expect(dom.stdout.contains("&lt;img src=x onerror=alert(1)&gt;&lt;b&gt;W&lt;/b&gt;</h2>"), "\(dom.stdout.prefix(2000))")
        #expect(!dom.stdout.contains("<img") && !dom.stdout.contains("<b>"))
        // The browser asked for nothing the label names (no x).
        #expect(!(try String(contentsOfFile: log, encoding: .utf8)).contains(origin + "/x"))
        #expect(serve.stop()?.status == 0)
    }

    /// Distinct RGB colours in a PNG (python3's zlib: 8-bit RGB or RGBA, every filter type), and
    /// the brightness (0-255) of the background near its top left corner.
    static func colours(_ png: String, root: String) throws -> (distinct: Int, corner: Int) {
        let script = """
            import sys, zlib, struct
            data = open(sys.argv[1], 'rb').read()
            assert data[:8] == b'\\x89PNG\\r\\n\\x1a\\n'
            pos, idat = 8, b''
            while pos < len(data):
                length, kind = struct.unpack('>I4s', data[pos:pos + 8])
                body = data[pos + 8:pos + 8 + length]
                if kind == b'IHDR':
                    width, height, depth, ctype = struct.unpack('>IIBB', body[:10])
                elif kind == b'IDAT':
                    idat += body
                pos += 12 + length
            assert depth == 8 and ctype in (2, 6), (depth, ctype)
            bpp = 3 if ctype == 2 else 4
            raw = zlib.decompress(idat)
            stride = width * bpp
            prev = bytearray(stride)
            colours = set()
            i = 0
            for y in range(height):
                f = raw[i]; line = bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
                for x in range(stride):
                    a = line[x - bpp] if x >= bpp else 0
                    b = prev[x]
                    c = prev[x - bpp] if x >= bpp else 0
                    if f == 1: line[x] = (line[x] + a) & 255
                    elif f == 2: line[x] = (line[x] + b) & 255
                    elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
                    elif f == 4:
                        p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                        line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
                for x in range(0, stride, bpp):
                    colours.add(bytes(line[x:x + 3]))
                prev = line
                if y == 5:
                    corner = bytes(line[5 * bpp:5 * bpp + 3])
            print(len(colours), sum(corner) // 3)
            """
        try script.write(toFile: root + "/colours.py", atomically: true, encoding: .utf8)
        let run = try #require(try runBounded("/usr/bin/python3", [root + "/colours.py", png], environment: [:], seconds: 60))
        let numbers = run.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        return (numbers.first ?? 0, numbers.count > 1 ? numbers[1] : -1)
    }
}
