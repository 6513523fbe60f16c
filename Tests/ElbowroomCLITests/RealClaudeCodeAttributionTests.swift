import Foundation
import ElbowroomTestSupport
import Testing

/// The real Claude Code's status line feeds attribution: its `session_id`, model, project
/// directory and cost come with the rate-limit numbers, and `history --by session` names the
/// session that used the window (see `RealClaudeCodeTests` for the set-up).
@Suite(.serialized, .enabled(if: RealClaudeCode.available, RealClaudeCode.skipMessage))
struct RealClaudeCodeAttributionTests {
    @Test func historyBySessionNamesTheClaudeCodeSessionThatUsedTheWindow() throws {
        let session = try ClaudeSession(settings: [
            "statusLine": ["type": "command", "command": "elbowroom -a claude", "padding": 0, "refreshInterval": 1],
        ])
        try session.sandbox.writeConfig("source = \"statusline\"\n")
        try session.standin.configure(["ratelimit": Standin.rateLimitHeaders(fiveHour: 0.29, sevenDay: 0.06)])
        try session.start()
        #expect(session.waitForScreen("5h 71%"), "\(session.snapshot())")
        try session.standin.configure(["ratelimit": Standin.rateLimitHeaders(fiveHour: 0.554, sevenDay: 0.48),
                                       "reply": "Noted, 4711."])
        try session.send("hello")
        #expect(session.waitForScreen("5h 45%"), "\(session.snapshot())")

        let run = try session.runElbowroom(["history", "--by", "session", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)")
        let rows = try #require(object["rows"] as? [[String: Any]], "\(run.stdout)")
        #expect(rows.count == 1, "\(run.stdout)")
        let row = try #require(rows.first)
        let key = try #require(row["key"] as? String)
        #expect(UUID(uuidString: key) != nil, "Claude Code's session id: \(key)")
        #expect(row["points"] as? Double == 26.4, "\(run.stdout)")
        #expect(row["project"] as? String == session.project, "\(run.stdout)")
        #expect((row["model"] as? String)?.isEmpty == false, "\(run.stdout)")
        #expect((row["cost"] as? Double ?? 0) > 0, "\(run.stdout)")
    }
}
