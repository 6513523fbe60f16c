import Foundation
import ElbowroomAdapters
import ElbowroomCore
import Testing

/// Records what a plugin would have been given and answers with a fixed result.
final class FakeSpawner: ProcessSpawner, @unchecked Sendable {
    struct Call { var path: String; var arguments: [String]; var environment: [String: String]; var stdin: Data; var timeout: TimeInterval }
    private let lock = NSLock()
    private var _calls: [Call] = []
    var calls: [Call] { lock.withLock { _calls } }
    let status: Int32
    let stdout: String

    init(status: Int32 = 0, stdout: String = "from plugin\n") {
        self.status = status
        self.stdout = stdout
    }

    func spawnDetached(path: String, arguments: [String], environment: [String: String]) throws {}

    func run(path: String, arguments: [String], environment: [String: String], stdin: Data,
             timeout: TimeInterval) throws -> (status: Int32, stdout: Data) {
        lock.withLock { _calls.append(Call(path: path, arguments: arguments, environment: environment, stdin: stdin, timeout: timeout)) }
        return (status, Data(stdout.utf8))
    }
}

@Suite struct PluginTests {
    static let secrets = ["CLAUDE_CODE_OAUTH_TOKEN": "sk-ant-oat01-SECRET", "ANTHROPIC_API_KEY": "sk-ant-api-SECRET",
                          "ANTHROPIC_AUTH_TOKEN": "sk-ant-SECRET", "CLAUDE_CODE_OAUTH_REFRESH_TOKEN": "sk-ant-ort01-SECRET"]

    static func environment(home: String, path: String = "/usr/bin:/bin") -> ElbowroomEnvironment {
        ElbowroomEnvironment(["HOME": home, "PATH": path, "LANG": "C.UTF-8"].merging(secrets) { a, _ in a })
    }

    static func makePlugin(in dir: URL, name: String, body: String) throws -> String {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("elbowroom-adapter-" + name).path
        // Core's writer opens with O_CLOEXEC: a child another test forks meanwhile must not
        // inherit a write descriptor, or exec fails with "text file busy".
        try FileSystem.writeAtomically(Data(("#!/bin/sh\n" + body + "\n").utf8), to: path, mode: 0o755)
        return path
    }

