import Foundation
import Testing
import ElbowroomCore
import ElbowroomTestSupport
@testable import ElbowroomCLI

/// `serve` answers only requests whose `Host` names this server: a web page that rebinds its own
/// name to 127.0.0.1 sends that name, and gets 421 on every path (the built program, raw sockets).
@Suite(.serialized) struct ServeHostTests {
    static let paths = ["/metrics", "/v1/usage", "/healthz", "/", "/nothing-here"]

    static func ask(_ port: UInt16, _ path: String = "/metrics", head: String) throws -> (status: Int, head: String, body: String) {
        try RawHTTP.request(port: port, "GET \(path) HTTP/1.1\r\n\(head)Connection: close\r\n\r\n")
    }

    @Test func onLoopbackOnlyLoopbackNamesWithTheBoundPortAreAnswered() throws {
        let e = try EndToEnd()
        try e.seedCache(fiveHour: 63, age: 5)
        let serve = try ServeProcess(elbowroom: e.elbowroom, environment: e.sandbox.environment, arguments: ["--offline"])
        let p = serve.port
        let good = ["127.0.0.1:\(p)", "127.0.0.1", "localhost:\(p)", "localhost", "LocalHost:\(p)", "LOCALHOST",
                    "[::1]:\(p)", "[::1]", "[0:0:0:0:0:0:0:1]:\(p)", "[0::1]"]
        for host in good {
            let answer = try Self.ask(p, head: "Host: \(host)\r\n")
            #expect(answer.status == 200, "Host: \(host) was refused: \(answer.head)")
        }
        let other = p == 65535 ? p - 1 : p + 1
        let hostile = [
            "rebind.attacker.example:\(p)", "rebind.attacker.example", "localhost.:\(p)", "localhost.",
            "127.0.0.1.:\(p)", "127.0.0.1:\(other)", "localhost:\(other)", "[::1]:\(other)", "127.0.0.1:",
            "localhost:80", "127.0.0.1.nip.io:\(p)", "localhost.attacker.example:\(p)", "attacker.localhost:\(p)",
            "127.1:\(p)", "2130706433:\(p)", "0x7f.0.0.1:\(p)", "0.0.0.0:\(p)", "[::]:\(p)", "[::ffff:127.0.0.1]:\(p)",
            "[127.0.0.1]:\(p)", "::1:\(p)", "[::1", "[::1]x", "[fe80::1%25lo]:\(p)", "", " ", "localhost:\(p):\(p)",
            "user@localhost:\(p)", "localhost:\(p)/", "localhost:+\(p)", "localhost:\(p)0000", "loca\u{0131}host:\(p)",
            "192.168.1.5:\(p)", "10.0.0.1",
        ]
        for host in hostile {
            for path in Self.paths {
                let answer = try Self.ask(p, path, head: "Host: \(host)\r\n")
                #expect(answer.status == 421, "Host: '\(host)' \(path) was answered \(answer.status)")
                #expect(!answer.body.contains("elbowroom_") && !answer.body.contains("\"windows\""), "data to Host: \(host)")
            }
        }
        // HEAD and any method: the same rule, before routing.
        let head = try RawHTTP.request(port: p, "HEAD /metrics HTTP/1.1\r\nHost: evil.example:\(p)\r\nConnection: close\r\n\r\n")
        #expect(head.status == 421 && head.body.isEmpty)
        let post = try RawHTTP.request(port: p, "POST /v1/usage HTTP/1.1\r\nHost: evil.example:\(p)\r\nContent-Length: 0\r\n\r\n")
        #expect(post.status == 421)
        // Two Host lines (good and bad in either order, or both good): 400, as RFC 9112 says.
        for pair in [("localhost:\(p)", "evil.example:\(p)"), ("evil.example:\(p)", "localhost:\(p)"), ("localhost", "localhost")] {
            let answer = try Self.ask(p, head: "Host: \(pair.0)\r\nHost: \(pair.1)\r\n")
            #expect(answer.status == 400, "two Host lines: \(answer.status)")
            let mixed = try Self.ask(p, head: "Host: \(pair.0)\r\nhOsT: \(pair.1)\r\n")
            #expect(mixed.status == 400)
        }
        // No Host: HTTP/1.1 requires one (400); HTTP/1.0 may leave it out, and no browser does.
        #expect(try RawHTTP.request(port: p, "GET /metrics HTTP/1.1\r\nConnection: close\r\n\r\n").status == 400)
        let old = try RawHTTP.request(port: p, "GET /metrics HTTP/1.0\r\n\r\n")
        #expect(old.status == 200 && old.body.contains("elbowroom_window_left_percent"))
        #expect(try RawHTTP.request(port: p, "GET /metrics HTTP/1.0\r\nHost: evil.example\r\n\r\n").status == 421)
        // A refused request on a kept-alive connection closes it: the next one is not read.
        let fd = try RawHTTP.connect(port: p)
        RawHTTP.send(fd, "GET /healthz HTTP/1.1\r\nHost: evil.example\r\n\r\nGET /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n")
        let both = RawHTTP.readAll(fd).text
        close(fd)
        #expect(both.hasPrefix("HTTP/1.1 421 Misdirected Request") && !both.contains("200 OK"), "\(both)")
        #expect(serve.stop()?.status == 0)
    }

