import Foundation
import ElbowroomCore
import ElbowroomTestSupport
import Testing

/// The built executables against the loopback stand-in for Anthropic.
@Suite struct EndToEndRenderTests {
    @Test func rendererReturnsAtOnceWhileTheServerHangs() throws {
        let e = try EndToEnd(usage: .hang)
        try e.seedCache(fiveHour: 20, age: 600)
        let run = try e.run(["-a", "plain", "-t", "{5h.left}% {status}"])
        #expect(run.status == 0)
        #expect(run.stdout == "80% ok\n")
        // The server hangs for the whole request timeout (3 s); the prompt must not.
        #expect(run.seconds < 2, "render took \(run.seconds)s while the API hung")
        #expect(Eventually.within(5) { e.usageRequests == 1 }, "the detached fetcher reached the server")
    }

    @Test func firstRunFetchesAndShowsRealNumbers() throws {
        let e = try EndToEnd()
        let run = try e.run(["-t", "{5h.left}% {7d.left}% {status}"])
        #expect(run.stdout == "37% 59% ok\n")
        #expect(e.usageRequests == 1)
        let request = try #require(e.server.requests(path: FakeAnthropic.usagePath).first)
        #expect(request.header("anthropic-beta") == "oauth-2025-04-20")
        #expect(request.header("User-Agent")?.hasPrefix("claude-cli/") == true)
        // Fresh now: the next render reads the cache and asks nobody.
        let again = try e.run(["-t", "{5h.left}%"])
        #expect(again.stdout == "37%\n")
        usleep(300_000)
        #expect(e.usageRequests == 1)
        #expect(!e.sandbox.cacheContents().contains("sk-ant"))
    }

    @Test func fetchLeavesNothingOutsideTheCacheDirectory() throws {
        // corelibs Foundation would create ~/.local/share/<bin dir> and
        // $XDG_CACHE_HOME/org.swift.foundation.URLCache for its unused cookie store and URL cache.
        let e = try EndToEnd()
        let before = Self.tree(e.sandbox.root)
        let run = try e.run(["fetch", "--force"])
        #expect(run.status == 0, "\(run.stderr)")
        let added = Self.tree(e.sandbox.root).subtracting(before)
        let cache = e.sandbox.cacheHome + "/elbowroom"
        #expect(!added.isEmpty)
        #expect(added.allSatisfy { $0 == cache || $0.hasPrefix(cache + "/") }, "outside the cache: \(added.sorted())")
    }

    /// Every path under `root`.
    static func tree(_ root: String) -> Set<String> {
        var paths: Set<String> = []
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let relative = enumerator?.nextObject() as? String { paths.insert(root + "/" + relative) }
        return paths
    }

    @Test func fetchJSONPrintsTheReadingAndRateLimitsAreObeyed() throws {
        let e = try EndToEnd()
        let fetched = try e.run(["fetch", "--json"])
        #expect(fetched.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(fetched.stdout.utf8)) as? [String: Any])
        #expect(json["status"] as? String == "fetched")
        #expect(json["schema"] as? Int == 2)
        #expect(json["account"] is NSNull, "no [accounts.NAME]: no account name")
        #expect((json["login"] as? String)?.hasSuffix("/home/.claude/.credentials.json") == true, "\(fetched.stdout)")
        #expect((json["windows"] as? [[String: Any]])?.first?["key"] as? String == "five_hour")

        e.anthropic.configure { $0.usageReply = .rateLimited(retryAfter: "1800") }
        let limited = try e.run(["fetch"])
        #expect(limited.status == 1)
        #expect(e.usageRequests == 2)
        let shown = try e.run(["-t", "{5h.left}% {status}"])
        #expect(shown.stdout == "37% rate_limited\n", "last good numbers stay on screen")
        let again = try e.run(["fetch"])
        #expect(again.stderr.contains("rate limited"))
        #expect(e.usageRequests == 2, "nobody asks again during the cooldown")
        _ = try e.run(["fetch", "--force"])
        #expect(e.usageRequests == 3, "--force ignores the cooldown")
    }

    @Test func signedOutShowsAHintAndExitsZero() throws {
        let e = try EndToEnd()
        try e.sandbox.writeCredentials(#"{"claudeAiOauth":{"accessToken":"","refreshToken":"","expiresAt":0}}"#)
        let run = try e.run(["-t", "{status}: {error}"])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("signed_out: "))
        #expect(e.usageRequests == 0)
    }

    @Test func claudeStatusLineFeedsTheCacheForEveryoneElse() throws {
        let e = try EndToEnd(usage: .hang)
        try e.seedCache(fiveHour: 10, age: 30)
        let reset = Int(Date().addingTimeInterval(3600).timeIntervalSince1970)
        let stdin = #"{"model":{"display_name":"Opus"},"rate_limits":{"five_hour":{"used_percentage":25,"resets_at":\#(reset)},"seven_day":{"used_percentage":50,"resets_at":\#(reset + 86400)}}}"#
        let claude = try e.run(["-a", "claude"], stdin: stdin)
        #expect(claude.status == 0)
        #expect(claude.stdout.contains("Opus"))
        #expect(claude.stdout.contains("75%"))
        let tmux = try e.run(["-a", "tmux", "--offline", "-t", "{5h.left}% {7d.left}%"])
        #expect(tmux.stdout == "75%% 50%%\n" || tmux.stdout == "75% 50%\n")
        #expect(e.usageRequests == 0)
    }

    @Test func brokenTemplateStillShowsAReasonInTheBar() throws {
        let e = try EndToEnd()
        let waybar = try e.run(["-a", "waybar", "-t", "{5h.lft}"])
        #expect(waybar.status == 0, "waybar hides a module that exits non-zero")
        #expect(waybar.stdout.contains(#""class":"error""#))
        #expect(waybar.stderr.contains("template:1:2: error: unknown variable '5h.lft'"))
        let plain = try e.run(["-t", "{5h.lft}"])
        #expect(plain.status == 2)
    }
}
