import ElbowroomCore
import ElbowroomAdapters

/// `elbowroom serve [--listen ADDR:PORT]`: a local HTTP endpoint for Prometheus and programs.
///
/// | path | answer |
/// |---|---|
/// | `GET /` | a dashboard page (`DashboardPage`) |
/// | `GET /metrics` | what `-a prometheus` prints (Prometheus text exposition) |
/// | `GET /v1/usage` | what `-a json` prints |
/// | `GET /healthz` | `ok` |
///
/// HEAD too; another method on these paths gets 405, another path 404 (`HTTPServer`: deadlines,
/// caps, at most 4,096 connections). It serves from the cache
/// and starts fetches as a render does (`FetchTrigger`: one in flight per account, every
/// politeness rule kept; and not again within 15 s of starting one, as `watch`), so any number
/// of scrapers cause no extra requests to Anthropic. Loopback on port 9478 unless `--listen`
/// says otherwise; SIGTERM, SIGINT or SIGHUP stop it (exit 0). Every request is checked for its
/// `Host` before any path (`HostCheck`: 421 for a name that is not this server's, against DNS
/// rebinding; `--allow-host NAME` adds one).
enum ServeCommand {
    static func run(listen: String?, allowHosts: [String] = [], invocation: Invocation, context: CLIContext) -> Int32 {
        let address: ListenAddress
        do {
            address = try listen.map { text throws(UsageError) in try ListenAddress.parse(text) } ?? .loopback
        } catch {
            context.stderr.write("elbowroom: \(error.description)\n")
            return 2
        }
        if let bad = allowHosts.first(where: { !HostCheck.validAllowEntry($0) }) {
            context.stderr.write("elbowroom: --allow-host takes a host name or address (with :PORT if you like), not '\(SafeText.clean(bad, lines: .join))'\n")
            return 2
        }
        do {
            _ = try Config.load(paths: context.paths)
        } catch {
            context.stderr.write("elbowroom: \(error.description)\n")
            return 2
        }
        var wake: [Int32] = [-1, -1]
        guard pipe(&wake) == 0 else {
            context.stderr.write("elbowroom: serve: pipe: \(HTTPServer.errorText())\n")
            return 1
        }
        for fd in wake { _ = fcntl(fd, F_SETFD, FD_CLOEXEC); HTTPServer.setNonBlocking(fd) }
        serveWakeFD = wake[1]
        installSignalHandlers()
        let content = ServeContent(context: context, offline: invocation.offline)
        let server: HTTPServer
        do {
            server = try HTTPServer(address: address, allowHosts: allowHosts) { content.respond($0) }
        } catch {
            context.stderr.write("elbowroom: serve: \(error.description)\n")
            return 1
        }
        var shown = address
        shown.port = server.port
        if let path = address.unixPath {
            context.stderr.write("elbowroom: serve: listening on \(shown), mode 0600 (curl --unix-socket \(path) http://localhost/metrics; GET / for a dashboard, /metrics, /v1/usage, /healthz)\n")
        } else {
            context.stderr.write("elbowroom: serve: listening on http://\(shown)/ (GET / for a dashboard, /metrics, /v1/usage, /healthz)\n")
        }
        if !address.isLoopback {
            context.stderr.write("elbowroom: serve: \(address.host) is reachable from other machines: anyone who can reach it sees this account's usage (never a token)\n")
        }
        server.run(stopFD: wake[0])
        context.stderr.write("elbowroom: serve: stopped\n")
        return 0
    }

    static func installSignalHandlers() {
        signal(SIGPIPE, SIG_IGN)
        for sig in [SIGTERM, SIGINT, SIGHUP] {
            WatchCommand.handle(sig) { _ in
                var byte: UInt8 = 1
                _ = write(serveWakeFD, &byte, 1)
            }
        }
        var handled = sigset_t()
        sigemptyset(&handled)
        for sig in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&handled, sig) }
        sigprocmask(SIG_UNBLOCK, &handled, nil)
    }
}

