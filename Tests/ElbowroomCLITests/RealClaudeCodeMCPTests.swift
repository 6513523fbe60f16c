import Foundation
import ElbowroomCore
import ElbowroomTestSupport
import Testing

/// A real third-party status line from PyPI, as the user's own: `smoothline` (stdlib only),
/// installed by .ci/run into a venv of its own (`ELBOWROOM_STATUSLINE_BIN`), or found there.
enum UserStatusLine {
    static let variable = "ELBOWROOM_STATUSLINE_BIN"

    static let binary: String? = {
        let env = ProcessInfo.processInfo.environment
        if let set = env[variable], !set.isEmpty { return set }
        let cache = env["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (env["HOME"] ?? NSHomeDirectory()) + "/.cache"
        let cached = cache + "/elbowroom-ci/statusline-venv/bin/smoothline"
        return FileManager.default.isExecutableFile(atPath: cached) ? cached : nil
    }()

    static var available: Bool { binary != nil }

    static let skipMessage: Comment = """
        the PyPI status line smoothline is not installed: python3 -m venv ~/.cache/elbowroom-ci/statusline-venv \
        && ~/.cache/elbowroom-ci/statusline-venv/bin/pip install smoothline (.ci/run does), or set \(variable)
        """
}

/// The user's own status line from PyPI behind `--then`, without Claude Code: its output and
/// elbowroom's, from the same stdin.
@Suite(.enabled(if: UserStatusLine.available, UserStatusLine.skipMessage))
struct UserStatusLineTests {
    @Test func smoothlineRunsBehindThenOnTheSameStdin() throws {
        let e2e = try EndToEnd()
        let smoothline = try #require(UserStatusLine.binary)
        let run = try e2e.runBounded(["-a", "claude", "--offline", "--then", smoothline],
                                     stdin: StatusLineChainTests.payload(fiveHour: 29, sevenDay: 6))
        #expect(run.status == 0, "\(run.stderr)")
        let lines = StatusLineChainTests.visible(run.stdout)
        #expect(lines.count == 3, "\(lines)")
        // smoothline's two lines (user@host, the model; its bars of what is used), then elbowroom's.
        #expect(lines.first?.contains("tester@") == true && lines.first?.contains("Opus") == true, "\(lines)")
        #expect(lines.dropFirst().first?.contains("5h [") == true && lines.dropFirst().first?.contains("29%") == true, "\(lines)")
        #expect(lines.last == "Opus · 5h 71% · 7d 94%", "\(lines)")
    }
}

/// `elbowroom mcp` and `--then` in the real Claude Code (in RealClaudeCodeTests' suite: serialized
/// with its tests).
extension RealClaudeCodeTests {
    /// Claude Code starts `elbowroom mcp` from the `.mcp.json` form `elbowroom init mcp` prints
    /// (`--mcp-config`); the stand-in Messages API, asked how much is left, calls
    /// `mcp__elbowroom__get_headroom`; Claude Code calls the tool and sends its result back, with
    /// the numbers of the cache.
    @Test func claudeCodeCallsGetHeadroomAndSendsTheNumbersBack() throws {
        let elbowroom = try #require(BuiltExecutable.path("elbowroom"), "build the package first")
        let session = try ClaudeSession(settings: ["permissions": ["allow": ["mcp__elbowroom__get_headroom"]]])
        try Self.seed(session, fiveHour: 92, sevenDay: 41)

        // The .mcp.json line of `elbowroom init mcp`, as printed (it names this elbowroom in full).
        let snippet = try BuiltExecutable.run(elbowroom, arguments: ["init", "mcp"], environment: ["PATH": "/usr/bin:/bin"])
        let line = try #require(snippet.stdout.split(separator: "\n").first { $0.contains("\"mcpServers\"") }, "\(snippet.stdout)")
        let json = String(line.drop { $0 == "#" || $0 == " " })
        let config = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let server = (config["mcpServers"] as? [String: Any])?["elbowroom"] as? [String: Any]
        #expect(server?["command"] as? String == elbowroom && server?["args"] as? [String] == ["mcp"], "\(json)")
        let configFile = session.sandbox.root + "/mcp.json"
        try Data(json.utf8).write(to: URL(fileURLWithPath: configFile))

        try session.standin.configure([
            "ratelimit": Standin.rateLimitHeaders(fiveHour: 0.1, sevenDay: 0.1),
            // Claude Code defers MCP tools behind ToolSearch: the model loads the tool, then calls it.
            "tool_use": ["when": "headroom 4711", "steps": [
                ["name": "ToolSearch", "input": ["query": "select:mcp__elbowroom__get_headroom", "max_results": 1]],
                ["name": "mcp__elbowroom__get_headroom", "input": [:] as [String: Any]],
            ]],
            "reply": "Checked the headroom, 5150.",
        ])
        try session.start(arguments: ["--mcp-config", configFile])
        try session.send("how much headroom 4711?")
        #expect(session.waitForScreen("Checked the headroom, 5150.", seconds: 40), "\(session.snapshot())")

        // The tool was offered to the model, and its result came back in the next request.
        let offered = session.standin.messagesRequests.contains { request in
            (request.json?["tools"] as? [[String: Any]] ?? []).contains { $0["name"] as? String == "mcp__elbowroom__get_headroom" }
        }
        let toolNames = session.standin.messagesRequests.map { request in
            (request.json?["tools"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }.joined(separator: ",")
        }
        #expect(offered, "Claude Code did not offer the tool to the model; tools per request: \(toolNames)\n\(session.standin.sentTexts())")
        // Each request carries the conversation so far: ToolSearch's result (a tool reference, no
        // text), then get_headroom's. Claude Code hands the model the structured content (JSON).
        let results = Self.toolResults(session.standin)
        let result = try #require(results.first { $0.contains("left_percent") },
                                  "no get_headroom result reached the Messages API: \(results)\n\(session.snapshot())")
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(result.utf8)) as? [String: Any], "\(result)")
        let advice = answer["advice"] as? String ?? ""
        #expect(advice.hasPrefix("5h window at 8% left, resets in ") && advice.hasSuffix(": prefer small tasks"), "\(advice)")
        let windows = (answer["accounts"] as? [[String: Any]])?.first?["windows"] as? [[String: Any]] ?? []
        let five = windows.first { $0["name"] as? String == "5h" }
        #expect(five?["left_percent"] as? Double == 8 && five?["used_percent"] as? Double == 92, "\(result)")
        #expect(windows.contains { $0["name"] as? String == "7d" && $0["left_percent"] as? Double == 59 }, "\(result)")
        #expect(!result.contains(ClaudeSession.initialAccess) && !result.contains("sk-ant"), "a token in the tool result")
    }

    /// The `claude mcp add` line `elbowroom init mcp` prints, run as printed (with this test's
    /// `claude`): Claude Code keeps the server in its user config, and `claude mcp list` starts it
    /// and finds it answering.
    @Test func theClaudeMcpAddLineOfInitMcpConnects() throws {
        let elbowroom = try #require(BuiltExecutable.path("elbowroom"), "build the package first")
        let session = try ClaudeSession()
        let snippet = try BuiltExecutable.run(elbowroom, arguments: ["init", "mcp"], environment: ["PATH": "/usr/bin:/bin"])
        let line = try #require(snippet.stdout.split(separator: "\n").first { $0.hasPrefix("claude mcp add") }, "\(snippet.stdout)")
        #expect(line == "claude mcp add --scope user elbowroom -- \(elbowroom) mcp")
        let add = try BoundedRun.run("/bin/sh", ["-c", EndToEnd.quote(session.claude) + line.dropFirst("claude".count)],
                                     environment: session.claudeEnvironment, seconds: 60, directory: session.project)
        #expect(add.status == 0, "\(add.stdout)\(add.stderr)")
        let list = try BoundedRun.run(session.claude, ["mcp", "list"], environment: session.claudeEnvironment,
                                      seconds: 60, directory: session.project)
        #expect(list.stdout.contains("elbowroom: \(elbowroom) mcp - ✔ Connected"), "\(list.stdout)\(list.stderr)")
    }

    /// The text of every `tool_result` block Claude Code sent to the Messages API.
    static func toolResults(_ standin: Standin) -> [String] {
        standin.messagesRequests.flatMap { request -> [String] in
            let messages = request.json?["messages"] as? [[String: Any]] ?? []
            return messages.flatMap { message -> [String] in
                (message["content"] as? [[String: Any]] ?? []).filter { $0["type"] as? String == "tool_result" }.map { block in
                    if let text = block["content"] as? String { return text }
                    return (block["content"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }.joined(separator: "\n")
                }
            }
        }
    }

    /// The user's own status line (smoothline, from PyPI) kept by `elbowroom init claude --keep`:
    /// Claude Code shows its lines and elbowroom's, both following the rate-limit headers, and the
    /// numbers reach elbowroom's cache.
    @Test(.enabled(if: UserStatusLine.available, UserStatusLine.skipMessage))
    func theStatusLineKeptByInitKeepShowsTheirsAndOurs() throws {
        let smoothline = try #require(UserStatusLine.binary)
        let session = try ClaudeSession(settings: [
            "statusLine": ["type": "command", "command": smoothline, "padding": 0, "refreshInterval": 1],
        ])
        // What the user would paste: `elbowroom init claude --keep`'s settings, as printed.
        let keep = try session.runElbowroom(["init", "claude", "--keep"])
        #expect(keep.status == 0, "\(keep.stderr)")
        let settings = try #require(try JSONSerialization.jsonObject(with: Data(keep.stdout.utf8)) as? [String: Any], "\(keep.stdout)")
        let statusLine = try #require(settings["statusLine"] as? [String: Any])
        #expect((statusLine["command"] as? String)?.hasSuffix(" -a claude --then '\(smoothline)'") == true, "\(statusLine)")
        #expect(statusLine["refreshInterval"] as? Int == 1, "their refreshInterval is kept")
        try JSONSerialization.data(withJSONObject: settings)
            .write(to: URL(fileURLWithPath: session.sandbox.claudeConfigDir + "/settings.json"))

        try session.standin.configure(["ratelimit": Standin.rateLimitHeaders(fiveHour: 0.29, sevenDay: 0.06)])
        try session.start()
        // smoothline's bars (percent used) and elbowroom's line (percent left), on one screen.
        #expect(session.waitForScreen("5h 71%") && session.waitForScreen("7d 94%", seconds: 2), "\(session.snapshot())")
        #expect(session.waitForScreen("tester@", seconds: 5) && session.waitForScreen("29%", seconds: 2), "\(session.snapshot())")

        try session.standin.configure(["ratelimit": Standin.rateLimitHeaders(fiveHour: 0.554, sevenDay: 0.48),
                                       "reply": "Noted, 6174."])
        try session.send("hello")
        #expect(session.waitForScreen("Noted, 6174."), "\(session.snapshot())")
        #expect(session.waitForScreen("5h 45%") && session.waitForScreen("55%", seconds: 5), "\(session.snapshot())")
        let cache = CacheStore(paths: session.sandbox.paths).load()
        #expect(cache?.reading?.windows.first { $0.key == "five_hour" }.map { abs($0.used - 55.4) < 0.5 } == true,
                "the status line's numbers are not in the cache: \(String(describing: cache?.reading))")
    }
}
