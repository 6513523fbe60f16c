import Foundation
import Testing
import ElbowroomCore
import ElbowroomTestSupport
@testable import ElbowroomCLI

/// What `serve` answers names no path: a Codex account whose login is missing and a plugin that
/// is missing fail with texts that name where they looked, and those stay in `doctor`.
@Suite(.serialized) struct ServeNoPathsTests {
    /// A Codex account with no login and a plugin account with no plugin, both fetched: each
    /// failure's text names where it looked (~/.codex/auth.json, ~/.config/…).
    static func accountsFailingWithPaths() throws -> EndToEnd {
        let e = try EndToEnd()
        try e.sandbox.writeConfig("""
            timeout = 3
            [accounts.codex]
            provider = "codex"
            label = "X"
            [accounts.gem]
            provider = "plugin:gem"
            label = "G"
            """)
        _ = try e.run(["fetch"])
        return e
    }

    @Test func usageAndMetricsNameNoPathUnderHome() throws {
        let e = try Self.accountsFailingWithPaths()
        let rendered = try e.run(["-a", "json", "--offline"]).stdout
        #expect(rendered.contains(e.sandbox.root), "the failures name paths (else this test proves nothing): \(rendered)")
        let serve = try ServeProcess(elbowroom: e.elbowroom, environment: e.sandbox.environment, arguments: ["--offline"])
        for path in ["/v1/usage", "/metrics"] {
            let answer = try RawHTTP.get(port: serve.port, path)
            #expect(answer.status == 200)
            for secret in [e.sandbox.root, e.sandbox.home, "/.codex/", "auth.json", "/sources", "elbowroom/"] {
                #expect(!answer.body.contains(secret), "\(path) names \(secret): \(answer.body)")
            }
            if path == "/v1/usage" {
                #expect(answer.body.contains("(a path: see elbowroom doctor)"), "\(answer.body)")
                #expect((try? JSONSerialization.jsonObject(with: Data(answer.body.utf8))) != nil, "still JSON: \(answer.body)")
            }
        }
        // The dashboard shows each account's failure: without its path too.
        let page = try RawHTTP.get(port: serve.port, "/")
        #expect(page.status == 200)
        #expect(!page.body.contains(e.sandbox.root) && !page.body.contains("auth.json"), "the dashboard names a path")
        // doctor still says where.
        let doctor = try e.run(["doctor", "--account", "codex"])
        #expect(doctor.stdout.contains(e.sandbox.home + "/.codex/auth.json"), "\(doctor.stdout)")
        // A config error (its text names the config file) is served without the path too.
        try e.sandbox.writeConfig("max_age = \"soon\"\n")
        usleep(1_100_000)
        let broken = try RawHTTP.get(port: serve.port, "/v1/usage")
        #expect(!broken.body.contains(e.sandbox.root), "\(broken.body)")
        #expect(serve.stop()?.status == 0)
    }

    @Test func pathsAreFoundInSentencesJSONAndLabelsButURLsAreLeftAlone() {
        let home = "/home/alice"
        let cases: [(String, String)] = [
            ("codex login: /home/alice/.codex/auth.json not found", "codex login: (a path: see elbowroom doctor) not found"),
            (#"{"error":"/srv/x/y.json: bad"}"#, #"{"error":"(a path: see elbowroom doctor): bad"}"#),
            ("plugin not found in ~/.config/elbowroom/sources or on PATH", "plugin not found in (a path: see elbowroom doctor) or on PATH"),
            ("see https://docs.example/a/b and 5h/7d, 40%/h, a / b", "see https://docs.example/a/b and 5h/7d, 40%/h, a / b"),
            (#"message="cannot read /var/lib/x (permission)""#, #"message="cannot read (a path: see elbowroom doctor) (permission)""#),
            ("at home/alice/x", "at home/alice/x"),
        ]
        for (input, expected) in cases {
            #expect(ServedText.withoutPaths(input, home: home) == expected, "\(input)")
        }
    }
}
