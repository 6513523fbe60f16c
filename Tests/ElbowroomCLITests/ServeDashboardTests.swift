import Foundation
import Testing
import ElbowroomCore
import ElbowroomTestSupport
@testable import ElbowroomCLI

/// `serve`'s `GET /` through the built program, without a browser: its headers, its Host check,
/// and no path from the data on the page.
@Suite(.serialized) struct ServeDashboardTests {
    @Test func thePageNamesNoPathAndKeepsServesHostCheck() throws {
        let e = try ServeNoPathsTests.accountsFailingWithPaths()
        #expect(try e.run(["-a", "json", "--offline"]).stdout.contains(e.sandbox.root), "the failures name paths (else this proves nothing)")
        let serve = try ServeProcess(elbowroom: e.elbowroom, environment: e.sandbox.environment, arguments: ["--offline"])
        let page = try RawHTTP.get(port: serve.port, "/")
        #expect(page.status == 200)
        #expect(page.head.contains("Content-Type: text/html; charset=utf-8"))
        #expect(page.head.contains("Content-Security-Policy: \(DashboardPage.csp)"))
        #expect(page.head.contains("X-Frame-Options: DENY") && page.head.contains("Referrer-Policy: no-referrer"))
        for secret in [e.sandbox.root, e.sandbox.home, "/.codex/", "auth.json", "/sources"] {
            #expect(!page.body.contains(secret), "/ names \(secret)")
        }
        #expect(page.body.contains("(a path: see elbowroom doctor)"), "\(page.body)")
        #expect(page.body.contains("<h2 id=\"acct0\">X</h2>") && page.body.contains("<h2 id=\"acct1\">G</h2>"))
        // The markup itself is whole (the path cleaning went to the data only).
        #expect(page.body.contains("<style>\(DashboardPage.style)</style>"))
        #expect(page.body.hasSuffix("</html>\n"))
        // A name that is not this server's (DNS rebinding) gets no page.
        let rebound = try RawHTTP.request(port: serve.port, "GET / HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
        #expect(rebound.status != 200 && !rebound.body.contains("<html"), "\(rebound.head)")
        let head = try RawHTTP.request(port: serve.port, "HEAD / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        #expect(head.status == 200 && head.body.isEmpty)
        #expect(serve.stop()?.status == 0)
    }
}
