import Foundation
import Testing
import ElbowroomCore
@testable import ElbowroomFetch
import ElbowroomTestSupport

/// What a flaky proxy, a middlebox or a hostile server can send, against the platform's real
/// transport. Each of these once crashed the fetcher, inflated a bomb or outlived its deadline.
@Suite struct HostileTransportTests {
    static let token = "sk-ant-oat01-hostile-transport-token-0123456789"
    let now = Date(timeIntervalSince1970: 1_795_000_000)

    func fetch(_ server: LoopbackHTTPServer, timeout: TimeInterval = 5) -> Result<Reading, FetchError> {
        let client = UsageClient(apiBase: URL(string: server.baseURL)!, transport: PlatformTransport.make(), timeout: timeout)
        do {
            return .success(try client.fetch(accessToken: Self.token, plan: nil, now: now))
        } catch {
            return .failure(error)
        }
    }

    /// An answer cut off inside its headers used to stop the process inside FoundationNetworking
    /// ("Transfer completed, but there's no response"): here it is a network failure like any other.
    @Test(arguments: [
        "HTTP/1.1 200 OK\r\nContent-Le",
        "HTTP/1.1 200 OK\r\n",
        "HTTP/1.1 200",
        "HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\n{\"five_hour\":",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"fiv",
    ])
    func anAnswerCutOffIsANetworkFailure(raw: String) throws {
        let server = try LoopbackHTTPServer { _ in .raw(Data(raw.utf8)) }
        defer { server.stop() }
        guard case .failure(let error) = fetch(server) else {
            Issue.record("a cut-off answer gave a reading")
            return
        }
        #expect(error.outcome == .network, "\(error)")
    }

    /// The token endpoint cut off the same way: the refresh fails as a network failure, and the
    /// stored tokens are left as they were.
    @Test func aTokenAnswerCutOffIsANetworkFailure() throws {
        let server = try LoopbackHTTPServer { _ in .raw(Data("HTTP/1.1 200 OK\r\nContent-Le".utf8)) }
        defer { server.stop() }
        let refresher = TokenRefresher(tokenURL: URL(string: server.baseURL + "/v1/oauth/token")!,
                                       transport: PlatformTransport.make(), timeout: 5)
        #expect(throws: FetchError.self) { try refresher.refresh(refreshToken: "sk-ant-ort01-x", now: now) }
        do {
            _ = try refresher.refresh(refreshToken: "sk-ant-ort01-x", now: now)
        } catch {
            #expect(error.outcome == .network, "\(error)")
        }
    }

