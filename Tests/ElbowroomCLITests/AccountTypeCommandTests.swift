import Foundation
import Testing
import ElbowroomCore
import ElbowroomTestSupport
@testable import ElbowroomCLI

/// What a Team seat sees through the commands: a line with the organisation's spend (never a blank
/// waybar `text`), and `cache show`, `doctor` and `-a json` naming the account type, where each
/// number came from and the keys of the last body nobody has heard of.
@Suite struct AccountTypeCommandTests {
    /// A Team seat's body (reconstructed, see Fixtures/RealWorld/SOURCES.md) with a key from the future.
    static let teamBody = """
    {"five_hour":null,"seven_day":null,"seven_day_sonnet":null,"seven_day_cowork":null,"velvet_anchor":null,
     "extra_usage":{"is_enabled":true,"monthly_limit":20000,"used_credits":4120.0,"utilization":20.6,"currency":"USD","decimal_places":2}}
    """

    static func sandbox() throws -> CLISandbox {
        let s = CLISandbox()
        let observed = s.clock.now.addingTimeInterval(-90)
        let reading = try UsageDecoder.decode(Data(teamBody.utf8), observedAt: observed, plan: "team")
        var cache = CacheFile(account: s.store.account, reading: reading.limitedForCache().reading)
        cache.fetch.recordSuccess(at: observed)
        try s.store.save(cache)
        return s
    }

    @Test func aTeamSeatGetsItsOrganisationsSpendInEveryBar() throws {
        let s = try Self.sandbox()
        #expect(s.run("-a", "plain") == 0)
        #expect(s.stdout.text == "org $41.20 / $200.00\n")
        s.stdout.clear()
        #expect(s.run("-a", "waybar") == 0)
        #expect(!s.stdout.text.contains(#""text":"""#))
        #expect(s.stdout.text.contains(#""percentage":21"#))
    }

    @Test func cacheShowNamesTheAccountTypeTheSourcesAndUnknownKeys() throws {
        let s = try Self.sandbox()
        #expect(s.run("cache", "show") == 0)
        let text = s.stdout.text
        #expect(text.contains("account type: organisation pool\n"))
        #expect(text.contains("spend (the organisation's pool): 4120 of 20000 minor units of USD (exponent 2), 20.6%, ok, the account's limit, from api\n"))
        #expect(text.contains("unknown keys in the last body: velvet_anchor\n"))
    }

    @Test func doctorNamesTheAccountTypeAndTheUnknownKeys() throws {
        let s = try Self.sandbox()
        s.writeConfig("source = \"statusline\"\n")
        _ = s.run("doctor")
        let text = s.stdout.text
        #expect(text.contains("account type organisation pool (plan team), numbers from api"))
        #expect(text.contains("data: keys elbowroom has never heard of in the last body: velvet_anchor"))
    }

    @Test func jsonSaysWhereEachNumberCameFrom() throws {
        let s = try Self.sandbox()
        #expect(s.run("-a", "json") == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(s.stdout.text.utf8)) as? [String: Any])
        #expect(object["account_type"] as? String == "organisation pool")
        #expect(object["account"] is NSNull, "the environment's own login has no [accounts.NAME]")
        #expect(object["unknown_keys"] as? [String] == ["velvet_anchor"])
        let spend = try #require(object["spend"] as? [String: Any])
        #expect(spend["organisation"] as? Bool == true)
        #expect(spend["is_limit"] as? Bool == true)
        #expect(spend["source"] as? String == "api")
    }

    @Test func aStatusLineWithoutRateLimitsSaysClaudeCodeSentNone() throws {
        let s = CLISandbox()
        s.writeConfig("source = \"statusline\"\n")
        s.stdin = Data(#"{"session_id":"x","model":{"display_name":"Opus 4.6"},"cost":{"total_cost_usd":0}}"#.utf8)
        #expect(s.run("-a", "claude") == 0)
        #expect(s.stdout.text.contains("Claude Code sent no limits"))
        #expect(!s.stdout.text.contains("waiting for Claude Code's status line"))
        // Every other consumer, which reads the cache and never sees the status line, says so
        // too (it said "waiting for Claude Code's status line" after what came).
        s.stdin = nil
        for adapter in ["tmux", "plain", "waybar", "json", "zsh"] {
            s.stdout.clear()
            #expect(s.run("-a", adapter) == 0)
            #expect(s.stdout.text.contains("Claude Code sent no limits"), "\(adapter): \(s.stdout.text)")
            #expect(!s.stdout.text.contains("waiting for"), "\(adapter): \(s.stdout.text)")
        }
        // The same status line again writes nothing; one with limits brings the numbers.
        let written = FileSystem.modificationDate(of: s.store.file)
        s.stdin = Data(#"{"session_id":"x","model":{"display_name":"Opus 4.6"}}"#.utf8)
        s.stdout.clear()
        #expect(s.run("-a", "claude") == 0)
        #expect(FileSystem.modificationDate(of: s.store.file) == written)
        let reset = Int(s.clock.now.timeIntervalSince1970) + 3600
        s.stdin = Data(#"{"model":{"display_name":"Opus 4.6"},"rate_limits":{"five_hour":{"used_percentage":30,"resets_at":\#(reset)}}}"#.utf8)
        #expect(s.run("-a", "claude") == 0)
        s.stdin = nil
        s.stdout.clear()
        #expect(s.run("-a", "plain") == 0)
        #expect(s.stdout.text == "5h 70%\n", "\(s.stdout.text)")
    }

    /// Claude Code's own words for a credit row, never its codename, wherever a label shows: the
    /// line (a used-up row needs attention, so the line shows it) and the notification.
    @Test func aUsedUpClaudeCreditRowIsNamedAsClaudeCodeNamesIt() throws {
        let s = CLISandbox()
        s.saveCache(used: ["five_hour": 10, "cinder_cove": 100], age: 30)
        #expect(s.run("-a", "plain", "--offline") == 0)
        #expect(s.stdout.text == "5h 90% · Claude Code and Cowork credit 0%\n", "\(s.stdout.text)")
        s.stdout.clear()
        #expect(s.run("notify", "--offline") == 0)
        #expect(s.stdout.text.contains("notified: Claude Code and Cowork credit: used up"), "\(s.stdout.text)")
        #expect(!s.stdout.text.lowercased().contains("cinder"))
    }
}
