import Foundation
import Testing
import ElbowroomCore
@testable import ElbowroomFetch
import ElbowroomTestSupport

/// What the built fetcher does beside its requests: no proxy for loopback, nothing on disk but
/// its own cache, no cookies.
@Suite(.serialized) struct NetworkHygieneTests {
    static func run(_ arguments: [String], env: [String: String]) throws -> BuiltExecutable.Run {
        let binary = try #require(BuiltExecutable.path("elbowroom-fetch"), "build elbowroom-fetch first")
        return try BuiltExecutable.run(binary, arguments: arguments, environment: env)
    }

    @Test func noProxyEverSeesALoopbackRequest() throws {
        let h = try FetchHarness(validAccess: "will-be-issued")
        let proxy = try LoopbackHTTPServer { _ in .status(502) }
        defer { proxy.stop() }
        try h.sandbox.writeConfig("refresh = \"always\"\n")
        try h.writeExpiredLogin()
        var env = h.sandbox.environment
        for name in ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] {
            env[name] = proxy.baseURL
        }
        // A hostile environment: nothing exempted.
        env["no_proxy"] = ""
        env["NO_PROXY"] = ""
        let run = try Self.run(["--urgency", "now"], env: env)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(h.tokenRequests.count == 1)
        #expect(h.usageRequests.count == 1)
        #expect(proxy.connectionCount == 0)
        #expect(proxy.requests.isEmpty)
    }

    @Test func fetchesLeaveNothingOnDiskButTheCacheAndItsHistoryAndKeepNoCookies() throws {
        let h = try FetchHarness(validAccess: "will-be-issued")
        try h.sandbox.writeConfig("refresh = \"always\"\n")
        // Every answer tries to set a cookie and to be cached.
        let fake = h.fake
        h.server.setHandler { request in
            guard case .respond(let status, let headers, let body) = fake.handle(request) else { return fake.handle(request) }
            return .respond(status: status, headers: headers + [("Set-Cookie", "session=tracked; Path=/; Max-Age=86400"),
                                                                ("Cache-Control", "public, max-age=86400")], body: body)
        }
        // Not expired but rejected: a 401, a refresh and a retry, all in one process.
        try h.sandbox.writeCredentials(accessToken: Tokens.access, refreshToken: Tokens.refresh, expiresAt: h.valid)
        let before = h.sandbox.allPaths()
        for _ in 0..<2 {
            let run = try Self.run(["--urgency", "force"], env: h.sandbox.environment)
            #expect(run.status == 0, "\(run.stderr)")
        }
        #expect(h.server.requests.count == 4)
        #expect(h.server.requests.allSatisfy { $0.header("Cookie") == nil })

        let key = h.sandbox.paths.accountKey
        // The daily summaries are written once a day is over: whether this run crossed midnight
        // (UTC) since the history began decides whether there is one yet.
        let created = h.sandbox.allPaths().subtracting(before).subtracting(["cache/elbowroom/usage-\(key).daily"])
        #expect(created == ["cache/elbowroom", "cache/elbowroom/usage-\(key).json", "cache/elbowroom/usage-\(key).lock",
                            "cache/elbowroom/usage-\(key).fetch.lock", "cache/elbowroom/usage-\(key).history",
                            "cache/elbowroom/usage-\(key).digest"])
    }
}
