import Foundation
import ElbowroomCore
import ElbowroomTestSupport
import Testing

/// `elbowroom mcp` as an MCP client sees it: the built program on a pipe, JSON-RPC lines in and
/// out, the usage from a seeded cache.
@Suite struct MCPServerTests {
    /// A sandbox whose cache says: 5h window 92 % used, resetting in 40 minutes; 7d 41 %.
    static func seeded(fiveHour: Double = 92, sevenDay: Double = 41, config: String? = nil) throws -> EndToEnd {
        let e2e = try EndToEnd()
        if let config { try e2e.sandbox.writeConfig(config) }
        let now = Date()
        var cache = CacheFile(account: e2e.sandbox.paths.accountSource, reading: Reading(windows: [
            UsageWindow(key: "five_hour", used: fiveHour, resetsAt: now.addingTimeInterval(40 * 60 + 30), observedAt: now.addingTimeInterval(-10)),
            UsageWindow(key: "seven_day", used: sevenDay, resetsAt: now.addingTimeInterval(3 * 86400), observedAt: now.addingTimeInterval(-10)),
        ], fetchedAt: now.addingTimeInterval(-10), source: .api))
        cache.fetch.recordSuccess(at: now.addingTimeInterval(-10))
        try CacheStore(paths: e2e.sandbox.paths).save(cache)
        return e2e
    }

    static func client(_ e2e: EndToEnd, environment: [String: String]? = nil) throws -> MCPClient {
        try MCPClient(executable: e2e.elbowroom, environment: environment ?? e2e.sandbox.environment)
    }

    // MARK: Session

    @Test func initializeNegotiatesTheRevision() throws {
        let e2e = try Self.seeded()
        for (asked, agreed) in [("2025-06-18", "2025-06-18"), ("2025-03-26", "2025-03-26"), ("2024-11-05", "2024-11-05"),
                                ("2025-11-25", "2025-06-18"), ("1999-01-01", "2025-06-18")] {
            let client = try Self.client(e2e)
            let result = try #require(try client.open(version: asked).result)
            #expect(result["protocolVersion"] as? String == agreed, "asked \(asked)")
            let capabilities = result["capabilities"] as? [String: Any]
            #expect(capabilities?["tools"] != nil && capabilities?["resources"] != nil)
            #expect((result["serverInfo"] as? [String: Any])?["name"] as? String == "elbowroom")
            #expect(try client.request("ping").result?.isEmpty == true)
            #expect(client.close() == 0, "the server ends when stdin closes")
        }
    }

    @Test func toolsListDescribesGetHeadroom() throws {
        let e2e = try Self.seeded()
        let client = try Self.client(e2e)
        try client.open()
        let tools = try #require(try client.request("tools/list").result?["tools"] as? [[String: Any]])
        #expect(tools.count == 1)
        let tool = try #require(tools.first)
        #expect(tool["name"] as? String == "get_headroom")
        let input = try #require(tool["inputSchema"] as? [String: Any])
        #expect(input["type"] as? String == "object")
        #expect((input["properties"] as? [String: Any])?["account"] != nil)
        #expect((tool["outputSchema"] as? [String: Any])?["type"] as? String == "object")
        #expect((tool["annotations"] as? [String: Any])?["readOnlyHint"] as? Bool == true)

        // 2024-11-05 had neither outputSchema nor structured content.
        let old = try Self.client(e2e)
        try old.open(version: "2024-11-05")
        let oldTool = try #require((try old.request("tools/list").result?["tools"] as? [[String: Any]])?.first)
        #expect(oldTool["outputSchema"] == nil && oldTool["inputSchema"] != nil)
        let call = try #require(try old.request("tools/call", ["name": "get_headroom"]).result)
        #expect(call["structuredContent"] == nil && call["content"] != nil)
    }

