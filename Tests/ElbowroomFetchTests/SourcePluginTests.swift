import Foundation
import Testing
import ElbowroomCore
@testable import ElbowroomFetch
import ElbowroomTestSupport

/// `provider = "plugin:NAME"`: the fetcher runs `elbowroom-source-NAME` and keeps what it prints.
@Suite struct SourcePluginTests {
    final class Harness: @unchecked Sendable {
        let sandbox = try! Sandbox()
        let clock = FixedClock(Date())
        var sources: String { sandbox.configHome + "/elbowroom/sources" }

        init(script: String, name: String = "test", timeout: Double = 3) throws {
            try FileManager.default.createDirectory(atPath: sources, withIntermediateDirectories: true)
            try install(script, name: name)
            sandbox.extra = ["ELBOWROOM_PROVIDER": "plugin:" + name, "ELBOWROOM_ACCOUNT": "gem",
                             "CLAUDE_CODE_OAUTH_TOKEN": "sk-ant-oat01-SECRET-in-env", "OPENAI_API_KEY": "sk-SECRET-openai"]
            try sandbox.writeConfig("timeout = \(timeout)\n")
        }

        func install(_ script: String, name: String) throws {
            // Core's writer opens with O_CLOEXEC: a child another test forks meanwhile must not
            // inherit a write descriptor, or exec fails with "text file busy".
            try FileSystem.writeAtomically(Data(script.utf8), to: sources + "/elbowroom-source-" + name, mode: 0o755)
        }

        deinit { sandbox.cleanup() }

        func run(_ urgency: FetchUrgency = .now) -> FetchReport {
            FetchCoordinator(context: FetchContext(environment: sandbox.elbowroomEnvironment, credentialSourceKind: .file,
                                                   clock: clock.function)).run(urgency: urgency)
        }

        var cache: CacheFile? { CacheStore(paths: sandbox.paths).load() }
    }

    static let reading = #"{"version":1,"plan":"free","windows":[{"key":"5h","label":"Requests","used":37,"resets_at":"2030-01-01T00:00:00Z"},{"key":"seven_day","left":25,"resets_at":1893456000}]}"#

    @Test func whatThePluginPrintsIsTheAccountsReading() throws {
        let h = try Harness(script: "#!/bin/sh\ncat > \"$HOME/request.json\"\necho '\(Self.reading)'\n")
        #expect(h.run().result == .fetched)
        let windows = try #require(h.cache?.reading?.windows)
        #expect(windows.map(\.key) == ["five_hour", "seven_day"])
        #expect(windows.map(\.used) == [37, 75])
        #expect(windows.first?.label == "Requests")
        #expect(h.cache?.reading?.plan == "free")
        let request = try String(contentsOfFile: h.sandbox.home + "/request.json", encoding: .utf8)
        #expect(request.contains(#""account":"gem""#))
    }

    @Test func thePluginGetsACleanEnvironmentWithoutSecrets() throws {
        let h = try Harness(script: "#!/bin/sh\nenv > \"$HOME/env.txt\"\necho '\(Self.reading)'\n")
        #expect(h.run().result == .fetched)
        let env = try String(contentsOfFile: h.sandbox.home + "/env.txt", encoding: .utf8)
        #expect(!env.contains("SECRET"))
        #expect(!env.contains("CLAUDE_CONFIG_DIR"), "nothing but the few variables it is given")
        #expect(env.contains("ELBOWROOM_ACCOUNT=gem"))
        #expect(env.contains("HOME=" + h.sandbox.home))
    }

    @Test func aPluginThatDoesNotFinishInTimeIsKilledAndAFailure() throws {
        let h = try Harness(script: "#!/bin/sh\nsleep 30\n", timeout: 0.5)
        let started = Date()
        let report = h.run()
        #expect(report.result.failure?.outcome == .timeout)
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(h.cache?.fetch.lastOutcome == .timeout)
        #expect(h.run(.whenDue).result.failure == nil, "the backoff holds: no second run")
        // Named as the plugin's failure, not Anthropic's usage api's.
        #expect(h.cache?.fetch.message?.hasPrefix("source plugin ") == true && h.cache?.fetch.message?.contains("usage api") == false,
                "\(h.cache?.fetch.message ?? "")")
    }

    @Test func aPluginThatFailsIsNamedInTheMessage() throws {
        let h = try Harness(script: "#!/bin/sh\nexit 3\n")
        _ = h.run()
        let message = h.cache?.fetch.message ?? ""
        #expect(message.hasPrefix("cannot reach source plugin ") && message.hasSuffix(": it exited with status 3"), "\(message)")
    }

    @Test func anOutputOverTheCapIsAFailure() throws {
        let h = try Harness(script: "#!/bin/sh\nhead -c 200000 /dev/zero | tr '\\\\0' ' '\necho '\(Self.reading)'\n")
        #expect(h.run().result.failure?.outcome == .undecodable)
    }

    @Test func aPluginsOwnVerdictIsShownLikeAnyFetchFailure() throws {
        let h = try Harness(script: #"#!/bin/sh"# + "\n" + #"echo '{"version":1,"status":"signed_out","error":"log in to gemini"}'"# + "\n")
        let report = h.run()
        #expect(report.result.failure?.outcome == .signedOut)
        #expect(h.cache?.fetch.message?.contains("log in to gemini") == true)
    }

    @Test func aMissingPluginIsAConfigFailure() throws {
        let h = try Harness(script: "#!/bin/sh\n", name: "other")
        h.sandbox.extra["ELBOWROOM_PROVIDER"] = "plugin:absent"
        #expect(h.run().result.failure?.description.contains("elbowroom-source-absent not found") == true)
    }

    @Test func aPluginAnotherUserCouldChangeIsNotRun() throws {
        let h = try Harness(script: "#!/bin/sh\ntouch \"$HOME/ran\"\necho '\(Self.reading)'\n")
        let plugin = h.sources + "/elbowroom-source-test"
        for (path, mode) in [(plugin, mode_t(0o777)), (plugin, 0o775), (h.sources, 0o777), (h.sources, 0o770)] {
            chmod(plugin, 0o755); chmod(h.sources, 0o755)
            chmod(path, mode)
            let report = h.run(.force)
            #expect(report.result.failure?.outcome == .config, "\(path) \(String(mode, radix: 8))")
            let message = h.cache?.fetch.message ?? ""
            #expect(message.contains("source plugin elbowroom-source-test refused: another user could change it"), "\(message)")
            #expect(!message.contains(h.sandbox.root), "no path in what serve may show: \(message)")
            #expect(!FileManager.default.fileExists(atPath: h.sandbox.home + "/ran"), "the plugin ran")
        }
        chmod(plugin, 0o755); chmod(h.sources, 0o755)
        #expect(h.run(.force).result == .fetched)
        #expect(FileManager.default.fileExists(atPath: h.sandbox.home + "/ran"))
    }

    @Test func theShippedExamplePluginWorks() throws {
        let example = try String(contentsOfFile: ShippedRoot.path + "/integrations/sources/elbowroom-source-example", encoding: .utf8)
        let h = try Harness(script: example, name: "example")
        #expect(h.run().result.failure?.outcome == .signedOut, "no usage file yet")
        let state = h.sandbox.home + "/.local/state/example-agent"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        try "five_hour 37 1893456000\nseven_day 59 1893456000\n".write(toFile: state + "/usage", atomically: true, encoding: .utf8)
        #expect(h.run(.force).result == .fetched)
        #expect(h.cache?.reading?.windows.map(\.used) == [37, 59])
    }
}

/// The package root, from this file's place in it.
enum ShippedRoot {
    static let path: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()
}
