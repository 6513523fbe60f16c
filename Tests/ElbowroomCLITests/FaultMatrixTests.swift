import Foundation
import ElbowroomCore
import ElbowroomTestSupport
import Testing

/// Every way the usage endpoint can fail, through the built executables: `fetch` returns within
/// the timeout + 1 s, the last good numbers stay on screen with an honest `{status}`, the
/// cooldown is written to the cache and obeyed by the next process (a plain render and a plain
/// `fetch` ask nobody), and everything recovers once the fault clears.
@Suite struct FaultMatrixTests {
    static let timeout: TimeInterval = 2

    struct Fault: Sendable, CustomTestStringConvertible {
        var name: String
        var reply: ServerReply
        /// What `{status}` says afterwards.
        var status: String
        /// The cooldown the cache must hold, within a few seconds (nil: the failure backoff, > 0).
        var cooldown: TimeInterval? = nil
        var config = ""
        /// The stored access token is not the valid one (a 401 until refreshed).
        var staleToken = false
        /// Point the API at a port nobody listens on.
        var refused = false
        var testDescription: String { name }
    }

    static let httpDate: String = {
        var t = time(nil) + 600
        var parts = tm()
        gmtime_r(&t, &parts)
        var buffer = [Int8](repeating: 0, count: 64)
        let n = strftime(&buffer, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    static let forbiddenScope = #"{"type":"error","error":{"type":"permission_error","message":"OAuth token does not meet scope requirement user:profile","details":{"error_code":"oauth_scope_insufficient"}}}"#

    static let faults: [Fault] = [
        Fault(name: "401, refresh allowed", reply: .json(200, EndToEnd.usageBody(fiveHour: 63, sevenDay: 41)),
              status: "ok", config: "refresh = \"always\"\n", staleToken: true),
        Fault(name: "401, refresh not allowed", reply: .json(200, "{}"), status: "expired",
              config: "refresh = \"never\"\n", staleToken: true),
        // A 403 whose body is an Anthropic error (`error.type` a string) refuses this token: as
        // Claude Code, not asked again for an hour (CLAUDE-CODE.md, corrected 2026-11-27: both
        // bodies seen on the wire). Any other 403 (a proxy's page, no body) is rate limiting.
        Fault(name: "403 anthropic error", reply: .json(403, #"{"type":"error","error":{"type":"permission_error","message":"forbidden"}}"#), status: "signed_out", cooldown: 3600),
        Fault(name: "403 oauth_scope_insufficient", reply: .json(403, forbiddenScope), status: "signed_out", cooldown: 3600),
        Fault(name: "403 plain", reply: .status(403, body: "<html>Forbidden</html>"), status: "rate_limited", cooldown: 300),
        Fault(name: "403 json without an error type", reply: .json(403, #"{"message":"forbidden"}"#), status: "rate_limited", cooldown: 300),
        Fault(name: "429 Retry-After seconds", reply: .rateLimited(retryAfter: "1800"), status: "rate_limited", cooldown: 1800),
        Fault(name: "429 Retry-After HTTP-date", reply: .rateLimited(retryAfter: httpDate), status: "rate_limited", cooldown: 600),
        Fault(name: "429 Retry-After 0", reply: .rateLimited(retryAfter: "0"), status: "rate_limited", cooldown: 300),
        Fault(name: "429 Retry-After huge", reply: .rateLimited(retryAfter: "99999999999999999999"), status: "rate_limited", cooldown: 3600),
        Fault(name: "429 without Retry-After", reply: .rateLimited(retryAfter: nil), status: "rate_limited", cooldown: 300),
        Fault(name: "500", reply: .status(500, body: "oops"), status: "offline"),
        Fault(name: "502", reply: .status(502, body: "<html>bad gateway</html>"), status: "offline"),
        Fault(name: "503", reply: .status(503, headers: [("Retry-After", "120")]), status: "offline"),
        Fault(name: "hang past the timeout", reply: .hang, status: "offline"),
        Fault(name: "connection refused", reply: .hang, status: "offline", refused: true),
        Fault(name: "connection dropped mid-body", reply: .cutOffMidBody, status: "offline"),
        Fault(name: "connection dropped before a byte", reply: .drop, status: "offline"),
        Fault(name: "body not JSON", reply: .garbage, status: "offline"),
        Fault(name: "JSON of the wrong shape", reply: .json(200, #"{"error":{"type":"api_error"}}"#), status: "offline"),
        Fault(name: "JSON array", reply: .json(200, "[1,2,3]"), status: "offline"),
        Fault(name: "20 MiB body", reply: .oversized(bytes: 20 << 20), status: "offline"),
        Fault(name: "redirect", reply: .redirect(to: "/followed"), status: "offline"),
        Fault(name: "slow drip that never ends", reply: .drip(interval: 0.2), status: "offline"),
    ]

    func cooldownRemaining(_ e: EndToEnd) -> TimeInterval? {
        CacheStore(paths: e.sandbox.paths).load()?.fetch.cooldownUntil.map { $0.timeIntervalSinceNow }
    }

    @Test(arguments: faults)
    func oneShotRenderAndFetchStayHonestAndRecover(_ fault: Fault) throws {
        let e = try EndToEnd(usage: fault.reply)
        try e.sandbox.writeConfig("timeout = \(Int(Self.timeout))\n" + fault.config)
        if fault.staleToken { e.anthropic.configure { $0.validAccessToken = "sk-ant-oat01-ROTATED-ELSEWHERE-000" } }
        if fault.refused { e.sandbox.extra["ELBOWROOM_API_URL"] = "http://127.0.0.1:1" }
        try e.seedCache(fiveHour: 20, age: 600)  // last good: 80 % left, a refresh is due

        // fetch: bounded by the timeout (+1 s, +start-up of two processes).
        let fetched = try e.run(["fetch"])
        #expect(fetched.seconds < Self.timeout + 1.5, "fetch took \(fetched.seconds)s")
        let succeeded = fault.status == "ok"
        #expect(fetched.status == (succeeded ? 0 : 1), "\(fetched.stderr)")
        #expect(!fetched.stderr.contains("sk-ant"), "no token in messages")

        // The numbers and an honest status.
        let shown = try e.run(["--offline", "-t", "{5h.left}% {status}"])
        #expect(shown.status == 0)
        #expect(shown.stdout == (succeeded ? "37% ok\n" : "80% \(fault.status)\n"))
        if succeeded { return }

        // The cooldown is in the cache, and the next processes obey it.
        let remaining = try #require(cooldownRemaining(e), "no cooldown recorded")
        if let expected = fault.cooldown {
            // The HTTP date was fixed when the table was built, maybe a while ago on a busy machine.
            #expect(remaining <= expected + 5 && remaining > expected - 120, "cooldown \(remaining)s, expected \(expected)s")
        } else {
            #expect(remaining > 0)
        }
        let asked = e.server.requests.count
        let render = try e.run(["-t", "{5h.left}% {status}"])
        #expect(render.seconds < 1.5, "a render never waits on the network")
        #expect(render.stdout == "80% \(fault.status)\n")
        let again = try e.run(["fetch"])
        #expect(again.stderr.contains("skipped") || again.stderr.contains("not before"), "\(again.stderr)")
        usleep(300_000)
        #expect(e.server.requests.count == asked, "nobody asks during the cooldown")

        // Recovery once the fault clears.
        e.sandbox.extra["ELBOWROOM_API_URL"] = e.server.baseURL
        e.anthropic.configure { $0.usageReply = .json(200, EndToEnd.usageBody(fiveHour: 50, sevenDay: 10)) }
        if fault.staleToken {
            let token = e.anthropic.validAccessToken
            _ = try e.sandbox.writeCredentials(accessToken: token, refreshToken: e.anthropic.validRefreshToken,
                                               expiresAt: Date().addingTimeInterval(3600))
        }
        let forced = try e.run(["fetch", "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        let recovered = try e.run(["--offline", "-t", "{5h.left}% {status}"])
        #expect(recovered.stdout == "50% ok\n")
    }

    @Test(arguments: faults.filter { ["hang past the timeout", "500", "429 Retry-After seconds", "slow drip that never ends"].contains($0.name) })
    func watchKeepsTheLastGoodNumbersThroughTheFault(_ fault: Fault) throws {
        let e = try EndToEnd(usage: fault.reply)
        try e.sandbox.writeConfig("timeout = \(Int(Self.timeout))\n")
        try e.seedCache(fiveHour: 20, age: 600)
        let watch = try EndToEndWatchTests.Watch(e, ["-a", "plain", "--interval", "0.2", "-t", "{5h.left}% {status}"])
        #expect(watch.waitForLines(1))
        #expect(watch.lines.first == "80% ok" || watch.lines.first == "80% stale")
        #expect(Eventually.within(Self.timeout + 2) { watch.lines.contains("80% \(fault.status)") }, "\(watch.lines)")
        let asked = e.usageRequests
        usleep(1_000_000)
        #expect(e.usageRequests == asked, "watch obeys the cooldown too")
        kill(watch.process.processIdentifier, SIGTERM)
        #expect(watch.exitStatus(within: 3) == 0)
    }
}
