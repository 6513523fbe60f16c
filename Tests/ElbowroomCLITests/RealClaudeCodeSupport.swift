import Foundation
import ElbowroomTestSupport
import Testing

/// The real Claude Code binary, for the tests that drive it: the native `claude` of the PyPI wheel
/// `claude-agent-sdk` (`claude_agent_sdk/_bundled/claude`). `.ci/run` fetches it once and exports
/// `ELBOWROOM_CLAUDE_BIN`; without the variable, `$XDG_CACHE_HOME/elbowroom-ci/claude` (or
/// `~/.cache/elbowroom-ci/claude`) is used when it is there. See docs/development.md.
enum RealClaudeCode {
    static let variable = "ELBOWROOM_CLAUDE_BIN"

    /// Where the binary is, or `nil` when it cannot be had. A set variable is taken as it is: a
    /// path that does not run then fails the tests instead of skipping them.
    static let binary: String? = {
        let env = ProcessInfo.processInfo.environment
        if let set = env[variable], !set.isEmpty { return set }
        let cache = env["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (env["HOME"] ?? NSHomeDirectory()) + "/.cache"
        let cached = cache + "/elbowroom-ci/claude"
        return FileManager.default.isExecutableFile(atPath: cached) ? cached : nil
    }()

    static let python: String? = ["/usr/bin/python3", "/usr/local/bin/python3"]
        .first { FileManager.default.isExecutableFile(atPath: $0) } ?? onPath("python3")
    static let openssl: String? = ["/usr/bin/openssl"].first { FileManager.default.isExecutableFile(atPath: $0) } ?? onPath("openssl")

    static var available: Bool { binary != nil && python != nil && openssl != nil && TmuxScreen.available }

    static let skipMessage: Comment = """
        the real Claude Code binary is not available: set \(variable) to the `claude` of the PyPI wheel \
        claude-agent-sdk (claude_agent_sdk/_bundled/claude; .ci/run fetches it), and install python3, \
        openssl and tmux
        """

    static func onPath(_ name: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static let standinScript = ShippedFiles.path("Tests/RealClaudeCode/standin.py")
}

/// One request the stand-in received (see Tests/RealClaudeCode/standin.py).
struct StandinRequest {
    /// "http" (the plain loopback port), "proxy" (inside a CONNECT tunnel) or "proxied".
    var port: String
    var host: String
    var method: String
    var path: String
    var headers: [String: String]
    var body: String
    var status: Int
    var time: Double

    var bearer: String? {
        headers["authorization"].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
    }
    var json: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
    }
    var isTokenRequest: Bool { method == "POST" && path.hasPrefix("/v1/oauth/token") }
    var isMessages: Bool { method == "POST" && (path == "/v1/messages" || path.hasPrefix("/v1/messages?")) }
    /// Claude Code's own token requests reach the real host through the proxy; elbowroom's come
    /// to the plain port (`ELBOWROOM_TOKEN_URL`).
    var fromClaudeCode: Bool { port == "proxy" }
}

/// The Python stand-in for Anthropic: a Messages API on a plain loopback port and an HTTPS proxy
/// that terminates TLS for api.anthropic.com and platform.claude.com with a test CA, one token
/// state behind both. Killed when the test ends (and it exits by itself when the test process
/// is gone).
final class Standin: @unchecked Sendable {
    let directory: String
    let httpPort: Int
    let proxyPort: Int
    let caFile: String
    private let process: Process

    init(directory: String, accessToken: String, refreshToken: String) throws {
        self.directory = directory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let python = try #require(RealClaudeCode.python)
        let process = Process()
        self.process = process
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [RealClaudeCode.standinScript, directory, "--access", accessToken, "--refresh", refreshToken]
        var env = ["PATH": "/usr/bin:/bin:/usr/local/bin"]
        if let openssl = RealClaudeCode.openssl {
            env["PATH"] = URL(fileURLWithPath: openssl).deletingLastPathComponent().path + ":" + env["PATH"]!
        }
        process.environment = env
        process.standardInput = FileHandle.nullDevice
        _ = FileManager.default.createFile(atPath: directory + "/standin.log", contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: directory + "/standin.log"))
        process.standardOutput = log
        process.standardError = log
        try process.run()
        try? log.close()
        let portsFile = directory + "/ports.json"
        guard Eventually.within(15, { FileManager.default.fileExists(atPath: portsFile) || !process.isRunning }),
              let data = FileManager.default.contents(atPath: portsFile),
              let ports = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
              let http = ports["http"] as? Int, let proxy = ports["proxy"] as? Int, let ca = ports["ca"] as? String
        else {
            let log = (try? String(contentsOfFile: directory + "/standin.log", encoding: .utf8)) ?? ""
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            throw HarnessFailure("the stand-in did not start: \(log)")
        }
        httpPort = http
        proxyPort = proxy
        caFile = ca
    }