    @Test func aWildcardBindAnswersAddressesAndTheAllowedNamesOnly() throws {
        let e = try EndToEnd()
        try e.seedCache(fiveHour: 63, age: 5)
        let serve = try ServeProcess(elbowroom: e.elbowroom, environment: e.sandbox.environment,
                                     arguments: ["--offline", "--allow-host", "Box.Lan", "--allow-host", "proxy.lan:443"],
                                     listen: "0.0.0.0:0")
        let p = serve.port
        for host in ["localhost:\(p)", "127.0.0.1:\(p)", "192.168.1.5:\(p)", "10.0.0.1", "box.lan:\(p)", "BOX.LAN", "proxy.lan:443"] {
            #expect(try Self.ask(p, head: "Host: \(host)\r\n").status == 200, "Host: \(host)")
        }
        for host in ["rebind.attacker.example:\(p)", "box.lan.:\(p)", "box.lan:1", "proxy.lan:\(p)", "proxy.lan", "sub.box.lan"] {
            #expect(try Self.ask(p, head: "Host: \(host)\r\n").status == 421, "Host: \(host)")
        }
        #expect(serve.stop()?.status == 0)
    }

    @Test func aLoopbackBindOnAnotherAddressAnswersThatAddress() throws {
        let e = try EndToEnd()
        let serve = try ServeProcess(elbowroom: e.elbowroom, environment: e.sandbox.environment,
                                     arguments: ["--offline"], listen: "127.0.0.1:0")
        let p = serve.port
        #expect(try Self.ask(p, head: "Host: 127.0.0.2:\(p)\r\n").status == 421, "another loopback address than the one bound")
        #expect(serve.stop()?.status == 0)
        // Any spelling of ::1 is loopback: no warning that other machines can reach it.
        #expect(try ListenAddress.parse("[0:0:0:0:0:0:0:1]:9478").isLoopback)
        #expect(try ListenAddress.parse("[::1]:9478").isLoopback)
        #expect(try !ListenAddress.parse("[::]:9478").isLoopback)
        let check = HostCheck(address: try ListenAddress.parse("127.0.0.2:0"), port: 9000)
        #expect(check.allows("127.0.0.2:9000") && check.allows("localhost:9000") && !check.allows("127.0.0.3:9000"))
    }

    @Test func allowHostTakesANameNotAURL() {
        let s = CLISandbox()
        #expect(s.run("serve", "--listen", "127.0.0.1:0", "--allow-host", "http://box.lan/") == 2)
        #expect(s.stderr.text.contains("--allow-host takes a host name or address"))
        let t = CLISandbox()
        #expect(t.run("render", "--allow-host", "box.lan") == 2)
        #expect(t.stderr.text.contains("'elbowroom serve'"))
    }
}
