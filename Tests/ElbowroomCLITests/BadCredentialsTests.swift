import Foundation
import ElbowroomCore
import ElbowroomTestSupport
import Testing

/// Credentials files as a real machine can leave them: a clear message, no crash, no token
/// request, and the file exactly as it was (bytes, mode, owner) when it could not be parsed.
@Suite struct BadCredentialsTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        /// What `doctor` and the fetch error must say.
        var says: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "corrupt", text: #"{"claudeAiOauth":{"accessToken":"sk-ant-oat01-x","#, says: "not valid json"),
        Case(name: "truncated", text: #"{"claudeAiOauth":{"accessToken":"sk-ant-oat01-E2E-ACCESS-0123456789","refreshToken":"sk-ant-ort01-E2E-RE"#, says: "not valid json"),
        Case(name: "empty", text: "", says: "not valid json"),
        Case(name: "not an object", text: "[1,2,3]", says: "not valid json"),
        Case(name: "logged out", text: #"{"claudeAiOauth":{"accessToken":"","refreshToken":"","expiresAt":0}}"#, says: "logged out"),
        Case(name: "mcp only", text: #"{"mcpOAuth":{"server":{"accessToken":"x"}}}"#, says: "mcp"),
    ]

    @Test(arguments: cases)
    func aBadFileIsExplainedAndNeverRewritten(_ c: Case) throws {
        let e = try EndToEnd()
        try e.sandbox.writeConfig("timeout = 2\nrefresh = \"always\"\n")
        let original = try e.sandbox.writeCredentials(c.text, mode: 0o640)
        let fetched = try e.run(["fetch"])
        #expect(fetched.status == 1)
        #expect(!fetched.stderr.isEmpty && fetched.stderr.count < 600, "a short, clear message: \(fetched.stderr.prefix(200))")
        #expect(!c.says.isEmpty ? fetched.stderr.lowercased().contains(c.says) || fetched.stderr.lowercased().contains("sign in") : true,
                "\(fetched.stderr)")
        let doctor = try e.run(["doctor"])
        #expect(doctor.status == 1)
        #expect(doctor.stdout.contains("FAIL credentials"), "\(doctor.stdout)")
        #expect(e.server.requests(path: FakeAnthropic.tokenPath).isEmpty, "no refresh from a file it cannot parse")
        #expect(e.sandbox.credentialsData() == original, "never rewritten")
        #expect(FileSystem.mode(of: e.sandbox.credentialsFile) == 0o640)
        let shown = try e.run(["-t", "{status}"])
        #expect(shown.status == 0 && !shown.stdout.isEmpty)
    }

    /// Claude Code's document grows with every MCP login: 3 MiB is a login like any other, and
    /// one past the 16 MiB limit is explained by its size, not as "not signed in".
    @Test func largeCredentialsWorkAndTooLargeOnesSaySo() throws {
        let e = try EndToEnd()
        let pad = String(repeating: "x", count: 3 << 20)
        let json = #"{"claudeAiOauth":{"accessToken":"\#(e.anthropic.validAccessToken)","refreshToken":"\#(e.anthropic.validRefreshToken)","expiresAt":4102444800000},"mcpOAuth":{"pad":"\#(pad)"}}"#
        _ = try e.sandbox.writeCredentials(json)
        let fetched = try e.run(["fetch"])
        #expect(fetched.status == 0, "\(fetched.stderr)")
        let doctor = try e.run(["doctor"]).stdout
        #expect(!doctor.contains("FAIL credentials"), "\(doctor)")
        let handle = try #require(FileHandle(forWritingAtPath: e.sandbox.credentialsFile))
        handle.truncateFile(atOffset: UInt64(16 << 20) + 1)
        handle.closeFile()
        let tooLarge = try e.run(["fetch", "--force"])
        #expect(tooLarge.status == 1)
        #expect(try e.run(["doctor"]).stdout.contains("more than the 16 MiB elbowroom reads"))
    }

    @Test func aSymlinkedFileIsRefreshedThroughTheLink() throws {
        let e = try EndToEnd()
        try e.sandbox.writeConfig("timeout = 2\nrefresh = \"always\"\n")
        _ = try e.sandbox.writeCredentials(accessToken: e.anthropic.validAccessToken, refreshToken: e.anthropic.validRefreshToken,
                                           expiresAt: Date().addingTimeInterval(-60))
        let target = e.sandbox.root + "/dotfiles-credentials.json"
        try FileManager.default.moveItem(atPath: e.sandbox.credentialsFile, toPath: target)
        try FileManager.default.createSymbolicLink(atPath: e.sandbox.credentialsFile, withDestinationPath: target)
        let fetched = try e.run(["fetch"])
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect(e.server.requests(path: FakeAnthropic.tokenPath).count == 1)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: e.sandbox.credentialsFile)) == target, "the link is kept")
        let saved = try #require(e.sandbox.credentialsObject())
        #expect((saved["claudeAiOauth"] as? [String: Any])?["refreshToken"] as? String == e.anthropic.validRefreshToken)
    }

    @Test func aRefreshKeepsTheFilesOwner() throws {
        guard getuid() == 0 else {
            print("skipping: changing a file's owner needs root")
            return
        }
        let e = try EndToEnd()
        try e.sandbox.writeConfig("timeout = 2\nrefresh = \"always\"\n")
        _ = try e.sandbox.writeCredentials(accessToken: e.anthropic.validAccessToken, refreshToken: e.anthropic.validRefreshToken,
                                           expiresAt: Date().addingTimeInterval(-60))
        #expect(chown(e.sandbox.credentialsFile, 65534, 65534) == 0)
        let fetched = try e.run(["fetch"])
        #expect(fetched.status == 0, "\(fetched.stderr)")
        var st = stat()
        #expect(stat(e.sandbox.credentialsFile, &st) == 0)
        #expect(st.st_uid == 65534 && st.st_gid == 65534, "a refresh run as root must not hand the user's login to root")
    }
}