    deinit { stop() }

    func stop() {
        // SIGKILL: a child of the test runner may inherit a mask that blocks SIGTERM.
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    var baseURL: String { "http://127.0.0.1:\(httpPort)" }

    /// Replaces DIR/config.json (read again on every request): `ratelimit`, `reply`, `usage`,
    /// `expires_in`, `token_delay`.
    func configure(_ config: [String: Any]) throws {
        let data = try JSONSerialization.data(withJSONObject: config)
        let tmp = directory + "/config.json.tmp"
        try data.write(to: URL(fileURLWithPath: tmp))
        guard rename(tmp, directory + "/config.json") == 0 else { throw HarnessFailure("rename failed") }
    }

    /// `anthropic-ratelimit-unified-*` headers for windows used `fiveHour` and `sevenDay` (0-1),
    /// resetting in an hour and in three days.
    static func rateLimitHeaders(fiveHour: Double, sevenDay: Double, now: Date = Date()) -> [String: String] {
        let now = Int(now.timeIntervalSince1970)
        return [
            "status": "allowed", "representative-claim": "five_hour",
            "reset": "\(now + 3600)",
            "5h-utilization": "\(fiveHour)", "5h-reset": "\(now + 3600)", "5h-status": "allowed",
            "7d-utilization": "\(sevenDay)", "7d-reset": "\(now + 3 * 86400)", "7d-status": "allowed",
            "overage-status": "rejected", "overage-disabled-reason": "org_level_disabled",
        ]
    }

    /// Every request so far, in the order they were answered.
    func requests() -> [StandinRequest] { read("requests.jsonl") }

    /// Every request so far as it arrived, before it was answered (no body, headers or status).
    func arrivals() -> [StandinRequest] { read("arrivals.jsonl") }

    private func read(_ name: String) -> [StandinRequest] {
        guard let data = FileManager.default.contents(atPath: directory + "/" + name) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            guard let e = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else { return nil }
            return StandinRequest(
                port: e["port"] as? String ?? "", host: e["host"] as? String ?? "", method: e["method"] as? String ?? "",
                path: e["path"] as? String ?? "", headers: e["headers"] as? [String: String] ?? [:],
                body: e["body"] as? String ?? "", status: e["status"] as? Int ?? 0, time: e["t"] as? Double ?? 0)
        }
    }

    var tokenRequests: [StandinRequest] { requests().filter(\.isTokenRequest) }
    var messagesRequests: [StandinRequest] { requests().filter(\.isMessages) }

    /// The tokens the stand-in holds valid now (the last issued).
    var currentTokens: (access: String, refresh: String) {
        let data = FileManager.default.contents(atPath: directory + "/tokens.json") ?? Data()
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return (object["access"] as? String ?? "", object["refresh"] as? String ?? "")
    }

