import Foundation
import ElbowroomCore
import ElbowroomTestSupport
import Testing

/// The tokens never leave the credentials file except in the `Authorization` header to the
/// configured API host (and the refresh token in the body to the token endpoint): not in any
/// command's output in any fault mode, not in a log line, not in the cache directory, not in a
/// child's argv or environment, not to a redirect target, never over plain HTTP to a stranger.
@Suite struct SecretsTests {
    /// Pieces of every token the fake issues or the sandbox stores.
    static let secretPieces = ["E2E-ACCESS", "E2E-REFRESH", "issued-access", "issued-refresh", "ROTATED-ELSEWHERE"]

    static func leaks(_ text: String) -> [String] { secretPieces.filter { text.contains($0) } }

    /// Every file under `dir`, with its contents, except the credentials file itself.
    static func files(under dir: String, except excluded: String) -> [(String, String)] {
        guard let walker = FileManager.default.enumerator(atPath: dir) else { return [] }
        var out: [(String, String)] = []
        for case let relative as String in walker {
            let path = dir + "/" + relative
            guard path != excluded, let data = FileManager.default.contents(atPath: path) else { continue }
            out.append((path, String(decoding: data, as: UTF8.self)))
        }
        return out
    }

    static let commands: [[String]] = [
        ["-a", "plain"], ["-a", "waybar", "--wait"], ["-a", "json"], ["-a", "claude", "--verbose"],
        ["fetch"], ["fetch", "--json"], ["fetch", "--verbose"], ["fetch", "--force", "--verbose"],
        ["doctor"], ["cache", "show"], ["cache", "path"],
    ]

    @Test(arguments: FaultMatrixTests.faults)
    func noCommandLeaksATokenInAnyFaultMode(_ fault: FaultMatrixTests.Fault) throws {
        let e = try EndToEnd(usage: fault.reply)
        try e.sandbox.writeConfig("timeout = 1\n" + fault.config)
        e.sandbox.extra["ELBOWROOM_DEBUG"] = "1"
        if fault.staleToken { e.anthropic.configure { $0.validAccessToken = "sk-ant-oat01-ROTATED-ELSEWHERE-000" } }
        if fault.refused { e.sandbox.extra["ELBOWROOM_API_URL"] = "http://127.0.0.1:1" }
        try e.seedCache(fiveHour: 20, age: 600)
        for command in Self.commands {
            let run = try e.run(command, stdin: command.contains("claude") ? #"{"rate_limits":{"five_hour":{"used_percentage":5,"resets_at":1}}}"# : nil)
            #expect(Self.leaks(run.stdout).isEmpty, "\(command) stdout leaks a token")
            #expect(Self.leaks(run.stderr).isEmpty, "\(command) stderr leaks a token")
        }
        let direct = try BuiltExecutable.start(e.fetcher, arguments: ["--urgency", "force", "--verbose", "--json"],
                                               environment: e.sandbox.environment)()
        #expect(Self.leaks(direct.stdout + direct.stderr).isEmpty, "elbowroom-fetch --verbose leaks a token")
        usleep(300_000)  // let a detached fetcher finish writing
        for (path, text) in Self.files(under: e.sandbox.root, except: e.sandbox.credentialsFile) {
            #expect(Self.leaks(text).isEmpty, "\(path) holds a token")
        }
        #expect(e.server.requests(path: "/followed").isEmpty, "a redirect is never followed")
        for request in e.server.requests where !request.path.hasPrefix(FakeAnthropic.tokenPath) {
            let auth = request.header("Authorization") ?? ""
            #expect(Self.leaks(request.allText.replacingOccurrences(of: auth, with: "")).isEmpty,
                    "a token outside the Authorization header of \(request.path)")
        }
    }

    /// Command lines and environments of every process on the machine while a fetch and a
    /// refresh are in flight (the token endpoint hangs, so the refresh is caught mid-way).
    @Test func noProcessArgvOrEnvironmentHoldsATokenWhileFetchingAndRefreshing() throws {
        let e = try EndToEnd()
        try e.sandbox.writeConfig("timeout = 2\nrefresh = \"always\"\n")
        e.anthropic.configure { $0.tokenReply = .hang }
        try e.sandbox.writeCredentials(accessToken: e.anthropic.validAccessToken, refreshToken: e.anthropic.validRefreshToken,
                                       expiresAt: Date().addingTimeInterval(-60))
        let fetch = try BuiltExecutable.start(e.elbowroom, arguments: ["fetch", "--verbose"], environment: e.sandbox.environment)
        let render = try BuiltExecutable.start(e.elbowroom, arguments: ["-a", "plain"], environment: e.sandbox.environment)
        #expect(Eventually.within(3) { !e.server.requests(path: FakeAnthropic.tokenPath).isEmpty }, "the refresh started")
        var scanned = 0
        for pid in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where Int32(pid) != nil {
            for part in ["cmdline", "environ"] {
                guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/\(part)") else { continue }
                scanned += 1
                let text = String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
                #expect(Self.leaks(text).isEmpty, "process \(pid) has a token in its \(part)")
            }
        }
        #expect(scanned > 4)
        let fetched = fetch()
        _ = render()
        #expect(Self.leaks(fetched.stdout + fetched.stderr).isEmpty)
    }

    /// A plugin adapter runs with no token in its arguments or environment.
    @Test func pluginsGetNoToken() throws {
        let e = try EndToEnd()
        let dir = e.sandbox.configHome + "/elbowroom/adapters"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let dump = e.sandbox.root + "/plugin-saw.txt"
        let script = dir + "/elbowroom-adapter-spy"
        try "#!/bin/sh\n{ echo \"$@\"; env; cat; } > '\(dump)'\necho spied\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        e.sandbox.extra["CLAUDE_CODE_OAUTH_TOKEN"] = "sk-ant-oat01-E2E-ACCESS-FROM-ENV"
        try e.seedCache(fiveHour: 20, age: 5)
        let run = try e.run(["-a", "spy"])
        #expect(run.stdout == "spied\n")
        let saw = try String(contentsOfFile: dump, encoding: .utf8)
        #expect(saw.contains("render"))
        #expect(Self.leaks(saw).isEmpty, "the plugin saw a token")
    }

    /// A token never goes over plain HTTP to anything but this machine.
    @Test(arguments: ["ELBOWROOM_API_URL", "ELBOWROOM_TOKEN_URL"])
    func plainHTTPToAnotherHostIsRefusedBeforeAnyConnection(variable: String) throws {
        let e = try EndToEnd()
        e.sandbox.extra[variable] = "http://192.0.2.1:9" + (variable == "ELBOWROOM_TOKEN_URL" ? "/v1/oauth/token" : "")
        try e.sandbox.writeConfig("timeout = 1\nrefresh = \"always\"\n")
        try e.sandbox.writeCredentials(accessToken: e.anthropic.validAccessToken, refreshToken: e.anthropic.validRefreshToken,
                                       expiresAt: Date().addingTimeInterval(-60))
        let run = try e.run(["fetch", "--verbose"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("http"), "\(run.stderr)")
        #expect(run.seconds < 1.5, "refused before connecting, not timed out")
        #expect(Self.leaks(run.stdout + run.stderr).isEmpty)
    }
}