    @Test func stdinCarriesTheFrameAndNoSecretAndTheChildHasNoSecretVariables() throws {
        let spawner = FakeSpawner()
        let env = Self.environment(home: "/nonexistent")
        let adapter = ExternalAdapter(name: "demo", path: "/opt/elbowroom-adapter-demo", environment: env, spawner: spawner)
        let output = adapter.render(GoldenCase.warn.frame)
        #expect(output == AdapterOutput("from plugin\n"))
        let call = try #require(spawner.calls.first)
        #expect(call.path == "/opt/elbowroom-adapter-demo")
        #expect(call.arguments == ["render"])
        #expect(call.timeout == 2)
        for key in ElbowroomEnvironment.secretVariables { #expect(call.environment[key] == nil, "\(key)") }
        #expect(call.environment["ELBOWROOM_ENV_TOKEN_PRESENT"] == "1")
        #expect(call.environment["HOME"] == "/nonexistent")
        let stdin = String(decoding: call.stdin, as: UTF8.self)
        #expect(!stdin.contains("SECRET") && !stdin.contains("sk-ant"))
        let json = try JSONChecks.object(stdin)
        #expect(Set(json.keys) == ["adapter", "level", "mode", "percentage", "protocol", "spans", "status", "text",
                                   "tooltip", "tooltip_text", "view"])
        #expect(json["text"] as? String == "5h 20% · 7d 59%")
        #expect(json["level"] as? String == "warn")
        #expect(json["percentage"] as? Int == 80)
        let spans = try #require(json["spans"] as? [[String: Any]])
        #expect(spans[1]["fg"] as? String == "#e5e510")
        #expect(spans[1]["bold"] as? Bool == true)
        // The view is exactly what the json adapter prints.
        #expect(json["view"] is [String: Any])
        let direct = JSONAdapter().render(GoldenCase.warn.frame).text.dropLast()
        #expect(stdin.contains("\"view\":" + direct + "}"))
    }

    @Test func aFailingPluginPrintsTheErrorOutput() {
        let adapter = ExternalAdapter(name: "bad", path: "/x", environment: Self.environment(home: "/h"),
                                      spawner: FakeSpawner(status: 3, stdout: "partial"))
        let output = adapter.render(GoldenCase.freshOK.frame)
        #expect(output.exitCode == 2)
        #expect(output.text == "⚠ elbowroom: plugin bad exited with status 3\n")
        #expect(adapter.streamFrame(GoldenCase.freshOK.frame) == "⚠ elbowroom: plugin bad exited with status 3\n")
    }

    @Test func streamFramesAskForStreamModeAndEndInANewline() throws {
        let spawner = FakeSpawner(stdout: "no newline")
        let adapter = ExternalAdapter(name: "s", path: "/x", environment: Self.environment(home: "/h"), spawner: spawner)
        #expect(adapter.streamFrame(GoldenCase.freshOK.frame) == "no newline\n")
        #expect(spawner.calls.first?.arguments == ["stream"])
    }

    @Test func discoveryPrefersTheUserDirThenPathAndNeverShadowsBuiltIns() throws {
        let root = try Shell.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let home = root.appendingPathComponent("home")
        let env0 = Self.environment(home: home.path)
        let paths = Paths(environment: env0)
        let userDir = URL(fileURLWithPath: paths.userAdaptersDir)
        let binA = root.appendingPathComponent("binA"), binB = root.appendingPathComponent("binB")
        let user = try Self.makePlugin(in: userDir, name: "both", body: "echo user")
        _ = try Self.makePlugin(in: binA, name: "both", body: "echo path")
        let onlyPath = try Self.makePlugin(in: binB, name: "only-path", body: "echo b")
        _ = try Self.makePlugin(in: binA, name: "tmux", body: "echo shadow")
        // Not executable: ignored.
        try Data("#!/bin/sh\n".utf8).write(to: binA.appendingPathComponent("elbowroom-adapter-noexec"))
        let env = Self.environment(home: home.path, path: "\(binA.path)::relative:\(binB.path)")

        let both = try #require(AdapterRegistry.resolve(name: "both", paths: paths, environment: env) as? ExternalAdapter)
        #expect(both.path == user)
        #expect(both.summary == "plugin: \(user)")
        let b = try #require(AdapterRegistry.resolve(name: "only-path", paths: paths, environment: env) as? ExternalAdapter)
        #expect(b.path == onlyPath)
        #expect(AdapterRegistry.resolve(name: "tmux", paths: paths, environment: env) is TmuxAdapter)
        #expect(AdapterRegistry.resolve(name: "noexec", paths: paths, environment: env) == nil)
        #expect(AdapterRegistry.resolve(name: "../both", paths: paths, environment: env) == nil)
        #expect(AdapterRegistry.resolve(name: "missing", paths: paths, environment: env) == nil)

        let all = AdapterRegistry.all(paths: paths, environment: env)
        #expect(all.map(\.name) == AdapterRegistry.builtIn.map(\.name) + ["both", "only-path"])
        #expect(all.filter { $0.name == "tmux" }.count == 1)
    }

    /// A real shell-script plugin through `PosixSpawner`: it reads the frame from stdin and
    /// sees no secret variable.
    @Test func aRealShellPluginRuns() throws {
        let root = try Shell.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let path = try Self.makePlugin(in: root, name: "echo", body: """
            input=$(cat)
            case "$input" in *'"adapter":"echo"'*) printf 'mode=%s ' "$1" ;; *) exit 4 ;; esac
            printf 'token=[%s%s%s%s] ' "$CLAUDE_CODE_OAUTH_TOKEN" "$ANTHROPIC_API_KEY" "$ANTHROPIC_AUTH_TOKEN" \\
                "$CLAUDE_CODE_OAUTH_REFRESH_TOKEN"
            printf 'present=%s\\n' "$ELBOWROOM_ENV_TOKEN_PRESENT"
            """)
        let adapter = ExternalAdapter(name: "echo", path: path, environment: Self.environment(home: root.path))
        let output = adapter.render(GoldenCase.freshOK.frame)
        #expect(output == AdapterOutput("mode=render token=[] present=1\n"))
    }

    @Test func aHangingPluginIsStoppedAfterItsTimeout() throws {
        let root = try Shell.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let path = try Self.makePlugin(in: root, name: "slow", body: "exec sleep 30")
        var adapter = ExternalAdapter(name: "slow", path: path, environment: Self.environment(home: root.path))
        adapter.timeout = 0.5
        let start = Date()
        let output = adapter.render(GoldenCase.freshOK.frame)
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(output.exitCode == 2)
        #expect(output.text == "⚠ elbowroom: plugin slow did not finish within 0.5s\n")
    }
}