/// What `serve` answers, from the cache: each body (the dashboard too) computed at most once a
/// second, however many clients ask.
final class ServeContent {
    let context: CLIContext
    let offline: Bool
    static let reuseFor: Double = 1
    private var lastSpawn: Date?
    private var made: [(adapter: String, at: Double, response: HTTPResponse)] = []

    init(context: CLIContext, offline: Bool) {
        self.context = context
        self.offline = offline
    }

    static let paths = ["/", "/metrics", "/v1/usage", "/healthz"]

    func respond(_ request: HTTPRequestHead) -> HTTPResponse {
        guard Self.paths.contains(request.path) else {
            return HTTPResponse(status: 404, body: "not found: GET /, /metrics, /v1/usage or /healthz\n")
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            return HTTPResponse(status: 405, body: "GET or HEAD only\n", headers: "Allow: GET, HEAD\r\n")
        }
        switch request.path {
        case "/metrics": return body(adapter: "prometheus", contentType: "text/plain; version=0.0.4; charset=utf-8")
        case "/v1/usage": return body(adapter: "json", contentType: "application/json")
        case "/":
            _ = body(adapter: "json", contentType: "application/json")  // starts a due fetch, as for /v1/usage
            return reused("/") { dashboard() }
        default: return HTTPResponse(status: 200, body: "ok\n")
        }
    }

    private func body(adapter name: String, contentType: String) -> HTTPResponse {
        reused(name) {
            var response = render(adapter: name, contentType: contentType)
            // No path in what is served: they name the user and their files (`ServedText`). (The
            // dashboard's HTML is not text to scan: it takes each failure's text without its path.)
            response.body = ServedText.withoutPaths(response.body, home: context.environment.home)
            return response
        }
    }

    /// The answer named `name` made within the last `reuseFor` seconds, else `make`'s.
    private func reused(_ name: String, _ make: () -> HTTPResponse) -> HTTPResponse {
        let now = HTTPServer.now()
        if let kept = made.first(where: { $0.adapter == name }), now - kept.at < Self.reuseFor { return kept.response }
        let response = make()
        made.removeAll { $0.adapter == name }
        made.append((name, now, response))
        return response
    }

    func render(adapter name: String, contentType: String) -> HTTPResponse {
        var invocation = Invocation()
        invocation.adapter = name
        invocation.color = .never
        let setup: RenderSetup
        do {
            setup = try RenderSetup.make(invocation, context: context)
        } catch {
            let text = error.adapter?.renderError(error.short).text ?? error.short + "\n"
            return HTTPResponse(status: 500, contentType: contentType, body: text)
        }
        // Every account, else the environment's own (`AccountSelection`; serve takes no
        // --account): one is a list of one, served as a render shows it; several side by side
        // (the `account` label on every metric, the accounts array in the JSON).
        let selection: AccountSelection
        do {
            selection = try AccountSelection(choosing: nil, config: setup.config, context: context)
        } catch {
            return HTTPResponse(status: 500, contentType: contentType, body: setup.adapter.renderError(error.message).text)
        }
        // Fetches start under one respawn guard for the server (and at most `SpawnBudget.perPass`).
        let mayStart = !offline && (lastSpawn.map { context.now().timeIntervalSince($0) >= WatchedAccount.respawnGuard } ?? true)
        var parts = selection.parts.map { WatchedAccount($0, config: setup.config) }
        let pass = parts.read(mayStart: mayStart, waitForFirstRun: false, history: setup.readsHistory)
        if pass.refusal != nil {
            return HTTPResponse(status: 500, contentType: contentType, body: setup.adapter.renderError(RenderCommand.cacheRefused).text)
        }
        if pass.started { lastSpawn = context.now() }
        let frame = parts.frame(setup, now: context.now())
        return HTTPResponse(status: 200, contentType: contentType, body: setup.adapter.render(frame).text)
    }
}