    /// The text of every message of each Messages request (what Claude Code sent: the prompt,
    /// and what it attaches, hooks' output included, which 2.1.331 sends as a `system` message),
    /// one string per request.
    func sentTexts() -> [String] {
        messagesRequests.map { request in
            let messages = request.json?["messages"] as? [[String: Any]] ?? []
            return messages.flatMap { message -> [String] in
                if let text = message["content"] as? String { return [text] }
                return (message["content"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
            }.joined(separator: "\n")
        }
    }
}

/// The real Claude Code, interactive in a private tmux, in a throwaway HOME (`CLAUDE_CONFIG_DIR`
/// set), signed in with the stand-in's tokens, onboarding and workspace trust done, talking only
/// to the stand-in.
final class ClaudeSession: @unchecked Sendable {
    let sandbox: Sandbox
    let standin: Standin
    let screen = TmuxScreen()
    let project: String
    let temporaryDirectory: String
    let elbowroom: String
    let fetcher: String
    let claude: String
    static let accountUUID = "8f8a3b1e-0000-4000-8000-standin00001"
    static let organizationUUID = "0d1e2f3a-0000-4000-8000-standin00002"
    static let initialAccess = "sk-ant-oat01-standin-access-0-initial000000"
    static let initialRefresh = "sk-ant-ort01-standin-refresh-0-initial000000"

    /// - Parameters:
    ///   - expiresIn: the stored access token's lifetime when Claude Code starts (more than
    ///     5 minutes, or Claude Code refreshes at once).
    ///   - settings: `$CLAUDE_CONFIG_DIR/settings.json` (`statusLine`, `hooks`, …).
    init(expiresIn: TimeInterval = 4 * 3600, settings: [String: Any] = [:]) throws {
        claude = try #require(RealClaudeCode.binary, RealClaudeCode.skipMessage)
        try #require(FileManager.default.isExecutableFile(atPath: claude), "\(RealClaudeCode.variable)=\(claude) is not an executable")
        elbowroom = try #require(BuiltExecutable.path("elbowroom"), "build the package first")
        fetcher = try #require(BuiltExecutable.path("elbowroom-fetch"))
        sandbox = try Sandbox()
        // The sandbox under /tmp may be reached through a symlink: trust is keyed by the real path.
        let root = URL(fileURLWithPath: sandbox.root).resolvingSymlinksInPath().path
        project = root + "/project"
        try FileManager.default.createDirectory(atPath: project, withIntermediateDirectories: true)
        temporaryDirectory = root + "/tmp"
        try FileManager.default.createDirectory(atPath: temporaryDirectory, withIntermediateDirectories: true)
        standin = try Standin(directory: root + "/standin", accessToken: Self.initialAccess, refreshToken: Self.initialRefresh)
        try standin.configure(["ratelimit": Standin.rateLimitHeaders(fiveHour: 0.1, sevenDay: 0.1)])
        try writeCredentials(accessToken: Self.initialAccess, refreshToken: Self.initialRefresh,
                             expiresAt: Date().addingTimeInterval(expiresIn))
        let global: [String: Any] = [
            "hasCompletedOnboarding": true, "lastOnboardingVersion": "2.1.331", "theme": "dark",
            "fullscreenUpsellSeenCount": 3, "hasSeenAutoDefaultNotice": true,
            "hasResetAutoModeOptInForDefaultOffer": true,
            "oauthAccount": ["accountUuid": Self.accountUUID, "emailAddress": "standin@example.com",
                             "organizationUuid": Self.organizationUUID],
            "projects": [project: ["hasTrustDialogAccepted": true]],
        ]
        try JSONSerialization.data(withJSONObject: global)
            .write(to: URL(fileURLWithPath: sandbox.claudeConfigDir + "/.claude.json"))
        try JSONSerialization.data(withJSONObject: settings)
            .write(to: URL(fileURLWithPath: sandbox.claudeConfigDir + "/settings.json"))
        // elbowroom, wherever it runs (the status line, `elbowroom fetch`), talks to the stand-in's
        // plain port; the token state is the one Claude Code reaches through the proxy.
        sandbox.extra = [
            "ELBOWROOM_API_URL": standin.baseURL,
            "ELBOWROOM_TOKEN_URL": standin.baseURL + "/v1/oauth/token",
            "ELBOWROOM_FETCH": fetcher,
            "PATH": URL(fileURLWithPath: elbowroom).deletingLastPathComponent().path + ":/usr/bin:/bin",
        ]
        try sandbox.writeConfig("timeout = 5\n")
    }

    deinit {
        _ = try? screen.tmux(["kill-server"])
        standin.stop()
        sandbox.cleanup()
    }

    /// Claude Code's environment: the sandbox's, the stand-in's addresses, no telemetry.
    var claudeEnvironment: [String: String] {
        sandbox.environment.merging([
            "TERM": "xterm-256color",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_AUTOUPDATER": "1",
            "ANTHROPIC_BASE_URL": standin.baseURL,
            "HTTPS_PROXY": "http://127.0.0.1:\(standin.proxyPort)",
            "NO_PROXY": "127.0.0.1,localhost",
            "NODE_EXTRA_CA_CERTS": standin.caFile,
            // Its scratch directories (`$TMPDIR/claude-<uid>/…`) go with the sandbox.
            "TMPDIR": temporaryDirectory,
        ]) { $1 }
    }

    /// Starts Claude Code and waits until it is ready: its prompt is on screen, its start-up
    /// Messages request (which brings the rate-limit headers) has been answered, and it has done
    /// writing the credentials file (2.1.331 rewrites it once at start-up, after its profile
    /// request: a test that changes the file before then would see its change undone).
    /// `arguments` go to Claude Code (`--mcp-config FILE`, …).
    func start(arguments: [String] = []) throws {
        let env = claudeEnvironment.sorted { $0.key < $1.key }.map { "\($0.key)=\(EndToEnd.quote($0.value))" }
        let command = "cd \(EndToEnd.quote(project)) && exec env -i \(env.joined(separator: " ")) \(EndToEnd.quote(claude))"
            + arguments.map { " " + EndToEnd.quote($0) }.joined()
        let written = credentialsModified()
        try screen.start(command, width: 120, height: 30)
        var settledSince = Date()
        var lastModified = written
        var answeredAt: Date?
        let ready = Eventually.within(40) {
            let modified = credentialsModified()
            if modified != lastModified { lastModified = modified; settledSince = Date() }
            guard ((try? screen.screen()) ?? "").contains("❯"), !standin.messagesRequests.isEmpty else { return false }
            let answered = answeredAt ?? Date()
            answeredAt = answered
            // Written and quiet for a second; or, should a version not write it, 3 s after the answer.
            return modified != written ? Date().timeIntervalSince(settledSince) > 1 : Date().timeIntervalSince(answered) > 3
        }
        guard ready else {
            throw HarnessFailure("Claude Code did not start:\n\(snapshot())")
        }
    }

    /// Types `text` at Claude Code's prompt and sends it.
    func send(_ text: String) throws {
        try screen.tmux(["send-keys", "-t", "t", "-l", text])
        usleep(300_000)
        try screen.keys("Enter")
    }

    func screenText() -> String { (try? screen.screen()) ?? "" }

    func waitForScreen(_ text: String, seconds: TimeInterval = 20) -> Bool {
        Eventually.within(seconds) { screenText().contains(text) }
    }

    /// The screen and what the stand-in saw, for a failure message (tokens are the stand-in's).
    func snapshot() -> String {
        let requests = standin.requests().map { request in
            "\(request.port) \(request.method) \(request.host)\(request.path.prefix(80)) → \(request.status)"
                + (request.bearer.map { " (bearer …\($0.suffix(12)), \(request.headers["user-agent"] ?? ""))" } ?? "")
        }
        return "screen:\n\(screenText())\nrequests:\n\(requests.joined(separator: "\n"))"
    }

    /// Settings that run `command` as a Claude Code hook on `event` (`UserPromptSubmit`,
    /// `SessionStart`, …); merge into the `settings` of `init`.
    static func hookSettings(event: String, command: String) -> [String: Any] {
        ["hooks": [event: [["hooks": [["type": "command", "command": command]]]]]]
    }

    // MARK: Credentials

    /// D: where Claude Code keeps its credentials and refresh locks (`CLAUDE_CONFIG_DIR` here).
    var credentialsDirectory: String { sandbox.claudeConfigDir }

    func writeCredentials(accessToken: String, refreshToken: String, expiresAt: Date) throws {
        let document: [String: Any] = [
            "claudeAiOauth": [
                "accessToken": accessToken, "refreshToken": refreshToken,
                "expiresAt": Int64(expiresAt.timeIntervalSince1970 * 1000),
                "scopes": ["user:inference", "user:profile", "user:sessions:claude_code"],
                "subscriptionType": "max", "rateLimitTier": "default_claude_max_20x",
            ],
            "mcpOAuth": ["kept|1": ["serverName": "kept", "accessToken": "mcp-x", "expiresAt": 0]],
        ]
        try replaceCredentials(document)
    }

    private func credentialsModified() -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: sandbox.credentialsFile))?[.modificationDate] as? Date
    }

    func credentials() -> [String: Any] {
        sandbox.credentialsObject()?["claudeAiOauth"] as? [String: Any] ?? [:]
    }

    /// Moves the stored token's expiry (as time passing would), the tokens unchanged: written as
    /// Claude Code writes (temp file, rename), so a running Claude Code sees the new mtime.
    func setExpiry(_ expiresAt: Date) throws {
        var document = sandbox.credentialsObject() ?? [:]
        var oauth = document["claudeAiOauth"] as? [String: Any] ?? [:]
        oauth["expiresAt"] = Int64(expiresAt.timeIntervalSince1970 * 1000)
        document["claudeAiOauth"] = oauth
        try replaceCredentials(document)
    }

    private func replaceCredentials(_ document: [String: Any]) throws {
        let tmp = sandbox.credentialsFile + ".test-tmp"
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: tmp))
        chmod(tmp, 0o600)
        guard rename(tmp, sandbox.credentialsFile) == 0 else { throw HarnessFailure("rename failed") }
    }

    // MARK: elbowroom

    /// Runs the built `elbowroom` in the sandbox (the same environment as Claude Code's status
    /// line gets), killed after `seconds`.
    func runElbowroom(_ arguments: [String], seconds: TimeInterval = 30) throws -> BoundedRun {
        try BoundedRun.run(elbowroom, arguments, environment: sandbox.environment, seconds: seconds)
    }
}

struct HarnessFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Holds a lock directory of Claude Code's as a live holder does: touched every 2 s (Claude Code
/// counts one untouched for 60 s as stale) until `release()` removes it.
final class LockHolder: @unchecked Sendable {
    let path: String
    private let done = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private var released = false

    init(path: String) {
        self.path = path
        let done = done, finished = finished
        Thread.detachNewThread {
            while done.wait(timeout: .now() + 2) == .timedOut {
                utimes(path, nil)
            }
            finished.signal()
        }
    }

    func release() {
        guard !released else { return }
        released = true
        done.signal()
        finished.wait()
        rmdir(path)
    }

    deinit { release() }
}
