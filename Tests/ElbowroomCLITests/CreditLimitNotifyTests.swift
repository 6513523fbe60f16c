import Foundation
import Testing
import ElbowroomCore
import ElbowroomTestSupport
@testable import ElbowroomCLI

/// A Codex account's credit limit and blocked workspace reach notifications as the limits they
/// are, with their own words uncapped (issue 32).
@Suite struct CreditLimitNotifyTests {
    @Test func anExceededCreditLimitNotifiesWithItsRealFigures() throws {
        let s = CLISandbox()
        s.writeConfig("notify_command = \"my-notifier\"\n[accounts.codex]\nprovider = \"codex\"\n")
        let now = s.clock.now
        var credit = UsageWindow(key: "credit_limit", label: "Monthly credit limit", used: 100,
                                 resetsAt: now.addingTimeInterval(86400), binding: true, observedAt: now.addingTimeInterval(-30))
        credit.detail = "259% used, 1,811.97 of 700 credits"
        var cache = CacheFile(account: "x", reading: Reading(windows: [credit], fetchedAt: now.addingTimeInterval(-30), source: .api))
        cache.fetch.recordSuccess(at: now.addingTimeInterval(-30))
        s.extraEnvironment = ["ELBOWROOM_PROVIDER": "codex", "ELBOWROOM_ACCOUNT": "codex"]
        try s.store.save(cache)
        s.extraEnvironment = [:]
        #expect(s.run("notify", "--offline", "--account", "codex") == 0, "\(s.stderr.text)")
        #expect(s.stdout.text.contains("codex Monthly credit limit: used up"), "\(s.stdout.text)")
        let run = try #require(s.spawner.runs.first)
        let event = try #require(try JSONSerialization.jsonObject(with: run.stdin) as? [String: Any])
        #expect(event["event"] as? String == "exhausted")
        #expect((event["body"] as? String)?.contains("259% used, 1,811.97 of 700 credits") == true, "\(event)")
    }
}