    /// The numbers, the reset (ISO and relative) and the advice, as text and as structured
    /// content that holds to the output schema's required keys.
    @Test func getHeadroomAnswersTheNumbersAndAnAdvice() throws {
        let e2e = try Self.seeded()
        let client = try Self.client(e2e)
        try client.open()
        let result = try #require(try client.request("tools/call", ["name": "get_headroom", "arguments": [:] as [String: Any]]).result)
        #expect(result["isError"] as? Bool == false)
        let structured = try #require(result["structuredContent"] as? [String: Any])
        #expect(structured["level"] as? String == "critical")
        let advice = try #require(structured["advice"] as? String)
        // (92 % in the 4h20m so far: at that rate the last 8 % go in 22 minutes.)
        #expect(advice == "5h window at 8% left, resets in 40m, runs out in 22m at this rate: prefer small tasks", "\(advice)")
        let account = try #require((structured["accounts"] as? [[String: Any]])?.first)
        #expect(account["name"] as? String == "default" && account["provider"] as? String == "claude")
        #expect(account["status"] as? String == "ok")
        let windows = try #require(account["windows"] as? [[String: Any]])
        let five = try #require(windows.first { $0["name"] as? String == "5h" })
        #expect(five["left_percent"] as? Double == 8 && five["used_percent"] as? Double == 92)
        #expect(five["resets_in"] as? String == "40m")
        #expect((five["resets_in_seconds"] as? Double).map { $0 > 2300 && $0 <= 2430 } == true)
        #expect((five["resets_at"] as? String).flatMap(ISO8601.parse) != nil)
        #expect(five["level"] as? String == "critical")
        #expect(windows.contains { $0["name"] as? String == "7d" && $0["left_percent"] as? Double == 59 })

        // Every key the output schema requires is there.
        let tool = try #require((try client.request("tools/list").result?["tools"] as? [[String: Any]])?.first)
        let schema = try #require(tool["outputSchema"] as? [String: Any])
        for key in schema["required"] as? [String] ?? [] { #expect(structured[key] != nil, "\(key)") }
        let accountSchema = ((schema["properties"] as? [String: Any])?["accounts"] as? [String: Any])?["items"] as? [String: Any]
        for key in accountSchema?["required"] as? [String] ?? [] { #expect(account[key] != nil, "\(key)") }

        let text = try #require(((result["content"] as? [[String: Any]])?.first)?["text"] as? String)
        #expect(text.contains("5h (Current session): 8% left, 92% used, resets in 40m"), "\(text)")
        #expect(text.contains("advice: 5h window at 8% left"))
    }

    @Test(arguments: [(40.0, 80.0, "7d window at 20% left, resets in 2d23h, but runs out in 23h"), (10.0, 30.0, "plenty left (5h 90%, 7d 70%)")])
    func theAdviceFollowsTheTightestWindow(_ fiveHour: Double, _ sevenDay: Double, _ expected: String) throws {
        let e2e = try Self.seeded(fiveHour: fiveHour, sevenDay: sevenDay)
        let client = try Self.client(e2e)
        try client.open()
        let result = try client.request("tools/call", ["name": "get_headroom"]).result
        let advice = (result?["structuredContent"] as? [String: Any])?["advice"] as? String ?? ""
        #expect(advice.hasPrefix(expected), "\(advice)")
    }

    @Test func resourcesListAndReadTheSameData() throws {
        let e2e = try Self.seeded(config: "timeout = 3\n[accounts.work]\nlabel = \"W\"\n")
        let client = try Self.client(e2e)
        try client.open()
        let resources = try #require(try client.request("resources/list").result?["resources"] as? [[String: Any]])
        let uris = resources.compactMap { $0["uri"] as? String }
        #expect(uris == ["elbowroom://headroom", "elbowroom://headroom/work"])
        let templates = try client.request("resources/templates/list").result?["resourceTemplates"] as? [[String: Any]]
        #expect(templates?.first?["uriTemplate"] as? String == "elbowroom://headroom/{account}")
        let read = try #require(try client.request("resources/read", ["uri": "elbowroom://headroom/work"]).result)
        let content = try #require((read["contents"] as? [[String: Any]])?.first)
        #expect(content["mimeType"] as? String == "application/json")
        let data = try #require(try JSONSerialization.jsonObject(with: Data((content["text"] as? String ?? "").utf8)) as? [String: Any])
        let account = (data["accounts"] as? [[String: Any]])?.first
        #expect(account?["name"] as? String == "work" && account?["label"] as? String == "W")
        #expect(try client.request("resources/read", ["uri": "elbowroom://elsewhere"]).errorCode == -32002)
        #expect(try client.request("resources/read", ["uri": "elbowroom://headroom/nobody"]).errorCode == -32002)

        // The tool takes the same account; an unknown one is a tool error naming those there are.
        let one = try client.request("tools/call", ["name": "get_headroom", "arguments": ["account": "work"]]).result
        #expect(((one?["structuredContent"] as? [String: Any])?["accounts"] as? [Any])?.count == 1)
        let unknown = try #require(try client.request("tools/call", ["name": "get_headroom", "arguments": ["account": "play"]]).result)
        #expect(unknown["isError"] as? Bool == true)
        #expect((((unknown["content"] as? [[String: Any]])?.first)?["text"] as? String)?.contains("accounts: work") == true)
    }

    // MARK: Errors

    @Test func protocolErrorsAreJSONRPCErrors() throws {
        let e2e = try Self.seeded()
        let client = try Self.client(e2e)
        try client.open()
        #expect(try client.request("no/such/method").errorCode == -32601)
        #expect(try client.request("tools/call", ["name": "rm_rf"]).errorCode == -32602)
        #expect(try client.request("tools/call", [:]).errorCode == -32602)
        #expect(try client.request("tools/call", ["name": "get_headroom", "arguments": ["account": 7]]).errorCode == -32602)
        #expect(try client.request("tools/call", ["name": "get_headroom", "arguments": ["everything": true]]).errorCode == -32602)
        #expect(try client.request("tools/call", ["name": "get_headroom", "arguments": "work"]).errorCode == -32602)
        #expect(try client.request("resources/read", [:]).errorCode == -32602)
        #expect(try client.request("initialize", [:]).errorCode == -32602)

        let invalid: [(String, Any?)] = [
            (#"{"id":1,"method":"ping"}"#, 1),                              // no jsonrpc
            (#"{"jsonrpc":"1.0","id":2,"method":"ping"}"#, 2),
            (#"{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}"#, nil),       // an id that is an object
            (#"{"jsonrpc":"2.0","id":true,"method":"ping"}"#, nil),
            (#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#, nil),
            (#"{"jsonrpc":"2.0","id":3,"method":42}"#, 3),
            (#"{"jsonrpc":"2.0","id":4}"#, 4),
            (#""ping""#, nil),
            (#"42"#, nil),
        ]
        for (line, id) in invalid {
            client.send(line)
            let answer = try #require(try client.receive() as? [String: Any], "\(line)")
            #expect(answer.errorCode == -32600, "\(line) → \(answer)")
            if let id = id as? Int { #expect(answer["id"] as? Int == id, "\(line)") } else { #expect(answer["id"] is NSNull, "\(line)") }
        }
        // An id is echoed as it came: a string, a big integer.
        client.send(#"{"jsonrpc":"2.0","id":"abc-1","method":"ping"}"#)
        #expect(client.receiveLine() == #"{"jsonrpc":"2.0","id":"abc-1","result":{}}"#)
        client.send(#"{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}"#)
        #expect(client.receiveLine() == #"{"jsonrpc":"2.0","id":123456789012345678901234567890,"result":{}}"#)
    }

    /// Notifications (known or not) and responses get no answer: the next line answers the ping
    /// sent after them.
    @Test func notificationsAndResponsesAreNotAnswered() throws {
        let e2e = try Self.seeded()
        let client = try Self.client(e2e)
        try client.open()
        client.send(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9}}"#)
        client.send(#"{"jsonrpc":"2.0","method":"no/such/notification"}"#)
        client.send(#"{"jsonrpc":"2.0","id":77,"result":{}}"#)
        client.send(#"{"jsonrpc":"2.0","id":78,"error":{"code":1,"message":"x"}}"#)
        client.send("")
        client.send(#"{"jsonrpc":"2.0","id":"after","method":"ping"}"#)
        #expect(client.receiveLine() == #"{"jsonrpc":"2.0","id":"after","result":{}}"#)
    }

    /// Batches are refused under 2025-06-18, which removed them, and answered under 2025-03-26.
    @Test func batchesFollowTheRevision() throws {
        let e2e = try Self.seeded()
        let batch = #"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","id":2,"method":"nope"}]"#
        let current = try Self.client(e2e)
        try current.open(version: "2025-06-18")
        current.send(batch)
        let refused = try #require(try current.receive() as? [String: Any])
        #expect(refused.errorCode == -32600 && refused["id"] is NSNull)

        let older = try Self.client(e2e)
        try older.open(version: "2025-03-26")
        older.send(batch)
        let answers = try #require(try older.receive() as? [[String: Any]])
        #expect(answers.count == 2, "the notification gets no answer")
        #expect(answers.first?["id"] as? Int == 1 && answers.first?.result != nil)
        #expect(answers.last?["id"] as? Int == 2 && answers.last?.errorCode == -32601)
        older.send("[]")
        #expect((try older.receive() as? [String: Any])?.errorCode == -32600)
        older.send(#"[{"jsonrpc":"2.0","method":"notifications/x"}]"#)
        older.send(#"{"jsonrpc":"2.0","id":"next","method":"ping"}"#)
        #expect(older.receiveLine() == #"{"jsonrpc":"2.0","id":"next","result":{}}"#, "a batch of notifications is not answered")
    }

    /// What a broken or hostile client may send: every line gets a parse error or nothing, the
    /// server keeps serving, and exits 0 when stdin closes.
    @Test func hostileInputNeverStopsTheServer() throws {
        let e2e = try Self.seeded()
        let client = try Self.client(e2e)
        try client.open()
        let lines: [[UInt8]] = [
            Array("{".utf8),
            Array(#"{"jsonrpc":"2.0","id":1,"method":"ping""#.utf8),
            [0xFF, 0xFE, 0x7B, 0x7D],                                         // not UTF-8
            Array(#"{"jsonrpc":"2.0","id":1,"method":"p\#u{0}ing"}"#.utf8),     // a raw NUL in a string
            Array(repeating: UInt8(ascii: "["), count: 100_000),               // nesting past any depth
            Array(#"{"jsonrpc":"2.0","id":1e999,"method":"ping"}"#.utf8),      // a number no double holds
            Array(#"{"a":"\ud800"}"#.utf8),                                     // a lone surrogate
            Array(#"{"jsonrpc":"2.0","id":1,"method":"ping",}"#.utf8),        // a trailing comma (not RFC 8259)
            [0xEF, 0xBB, 0xBF] + Array(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#.utf8),  // a byte order mark
            Array(repeating: UInt8(ascii: "x"), count: 5 << 20),               // 5 MiB, over the line limit
        ]
        for line in lines {
            client.send(raw: line)
            let answer = try #require(try client.receive(seconds: 20) as? [String: Any], "no answer to \(line.prefix(40))")
            #expect(answer.errorCode == -32700, "\(line.prefix(40)) → \(answer)")
            #expect(answer["id"] is NSNull)
        }
        // A line ending in CRLF, and the last line without a newline at all, are still read.
        client.send(raw: Array(#"{"jsonrpc":"2.0","id":"crlf","method":"ping"}"#.utf8) + [0x0D])
        #expect(client.receiveLine() == #"{"jsonrpc":"2.0","id":"crlf","result":{}}"#)
        client.send(raw: Array(#"{"jsonrpc":"2.0","id":"last","method":"ping"}"#.utf8), newline: false)
        #expect(client.close() == 0)
        #expect(client.receiveLine(seconds: 2) == #"{"jsonrpc":"2.0","id":"last","result":{}}"#)
    }

    /// No token, credentials path or home directory in anything the server says, even when the
    /// last fetch's error names a file in the home directory.
    @Test func noTokenOrHomePathInAnyAnswer() throws {
        let e2e = try EndToEnd()
        var cache = CacheFile(account: e2e.sandbox.paths.accountSource)
        cache.fetch.recordFailure(.signedOut, message: "cannot parse the credentials in \(e2e.sandbox.credentialsFile)",
                                  at: Date().addingTimeInterval(-5))
        try CacheStore(paths: e2e.sandbox.paths).save(cache)
        var environment = e2e.sandbox.environment
        environment["CLAUDE_CODE_OAUTH_TOKEN"] = "sk-ant-oat01-ENV-SECRET"
        let client = try Self.client(e2e, environment: environment)
        var transcript = ""
        func ask(_ method: String, _ params: [String: Any]? = nil) throws {
            let answer = try client.request(method, params)
            transcript += String(decoding: try JSONSerialization.data(withJSONObject: answer), as: UTF8.self)
        }
        try ask("initialize", ["protocolVersion": "2025-06-18", "capabilities": [:] as [String: Any],
                               "clientInfo": ["name": "t", "version": "1"]])
        try ask("tools/list")
        try ask("tools/call", ["name": "get_headroom"])
        try ask("tools/call", ["name": "get_headroom", "arguments": ["account": "x"]])
        try ask("resources/list")
        try ask("resources/read", ["uri": "elbowroom://headroom"])
        #expect(transcript.contains(#"cannot parse the credentials in ~\/.claude\/.credentials.json"#)
                || transcript.contains("cannot parse the credentials in ~/.claude/.credentials.json"), "\(transcript)")
        for secret in [e2e.anthropic.validAccessToken, e2e.anthropic.validRefreshToken, "ENV-SECRET", "sk-ant", e2e.sandbox.home] {
            #expect(!transcript.contains(secret), "\(secret) in an answer")
        }
    }

    /// The Codex form `elbowroom init mcp` prints reads, uncommented, as the TOML Codex takes:
    /// `[mcp_servers.elbowroom]` with this elbowroom as `command` and `args = ["mcp"]` (read by
    /// Python's tomllib, a full TOML parser).
    @Test func initMcpsCodexTableIsTOMLNamingThisProgram() throws {
        let e2e = try EndToEnd()
        let python = try #require(RealClaudeCode.python, "python3 is needed")
        let run = try e2e.run(["init", "mcp"])
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("# [mcp_servers.elbowroom]") }, "\(run.stdout)")
        let table = lines[start...].prefix { $0.hasPrefix("# ") && !$0.hasPrefix("# Any") && $0 != "#" }
            .map { String($0.dropFirst(2)) }.joined(separator: "\n")
        let check = try BoundedRun.run(python, ["-c", """
            import json, sys, tomllib
            print(json.dumps(tomllib.loads(sys.argv[1])))
            """, table], environment: ["PATH": "/usr/bin:/bin"], seconds: 10)
        try #require(check.status == 0 || !check.stderr.contains("No module named 'tomllib'"), "python3 has no tomllib")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any], "\(table)\n\(check.stderr)")
        let server = (parsed["mcp_servers"] as? [String: Any])?["elbowroom"] as? [String: Any]
        #expect(server?["command"] as? String == e2e.elbowroom, "\(table)")
        #expect(server?["args"] as? [String] == ["mcp"])
    }

    /// An account that never had data: the first call starts the fetch and waits for it (as a
    /// first render does), so the answer has numbers.
    @Test func aFirstCallFetchesWhenThereIsNoData() throws {
        let e2e = try EndToEnd()
        let client = try Self.client(e2e)
        try client.open()
        let result = try client.request("tools/call", ["name": "get_headroom"]).result
        let account = ((result?["structuredContent"] as? [String: Any])?["accounts"] as? [[String: Any]])?.first
        let five = (account?["windows"] as? [[String: Any]])?.first { $0["name"] as? String == "5h" }
        let requests = e2e.usageRequests
        _ = client.close()
        #expect(five?["left_percent"] as? Double == 37, "\(String(describing: account)) \(client.stderrText)")
        #expect(requests == 1)
    }
}