    /// We ask for identity encoding and never inflate: a gzip body that would be valid usage
    /// JSON once inflated stays compressed bytes, which do not parse.
    @Test func aCompressedBodyIsNeverInflated() throws {
        let json = Data(UsageFixtures.flat.utf8)
        let gzip = try Self.gzip(json)
        let server = try LoopbackHTTPServer { _ in
            .respond(status: 200, headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")], body: gzip)
        }
        defer { server.stop() }
        let result = fetch(server)
        let request = try #require(server.requests.first)
        #expect(request.header("Accept-Encoding") == "identity")
        guard case .failure(let error) = result else {
            Issue.record("the gzip body was inflated into a reading")
            return
        }
        #expect(error.outcome == .undecodable)
    }

    /// An endless body is cut at the cap as it arrives, not after it was collected.
    @Test func anEndlessBodyStopsAtTheCap() throws {
        let head = Data("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n".utf8)
        let server = try LoopbackHTTPServer { _ in .flood(head: head, chunk: Data(repeating: 0x20, count: 64 * 1024)) }
        defer { server.stop() }
        let started = Date()
        let result = fetch(server, timeout: 10)
        #expect(Date().timeIntervalSince(started) < 5)
        guard case .failure(let error) = result else {
            Issue.record("an endless body gave a reading")
            return
        }
        #expect(error.outcome == .undecodable, "\(error)")
    }

    /// A server that never answers, or trickles a byte at a time, never outlives the deadline.
    @Test(arguments: [ServerReply.hang, .flood(head: Data("HTTP/1.1 200 OK\r\nX-Slow: ".utf8), chunk: Data("a".utf8)), .drip(interval: 0.05)])
    func aSlowServerEndsAtTheDeadline(reply: ServerReply) throws {
        let server = try LoopbackHTTPServer { _ in reply }
        defer { server.stop() }
        let started = Date()
        let result = fetch(server, timeout: 1)
        let took = Date().timeIntervalSince(started)
        #expect(took < 2.5, "took \(took)s against a 1 s timeout")
        guard case .failure(let error) = result else {
            Issue.record("a trickle gave a reading")
            return
        }
        #expect([.timeout, .undecodable, .network].contains(error.outcome), "\(error)")
    }

    /// The documented IPv6 loopback works (it failed with "network error (-1000)").
    @Test func theIPv6LoopbackWorks() throws {
        let server = try LoopbackHTTPServer(ipv6: true) { _ in .json(200, UsageFixtures.flat) }
        defer { server.stop() }
        #expect(server.baseURL.hasPrefix("http://[::1]:"))
        let reading = try fetch(server).get()
        #expect(reading.window(key: "five_hour")?.used == 12.5)
    }

    /// Header names and values cannot smuggle a line of their own onto the wire.
    @Test func aHeaderValueCannotAddALine() throws {
        let server = try LoopbackHTTPServer { _ in .json(200, UsageFixtures.flat) }
        defer { server.stop() }
        let request = HTTPRequest(url: URL(string: server.baseURL + "/x")!,
                                  headers: [("User-Agent", "a\r\nX-Injected: yes")], timeout: 5)
        _ = try PlatformTransport.make().send(request)
        let recorded = try #require(server.requests.first)
        #expect(recorded.header("X-Injected") == nil)
        #expect(recorded.header("User-Agent") == "aX-Injected: yes")
    }

    /// Every cut of a real answer, at every byte: never a reading that is not the whole answer,
    /// never a crash, always a failure the fetch state can record (the suite's figure: one input
    /// per byte of the answer).
    @Test func everyCutOfARealAnswerIsAFailureNeverACrash() throws {
        let body = UsageFixtures.flat
        let whole = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body
        let bytes = Array(whole.utf8)
        let cut = LockedCounter()
        let server = try LoopbackHTTPServer { _ in .raw(Data(bytes.prefix(cut.value))) }
        defer { server.stop() }
        var outcomes: [FetchOutcome: Int] = [:]
        for length in 0..<bytes.count {
            cut.value = length
            switch fetch(server, timeout: 5) {
            case .success: Issue.record("a cut at \(length) of \(bytes.count) bytes gave a reading")
            case .failure(let error): outcomes[error.outcome, default: 0] += 1
            }
        }
        #expect(outcomes.values.reduce(0, +) == bytes.count)
        #expect(Set(outcomes.keys).isSubset(of: [.network, .undecodable]), "\(outcomes)")
    }

    /// Whatever encoding a server claims, the bytes are what was sent: nothing is inflated.
    @Test(arguments: ["gzip", "deflate", "br", "zstd", "gzip, gzip"])
    func noContentEncodingIsDecoded(encoding: String) throws {
        let noise = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 7) })
        let server = try LoopbackHTTPServer { _ in
            .respond(status: 200, headers: [("Content-Encoding", encoding)], body: noise)
        }
        defer { server.stop() }
        let response = try PlatformTransport.make().send(HTTPRequest(url: URL(string: server.baseURL + "/x")!, timeout: 5))
        #expect(response.body == noise)
    }

    static func gzip(_ data: Data) throws -> Data {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("elbowroom-gzip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("body")
        try data.write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-n", file.path]
        try process.run()
        process.waitUntilExit()
        return try Data(contentsOf: dir.appendingPathComponent("body.gz"))
    }
}

final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = 0
    var value: Int {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}
