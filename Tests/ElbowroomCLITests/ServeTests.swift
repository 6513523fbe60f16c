import Foundation
import Testing
import ElbowroomCore
import ElbowroomTestSupport
@testable import ElbowroomCLI

/// `elbowroom serve`: the built executable on a loopback port, against the fake Anthropic.
@Suite(.serialized) struct ServeTests {
    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("elbowroom_data_age_seconds ") }
    }

    @Test func itAnswersWhatTheAdaptersPrintAndNeverAToken() throws {
        let e = try EndToEnd()
        try e.seedCache(fiveHour: 63, age: 5)
        let serve = try ServeProcess(elbowroom: e.elbowroom, environment: e.sandbox.environment)
        let metrics = try RawHTTP.get(port: serve.port, "/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.head.contains("Content-Type: text/plain; version=0.0.4"))
        let printed = try e.run(["-a", "prometheus", "--offline"])
        #expect(Self.lines(metrics.body) == Self.lines(printed.stdout))
        #expect(metrics.body.contains("elbowroom_window_left_percent{window=\"five_hour\"} 37\n"))
        let usage = try RawHTTP.get(port: serve.port, "/v1/usage?pretty=no")
        #expect(usage.status == 200 && usage.head.contains("Content-Type: application/json"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(usage.body.utf8)) as? [String: Any])
        let windows = try #require(object["windows"] as? [[String: Any]])
        #expect(windows.first?["left"] as? Double == 37, "\(usage.body)")
        let health = try RawHTTP.get(port: serve.port, "/healthz")
        #expect(health.status == 200 && health.body == "ok\n")
        let head = try RawHTTP.request(port: serve.port, "HEAD /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        #expect(head.status == 200 && head.body.isEmpty)
        for text in [metrics.head + metrics.body, usage.head + usage.body, serve.stderrSoFar] {
            #expect(!text.contains(e.anthropic.validAccessToken) && !text.contains(e.anthropic.validRefreshToken))
        }
        #expect(e.usageRequests == 0, "fresh data: no fetch")
        let stopped = try #require(serve.stop(), "serve did not stop on SIGTERM")
        #expect(stopped.status == 0)
        #expect(stopped.stderr.hasSuffix("elbowroom: serve: stopped\n"), "\(stopped.stderr)")
    }

    @Test func anythingElseGetsAProperStatus() throws {
        let e = try EndToEnd()
        let serve = try ServeProcess(elbowroom: e.elbowroom, environment: e.sandbox.environment, arguments: ["--offline"])
        let post = try RawHTTP.request(port: serve.port, "POST /metrics HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\r\nhi")
        #expect(post.status == 405 && post.head.contains("Allow: GET, HEAD"))
        #expect(try RawHTTP.get(port: serve.port, "/index.html").status == 404)
        #expect(try RawHTTP.get(port: serve.port, "/metrics/../etc/passwd").status == 404)
        #expect(try RawHTTP.request(port: serve.port, "garbage\r\n\r\n").status == 400)
        #expect(try RawHTTP.request(port: serve.port, "GET /metrics HTTP/2.0\r\n\r\n").status == 505)
        #expect(try RawHTTP.request(port: serve.port, "GET /metrics HTTP/1.1\r\nX: " + String(repeating: "a", count: 9000) + "\r\n\r\n").status == 431)
        #expect(try RawHTTP.request(port: serve.port, "GET /metrics HTTP/1.1\r\nX: " + String(repeating: "a", count: 20000)).status == 431,
                "a head that never ends is cut off at the cap")
        // Keep-alive: two requests on one connection, both answered.
        let fd = try RawHTTP.connect(port: serve.port)
        RawHTTP.send(fd, "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\nGET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        let both = RawHTTP.readAll(fd).text
        close(fd)
        #expect(both.components(separatedBy: "HTTP/1.1 200 OK").count == 3, "\(both)")
        #expect(serve.stop()?.status == 0)
    }

    @Test func slowAndSilentClientsDoNotBlockANormalRequestAndAreCutOff() throws {
        let e = try EndToEnd()
        try e.seedCache(fiveHour: 20, age: 5)
        let serve = try ServeProcess(elbowroom: e.elbowroom, environment: e.sandbox.environment, arguments: ["--offline"])
        var held: [Int32] = []
        defer { held.forEach { close($0) } }
        for i in 0..<60 {
            let fd = try RawHTTP.connect(port: serve.port, receiveTimeout: 10)
            if i % 2 == 0 { RawHTTP.send(fd, "GET /metr") }  // half a request line, then nothing
            held.append(fd)
        }
        let started = Date()
        let normal = try RawHTTP.get(port: serve.port, "/metrics")
        #expect(normal.status == 200)
        #expect(Date().timeIntervalSince(started) < 1, "a normal request waited behind slow clients")
        // Each held connection is closed by its deadline (5 s), not kept for ever.
        let cut = RawHTTP.readAll(held[0])
        #expect(!cut.timedOut, "a slow client kept its connection past the deadline")
        #expect(Date().timeIntervalSince(started) < 8)
        #expect(serve.stop()?.status == 0)
    }

    /// With every connection taken by silent clients, a new one replaces the one that has waited
    /// longest for its request: a normal request is answered at once, not after the deadline.
    @Test func silentClientsFillingEverySlotDoNotKeepANormalRequestOut() throws {
        var limits = HTTPServer.Limits()
        limits.maxConnections = 8
        let server = try HTTPServer(address: try ListenAddress.parse("127.0.0.1:0"), limits: limits) { _ in
            HTTPResponse(status: 200, body: "fine\n")
        }
        var wake: [Int32] = [-1, -1]
        #expect(pipe(&wake) == 0)
        let box = UncheckedSendable(server)
        let stopFD = wake[0]
        let thread = Thread { box.value.run(stopFD: stopFD) }
        thread.start()
        defer {
            var byte: UInt8 = 1
            _ = write(wake[1], &byte, 1)
            usleep(100_000)
            close(wake[0]); close(wake[1])
        }
        var held: [Int32] = []
        defer { held.forEach { close($0) } }
        for _ in 0..<8 {
            let fd = try RawHTTP.connect(port: server.port, receiveTimeout: 10)
            RawHTTP.send(fd, "GET /")
            held.append(fd)
        }
        usleep(200_000)
        let started = Date()
        let normal = try RawHTTP.get(port: server.port, "/healthz")
        #expect(normal.status == 200 && normal.body == "fine\n")
        #expect(Date().timeIntervalSince(started) < 1, "a normal request waited for a slot")
        #expect(!RawHTTP.readAll(held[0]).timedOut, "the longest-waiting silent client was not the one closed")
    }

    @Test func anyNumberOfScrapersStartOneFetch() throws {
        let e = try EndToEnd()
        try e.seedCache(fiveHour: 20, age: 600)
        let serve = try ServeProcess(elbowroom: e.elbowroom, environment: e.sandbox.environment)
        for _ in 0..<40 { #expect(try RawHTTP.get(port: serve.port, "/metrics").status == 200) }
        let deadline = Date().addingTimeInterval(10)
        while e.usageRequests == 0 && Date() < deadline { usleep(50_000) }
        usleep(1_500_000)
        for _ in 0..<40 { _ = try RawHTTP.get(port: serve.port, "/v1/usage") }
        usleep(500_000)
        #expect(e.usageRequests == 1, "\(e.usageRequests) usage requests for 80 scrapes")
        let metrics = try RawHTTP.get(port: serve.port, "/metrics")
        #expect(metrics.body.contains("elbowroom_window_left_percent{window=\"five_hour\"} 37\n"), "the fetched data is served")
        #expect(serve.stop()?.status == 0)
    }

    @Test func listenTakesAnAddressAndPortAndDefaultsToLoopback() throws {
        #expect(ListenAddress.loopback.description == "127.0.0.1:9478")
        #expect(ListenAddress.loopback.isLoopback)
        #expect(try ListenAddress.parse("0.0.0.0:9100") == ListenAddress(host: "0.0.0.0", port: 9100, isIPv6: false))
        #expect(try !ListenAddress.parse("0.0.0.0:9100").isLoopback)
        #expect(try ListenAddress.parse("[::1]:0") == ListenAddress(host: "::1", port: 0, isIPv6: true))
        for bad in ["9478", ":9478", "localhost:9478", "127.0.0.1:", "127.0.0.1:70000", "[::1:80", "1.2.3:80"] {
            #expect(throws: UsageError.self, "\(bad)") { try ListenAddress.parse(bad) }
        }
        let s = CLISandbox()
        #expect(s.run("serve", "--listen", "localhost:80") == 2)
        #expect(s.stderr.text.contains("--listen takes ADDR:PORT"))
    }
}

final class UncheckedSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

/// The snippets `init serve` and `init node-exporter` print, run as they are.
@Suite struct ProgramSnippetTests {
    @Test func initServeRunsServeOnLoopbackOnTheDocumentedPort() throws {
        let text = try #require(IntegrationSnippets.snippet(named: "serve"))
        #expect(text.contains("ExecStart=elbowroom serve --listen 127.0.0.1:\(ListenAddress.defaultPort)\n"))
        #expect(text.contains("[Install]\nWantedBy=default.target"))
        #expect(text.contains("targets: [\"127.0.0.1:\(ListenAddress.defaultPort)\"]"))
    }

    /// Every snippet says what it sets up in a line of its own (the README's init table showed
    /// `{` for claude-hook, the first line of its JSON).
    @Test func everySnippetHasASummary() {
        for name in IntegrationSnippets.names {
            let summary = IntegrationSnippets.summary(of: name)
            #expect(!summary.isEmpty && !summary.hasPrefix("{") && !summary.hasPrefix("~"), "\(name): \(summary)")
        }
    }

    /// `init serve` names the elbowroom that ran it: in full outside the system PATH (it named
    /// `%h/.local/bin/elbowroom` wherever elbowroom was), bare on it (systemd finds it there).
    @Test func initServeNamesThisElbowroom() {
        let s = CLISandbox()
        #expect(FirstRunTests.run(s, own: "/opt/tools/bin/elbowroom", "init", "serve") == 0)
        #expect(s.stdout.text.contains("ExecStart=/opt/tools/bin/elbowroom serve --listen"), "\(s.stdout.text)")
        let t = CLISandbox()
        #expect(FirstRunTests.run(t, own: "/usr/local/bin/elbowroom", "init", "serve") == 0)
        #expect(t.stdout.text.contains("ExecStart=elbowroom serve --listen"), "\(t.stdout.text)")
    }

    /// The service's command, run by sh as systemd would: the .prom file appears whole, with the
    /// cache's numbers, and no temporary file is left beside it.
    @Test func initNodeExporterWritesTheTextfileAtomically() throws {
        let text = try #require(IntegrationSnippets.snippet(named: "node-exporter"))
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("ExecStart=/bin/sh -c '") })
        let command = String(line.dropFirst("ExecStart=/bin/sh -c '".count).dropLast())
        let e = try EndToEnd()
        try e.seedCache(fiveHour: 63, age: 5)
        let dir = e.sandbox.root + "/textfile"
        var environment = e.sandbox.environment
        environment["DIR"] = dir
        environment["PATH"] = URL(fileURLWithPath: e.elbowroom).deletingLastPathComponent().path + ":/usr/bin:/bin"
        let run = try BuiltExecutable.run("/bin/sh", arguments: ["-c", command], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["elbowroom.prom"])
        let prom = try String(contentsOfFile: dir + "/elbowroom.prom", encoding: .utf8)
        #expect(prom.contains("elbowroom_window_left_percent{window=\"five_hour\"} 37\n"))
        let mode = try FileManager.default.attributesOfItem(atPath: dir + "/elbowroom.prom")[.posixPermissions] as? Int
        #expect(mode == 0o644, "node_exporter may run as another user")
    }
}
