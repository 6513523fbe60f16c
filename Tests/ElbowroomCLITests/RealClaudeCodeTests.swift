import Foundation
import ElbowroomTestSupport
import Testing

/// The real Claude Code (the native binary of the PyPI wheel `claude-agent-sdk`, see
/// `RealClaudeCode`) runs interactively in tmux against a loopback stand-in for Anthropic
/// (Tests/RealClaudeCode/standin.py), and elbowroom is used beside it as a user would.
/// Serialized: each test runs a 400 MB Claude Code, and two at once on a small machine only
/// makes both slow.
@Suite(.serialized, .enabled(if: RealClaudeCode.available, RealClaudeCode.skipMessage))
struct RealClaudeCodeTests {
    /// `elbowroom -a claude` as Claude Code's status line (on PATH, as a user has it), fed by the
    /// rate-limit headers of the stand-in's Messages answers.
    @Test func statusLineRunsElbowroomAndShowsTheNumbersOfTheRateLimitHeaders() throws {
        let session = try ClaudeSession(settings: [
            "statusLine": ["type": "command", "command": "elbowroom -a claude", "padding": 0, "refreshInterval": 1],
        ])
        // Claude Code's start-up request brings the first headers: 29 % and 6 % used.
        try session.standin.configure(["ratelimit": Standin.rateLimitHeaders(fiveHour: 0.29, sevenDay: 0.06)])
        try session.start()
        #expect(session.waitForScreen("5h 71%") && session.waitForScreen("7d 94%", seconds: 2), "\(session.snapshot())")

        // The next answer carries new numbers, and the status line follows them.
        try session.standin.configure(["ratelimit": Standin.rateLimitHeaders(fiveHour: 0.554, sevenDay: 0.48),
                                       "reply": "Noted, 4711."])
        try session.send("hello")
        #expect(session.waitForScreen("Noted, 4711."), "\(session.snapshot())")
        #expect(session.waitForScreen("5h 45%") && session.waitForScreen("7d 52%", seconds: 2), "\(session.snapshot())")
    }

    /// While Claude Code runs, elbowroom (`refresh = "auto"`) refreshes a token about to expire;
    /// Claude Code takes the new token from the file on its next request, never spends the
    /// rotated refresh token itself, and stays signed in.
    @Test func claudeCodeAdoptsTheTokenElbowroomRefreshedWhileItRuns() throws {
        let session = try ClaudeSession()
        try session.sandbox.writeConfig("timeout = 5\nrefresh = \"auto\"\n")
        try session.start()
        // Time passes: the token now expires in 30 s. elbowroom refreshes within a minute of
        // expiry; Claude Code within five minutes, but only when it next needs the token.
        try session.setExpiry(Date().addingTimeInterval(30))

        let run = try session.runElbowroom(["fetch", "--force", "--verbose"])
        let issued = session.standin.currentTokens
        let ours = session.standin.tokenRequests.filter { !$0.fromClaudeCode }
        #expect(ours.count == 1 && ours.first?.status == 200,
                "elbowroom did not refresh while Claude Code ran (status \(run.status)):\n\(run.stderr)\n\(session.snapshot())")
        #expect(ours.first?.json?["refresh_token"] as? String == ClaudeSession.initialRefresh)
        #expect(session.credentials()["accessToken"] as? String == issued.access)
        #expect(session.credentials()["refreshToken"] as? String == issued.refresh)

