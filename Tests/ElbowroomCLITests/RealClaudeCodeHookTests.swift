import Foundation
import ElbowroomCore
import ElbowroomTestSupport
import Testing

/// `elbowroom hook` in the real Claude Code, with the settings `elbowroom init claude-hook`
/// prints: the stand-in Messages API sees its line with the prompt when a window is low, and
/// nothing of it when all is well. (In RealClaudeCodeTests' suite: serialized with its tests.)
extension RealClaudeCodeTests {
    /// The hooks of `elbowroom init claude-hook`, as printed.
    static func initClaudeHookSettings(_ elbowroom: String) throws -> [String: Any] {
        let run = try BuiltExecutable.run(elbowroom, arguments: ["init", "claude-hook"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(run.status == 0)
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    }

    /// A cache with these percents used, fetched 5 s ago, for a Claude Code session.
    static func seed(_ session: ClaudeSession, fiveHour: Double, sevenDay: Double) throws {
        let now = Date()
        try SeededCache.save([("five_hour", fiveHour, now.addingTimeInterval(3 * 3600)), ("seven_day", sevenDay, now.addingTimeInterval(3 * 86400))],
                             observed: now.addingTimeInterval(-5), paths: session.sandbox.paths)
    }

    /// Claude Code with the hook installed, on a cache with these windows' percent used,
    /// asked `prompt` (the stand-in answers `reply`): every text the Messages API was sent.
    static func askWithTheHook(_ prompt: String, reply: String, fiveHour: Double, sevenDay: Double) throws -> [String] {
        let elbowroom = try #require(BuiltExecutable.path("elbowroom"), "build the package first")
        let session = try ClaudeSession(settings: try initClaudeHookSettings(elbowroom))
        try seed(session, fiveHour: fiveHour, sevenDay: sevenDay)
        try session.start()
        try session.standin.configure(["reply": reply])
        try session.send(prompt)
        #expect(session.waitForScreen(reply), "\(session.snapshot())")
        return session.standin.sentTexts()
    }

    @Test func theHookTellsClaudeHowMuchIsLeftWhenAWindowIsLow() throws {
        let all = try Self.askWithTheHook("how much is left?", reply: "Understood, 6502.", fiveHour: 40, sevenDay: 88)
        // Claude Code may send more than one request for a prompt, in either order: the
        // conversation's carries the hook's line, a title request quotes only the prompt.
        let carrying = all.filter { $0.contains("how much is left?") }
        #expect(!carrying.isEmpty, "\(all)")
        #expect(carrying.contains { $0.contains("Weekly limit: 12% left, resets ") },
                "the hook's line did not reach the Messages API:\n\(carrying.joined(separator: "\n---\n"))")
        #expect(!all.contains { $0.contains("Session limit") }, "only the window that needs attention is named")
    }

    @Test func theHookAddsNothingWhenAllIsWell() throws {
        let all = try Self.askWithTheHook("all good?", reply: "Fine, 6800.", fiveHour: 40, sevenDay: 60)
        #expect(all.contains { $0.contains("all good?") }, "\(all)")
        #expect(!all.contains { $0.contains("limit:") || $0.contains("% left") }, "the hook said something with all well:\n\(all)")
    }
}