        let answeredBefore = session.standin.messagesRequests.count
        try session.standin.configure(["ratelimit": Standin.rateLimitHeaders(fiveHour: 0.2, sevenDay: 0.2),
                                       "reply": "Still signed in, 8642."])
        try session.send("are you there?")
        #expect(session.waitForScreen("Still signed in, 8642."), "\(session.snapshot())")
        let after = session.standin.messagesRequests.dropFirst(answeredBefore)
        #expect(!after.isEmpty && after.allSatisfy { $0.bearer == issued.access && $0.status == 200 },
                "Claude Code's requests after the refresh: \(after.map { "\($0.status) \($0.bearer == issued.access ? "new" : "other")" })")
        let claudeRefreshes = session.standin.tokenRequests.filter(\.fromClaudeCode)
        #expect(claudeRefreshes.count == 0, "Claude Code refreshed itself: \(claudeRefreshes.map { "\($0.status) \($0.body)" })")
        #expect(!session.standin.tokenRequests.contains { $0.status != 200 })
        // Signed in still, with elbowroom's tokens.
        #expect(session.credentials()["refreshToken"] as? String == issued.refresh)
        #expect(session.standin.currentTokens.refresh == issued.refresh)
        #expect(!session.screenText().contains("/login"), "\(session.snapshot())")
    }

    /// Claude Code refreshes (the stand-in keeps its token request in flight, so it holds its
    /// refresh locks for seconds); elbowroom, even with `refresh = "always"`, sends no token
    /// request meanwhile, and Claude Code's refresh succeeds.
    @Test func elbowroomSendsNoTokenRequestWhileClaudeCodeHoldsItsRefreshLocks() throws {
        let session = try ClaudeSession()
        try session.sandbox.writeConfig("timeout = 5\nrefresh = \"always\"\n")
        try session.start()
        try session.standin.configure(["ratelimit": Standin.rateLimitHeaders(fiveHour: 0.2, sevenDay: 0.2),
                                       "reply": "Refreshed and answered, 1357.", "token_delay": 8])
        try session.setExpiry(Date().addingTimeInterval(30))
        try session.send("hello")
        // Its token request is in flight (the stand-in holds it 8 s), under its locks.
        try #require(Eventually.within(20) { session.standin.arrivals().contains { $0.isTokenRequest && $0.fromClaudeCode } },
                     "Claude Code did not refresh: \(session.snapshot())")
        let lock = session.credentialsDirectory + "/.oauth_refresh.lock"
        #expect(FileManager.default.fileExists(atPath: lock), "Claude Code refreshes without its lock")

        let run = try session.runElbowroom(["fetch", "--force", "--verbose"], seconds: 40)
        // Claude Code's own refresh completes and it answers.
        #expect(session.waitForScreen("Refreshed and answered, 1357.", seconds: 30), "\(session.snapshot())")
        let ours = session.standin.tokenRequests.filter { !$0.fromClaudeCode }
        #expect(ours.count == 0, "elbowroom sent \(ours.count) token request(s) while Claude Code held its refresh locks:\n\(run.stderr)")
        #expect(run.stderr.contains(".oauth_refresh.lock"), "fetch --verbose does not say who holds the lock:\n\(run.stderr)")
        let claudes = session.standin.tokenRequests.filter(\.fromClaudeCode)
        #expect(claudes.count == 1 && claudes.first?.status == 200, "\(session.snapshot())")
        #expect(session.credentials()["refreshToken"] as? String == session.standin.currentTokens.refresh)
        #expect(!FileManager.default.fileExists(atPath: lock))
    }

    /// The same with the locks alone, as another Claude Code process holds them (the refresh lock
    /// in the credentials directory, or the legacy one beside it that older versions take), kept
    /// fresh the way their holder does: elbowroom sends no token request. Then the lock goes, and
    /// the running Claude Code refreshes the token nobody spent and stays signed in.
    @Test func elbowroomSendsNoTokenRequestWhileTheRefreshLockIsHeld() throws {
        try noTokenRequestWhileHeld(lock: "refresh lock")
    }

    @Test func elbowroomSendsNoTokenRequestWhileTheLegacyLockIsHeld() throws {
        try noTokenRequestWhileHeld(lock: "legacy lock")
    }

    private func noTokenRequestWhileHeld(lock which: String) throws {
        let session = try ClaudeSession()
        try session.sandbox.writeConfig("timeout = 5\nrefresh = \"always\"\n")
        try session.start()
        let directory = URL(fileURLWithPath: session.credentialsDirectory).resolvingSymlinksInPath().path
        let lock = which == "refresh lock" ? directory + "/.oauth_refresh.lock" : directory + ".lock"
        try FileManager.default.createDirectory(atPath: lock, withIntermediateDirectories: false)
        let holder = LockHolder(path: lock)
        try session.setExpiry(Date().addingTimeInterval(30))

        let run = try session.runElbowroom(["fetch", "--force", "--verbose"], seconds: 70)
        let ours = session.standin.tokenRequests.filter { !$0.fromClaudeCode }
        #expect(ours.count == 0, "elbowroom sent \(ours.count) token request(s) while \(lock) was held:\n\(run.stderr)")
        #expect(!run.timedOut)
        #expect(run.stderr.contains(URL(fileURLWithPath: lock).lastPathComponent),
                "fetch --verbose does not say who holds the lock:\n\(run.stderr)")
        let doctor = try session.runElbowroom(["doctor"])
        #expect((doctor.stdout + doctor.stderr).contains(URL(fileURLWithPath: lock).lastPathComponent),
                "doctor does not say who holds the lock:\n\(doctor.stdout)")
        holder.release()

        try session.standin.configure(["ratelimit": Standin.rateLimitHeaders(fiveHour: 0.2, sevenDay: 0.2),
                                       "reply": "Refreshed it myself, 2244."])
        try session.send("hello")
        #expect(session.waitForScreen("Refreshed it myself, 2244.", seconds: 30), "\(session.snapshot())")
        let claudes = session.standin.tokenRequests.filter(\.fromClaudeCode)
        #expect(claudes.count == 1 && claudes.first?.status == 200, "\(session.snapshot())")
        #expect(session.credentials()["refreshToken"] as? String == session.standin.currentTokens.refresh)
    }

    /// A hook configured in the sandbox's settings runs, and its output reaches the Messages API
    /// with the prompt (how a test sees what Claude Code sends: `Standin.sentTexts()`).
    @Test func aHooksOutputReachesTheMessagesAPIWithThePrompt() throws {
        let session = try ClaudeSession(settings: ClaudeSession.hookSettings(
            event: "UserPromptSubmit", command: "echo 'Weekly limit: 12% left (hook 2468).'"))
        try session.start()
        try session.standin.configure(["reply": "Seen, 9753."])
        try session.send("what is left?")
        #expect(session.waitForScreen("Seen, 9753."), "\(session.snapshot())")
        // Claude Code may send more than one request for a prompt (a title, a quota check): the
        // one that carries the prompt carries the hook's line.
        let sent = session.standin.sentTexts()
        #expect(sent.contains { $0.contains("what is left?") && $0.contains("Weekly limit: 12% left (hook 2468).") },
                "\(sent)")
    }
}
