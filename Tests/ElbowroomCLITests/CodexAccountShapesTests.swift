import Foundation
import Testing
import ElbowroomCore
import ElbowroomTestSupport

/// Something true on every Codex account and in every state (issue 32): real or reconstructed
/// bodies of Codex's usage endpoint and session logs, each with its source beside it, through
/// the built `elbowroom` and `elbowroom-fetch` against a loopback stand-in. Personal fields of the
/// captures (`user_id`, `email`, …) are replaced; reset times are moved to the test's clock.
@Suite(.serialized) struct CodexAccountShapesTests {
    static func r(_ seconds: Double) -> Int { CodexStandIn.inFuture(seconds) }

    // MARK: Credit limits

    /// Source: czpython/druks#245 (a business account under group-based spend controls:
    /// `rate_limit: null`, the quota only in `spend_control.individual_limit`, amounts as strings).
    static var businessCreditOnly: String {
        #"{"plan_type":"business","rate_limit":null,"credits":{"has_credits":true,"unlimited":false,"balance":null},"spend_control":{"reached":false,"individual_limit":{"source":"group_based_spend_controls","limit":"100","used":"1.23","used_percent":1,"remaining_percent":99,"reset_after_seconds":1681405,"reset_at":\#(r(1_681_405))}}}"#
    }

    @Test func aBusinessAccountWhoseOnlyLimitIsItsMonthlyCreditLimitShowsIt() throws {
        let s = try CodexStandIn(account: #"provider = "codex""#)
        s.serve(Self.businessCreditOnly)
        let line = try s.fetchThenRun(["-a", "plain"])
        #expect(line.stdout == "Monthly credit limit 99%\n", "\(line.stdout)")
        let json = try s.run(["-a", "json", "--offline"]).stdout
        #expect(json.contains(#""key":"credit_limit""#) && json.contains(#""detail":"1% used, 1.23 of 100 credits""#), "\(json)")
        #expect(!json.contains("no limits"))
        #expect(try s.run(["guard", "--min-left", "20"]).status == 0)
    }

    /// Reconstructed from CODEX.md §3 "Newer shapes" (a credit limit exceeded: `used_percent` 259,
    /// `spend_control.reached`, `rate_limit_reached_type.type`
    /// `workspace_member_usage_limit_reached` with `details: null`) and issue 32's figures (1,811.97
    /// of 700 credits); the `rate_limit` beside it is the Team capture's shape, nearly unused, as a
    /// blocked workspace's windows can be.
    static var blockedWorkspace: String {
        #"{"plan_type":"business","rate_limit":{"allowed":false,"limit_reached":true,"primary_window":{"used_percent":3,"limit_window_seconds":18000,"reset_after_seconds":9000,"reset_at":\#(r(9000))},"secondary_window":null},"credits":{"has_credits":false,"unlimited":false,"balance":"0"},"spend_control":{"reached":true,"individual_limit":{"source":"workspace_spend_controls","limit":"700","used":"1811.97","remaining":"-1111.97","used_percent":259,"remaining_percent":0,"reset_after_seconds":864000,"reset_at":\#(r(864_000))}},"rate_limit_reached_type":{"type":"workspace_member_usage_limit_reached","details":null}}"#
    }

    @Test func aBlockedWorkspaceIsSaidAsBlockedWhateverElseTheBodyHolds() throws {
        let s = try CodexStandIn(account: #"provider = "codex""#)
        s.serve(Self.blockedWorkspace)
        let line = try s.fetchThenRun(["-a", "plain"]).stdout
        // The least headroom first: the binding limit is never the one a short line loses.
        #expect(line.hasPrefix("Blocked 0% · Monthly credit limit 0%"), "\(line)")
        #expect(line.contains("5h 97%"), "\(line)")
        let json = try s.run(["-a", "json", "--offline"]).stdout
        #expect(json.contains(#""account_type":"blocked""#) && json.contains(#""level":"critical""#), "\(json)")
        #expect(json.contains(#""detail":"259% used, 1,811.97 of 700 credits""#), "the words are not capped: \(json)")
        #expect(json.contains(#""detail":"your workspace credit limit is reached""#), "\(json)")
        let verdict = try s.run(["guard", "--min-left", "10"])
        #expect(verdict.status == 1, "\(verdict.stderr)")
        let prometheus = try s.run(["-a", "prometheus", "--offline"]).stdout
        #expect(prometheus.contains(#"window="blocked""#), "\(prometheus)")
        let tooltip = try s.run(["-a", "waybar", "--offline"]).stdout
        #expect(tooltip.contains("259% used, 1,811.97 of 700 credits"), "\(tooltip)")
        #expect(tooltip.contains(#""class":"critical""#) || tooltip.contains("critical"), "\(tooltip)")
    }

    /// Source: get-bb/bb#2557 (a workspace spend-control payload with the reached flag set and no
    /// limit object: "normalized to unknown instead of blocked"); the reached type is one of the
    /// five of CODEX.md §3.
    static let blockedWithoutALimitObject =
        #"{"plan_type":"team","rate_limit":null,"spend_control":{"reached":true,"individual_limit":null},"rate_limit_reached_type":{"type":"workspace_owner_credits_depleted"}}"#

    @Test func aBlockedWorkspaceWithoutALimitObjectIsBlockedNotNoLimits() throws {
        let s = try CodexStandIn(account: #"provider = "codex""#)
        s.serve(Self.blockedWithoutALimitObject)
        let line = try s.fetchThenRun(["-a", "plain"]).stdout
        #expect(line == "Blocked 0%\n", "\(line)")
        #expect(!line.contains("no limits"))
        #expect(try s.run(["guard"]).status == 1)
    }

    /// Source: BenItBuhner/Codex-Meter#98 (the representative `spend_control`: 8,000 of 25,000
    /// credits, 32 %, "Monthly credit limit" in Codex's own client) beside a weekly window, as
    /// CODEX.md §3 says Team accounts carry both.
    static var teamWeeklyAndCredit: String {
        #"{"plan_type":"team","rate_limit":{"allowed":true,"limit_reached":false,"primary_window":{"used_percent":40,"limit_window_seconds":604800,"reset_after_seconds":300000,"reset_at":\#(r(300_000))},"secondary_window":null},"spend_control":{"reached":false,"individual_limit":{"source":"workspace_spend_controls","limit":"25000","used":"8000","remaining":"17000","used_percent":32,"remaining_percent":68,"reset_after_seconds":43200,"reset_at":\#(r(43200))}}}"#
    }

    @Test func aTeamAccountShowsItsMonthlyCreditLimitBesideItsWeeklyWindow() throws {
        let s = try CodexStandIn(account: #"provider = "codex""#)
        s.serve(Self.teamWeeklyAndCredit)
        let line = try s.fetchThenRun(["-a", "plain"]).stdout
        #expect(line == "7d 60% · Monthly credit limit 68%\n", "\(line)")
        let json = try s.run(["-a", "json", "--offline"]).stdout
        #expect(json.contains(#""detail":"32% used, 8,000 of 25,000 credits""#), "\(json)")
    }

    // MARK: Any window length

    /// Window lengths of Codex's own tests (3600 s and 86400 s, CODEX.md §3 "Newer shapes"), with
    /// the per-model Spark limit of several peers' tests (`codex_bengalfox`, CODEX.md §3).
    static var hourAndDay: String {
        #"{"plan_type":"pro","rate_limit":{"allowed":true,"limit_reached":false,"primary_window":{"used_percent":20,"limit_window_seconds":3600,"reset_after_seconds":1800,"reset_at":\#(r(1800))},"secondary_window":{"used_percent":50,"limit_window_seconds":86400,"reset_after_seconds":40000,"reset_at":\#(r(40000))}},"additional_rate_limits":[{"limit_name":"GPT-5.3-Codex-Spark","metered_feature":"codex_bengalfox","rate_limit":{"allowed":true,"limit_reached":false,"primary_window":{"used_percent":10,"limit_window_seconds":18000,"reset_after_seconds":9000,"reset_at":\#(r(9000))},"secondary_window":null}}]}"#
    }

    @Test func anAccountWithOneHourAndOneDayWindowsShowsThemNotOnlyItsPerModelWindow() throws {
        let s = try CodexStandIn(account: #"provider = "codex""#)
        s.serve(Self.hourAndDay)
        let line = try s.fetchThenRun(["-a", "plain"]).stdout
        #expect(line == "1d 50% · 1h 80%\n", "\(line)")
        let json = try s.run(["-a", "json", "--offline"]).stdout
        #expect(json.contains(#""key":"one_hour""#) && json.contains(#""key":"one_day""#), "\(json)")
        #expect(json.contains(#""key":"five_hour_codex_bengalfox""#), "the per-model limit is still there, by name")
        #expect(try s.run(["-t", "{five_hour_codex_bengalfox.label} {five_hour_codex_bengalfox.left}%", "--offline"]).stdout
                == "GPT-5.3-Codex-Spark 5h 90%\n")
    }

    /// Source: lidge-jun/opencodex#315 (Team accounts whose one window is `limit_window_seconds:
    /// 2628000`, ≈30.4 days, with `secondary_window` and `tertiary_window` null).
    static var monthlyOnly: String {
        #"{"plan_type":"team","rate_limit":{"allowed":true,"limit_reached":false,"primary_window":{"used_percent":6,"reset_at":\#(r(2_549_330)),"limit_window_seconds":2628000,"reset_after_seconds":2549330},"secondary_window":null,"tertiary_window":null}}"#
    }

    @Test func aWindowOfAboutThirtyDaysIsMonthlyNeverTheSessionOrTheWeek() throws {
        let s = try CodexStandIn(account: #"provider = "codex""#)
        s.serve(Self.monthlyOnly)
        #expect(try s.fetchThenRun(["-a", "plain"]).stdout == "Monthly 94%\n")
    }

    /// `tertiary_window` (null in every capture so far, CODEX.md §3): read like the other two.
    @Test func aTertiaryWindowIsRead() throws {
        let s = try CodexStandIn(account: #"provider = "codex""#)
        s.serve(#"{"plan_type":"pro","rate_limit":{"primary_window":{"used_percent":10,"limit_window_seconds":18000,"reset_at":\#(Self.r(9000))},"secondary_window":{"used_percent":20,"limit_window_seconds":604800,"reset_at":\#(Self.r(90000))},"tertiary_window":{"used_percent":70,"limit_window_seconds":2592000,"reset_at":\#(Self.r(900000))}}}"#)
        #expect(try s.fetchThenRun(["-a", "plain"]).stdout == "Monthly 30% · 7d 80% · 5h 90%\n")
    }

    /// A per-model limit that calls itself `codex` (its metered feature is the main limit's id)
    /// never takes the main window's place.
    @Test func aPerModelLimitNeverDisplacesAMainOne() throws {
        let s = try CodexStandIn(account: #"provider = "codex""#)
        s.serve(#"{"plan_type":"plus","additional_rate_limits":[{"limit_name":"Other","metered_feature":"codex","rate_limit":{"primary_window":{"used_percent":99,"limit_window_seconds":18000,"reset_at":\#(Self.r(9000))}}}],"rate_limit":{"primary_window":{"used_percent":10,"limit_window_seconds":18000,"reset_at":\#(Self.r(9000))},"secondary_window":null}}"#)
        #expect(try s.fetchThenRun(["-a", "plain"]).stdout == "5h 90%\n")
    }

    // MARK: Session logs: any length, provenance, drift

    /// Source: steipete/CodexBar#2592 (a 43200-minute primary beside a 10080-minute secondary,
    /// from `~/.codex/sessions` rollout files), in the `token_count` line format of CODEX.md §5;
    /// `individual_limit` and `spend_control_reached` as CODEX.md §3 says session logs may carry.
    /// `rate_limits.promo_banner` is no key any capture has: it stands for drift here.
    static var monthlyBesideWeeklyLog: [String] {
        let stamp = ISO8601.format(Date().addingTimeInterval(-120))
        return [
            #"{"timestamp":"\#(stamp)","type":"session_meta","payload":{"id":"0199a1b2"}}"#,
            #"{"timestamp":"\#(stamp)","type":"event_msg","payload":{"type":"token_count","info":null,"rate_limits":{"limit_id":"codex","limit_name":null,"primary":{"used_percent":70.0,"window_minutes":43200,"resets_at":\#(r(1_000_000))},"secondary":{"used_percent":20.0,"window_minutes":10080,"resets_at":\#(r(400_000))},"credits":null,"plan_type":"free","rate_limit_reached_type":null,"individual_limit":null,"spend_control_reached":false,"promo_banner":{"x":1}}}}"#,
        ]
    }

    @Test func aSessionLogsMonthlyWindowWithTheLeastHeadroomIsShownFirstAndSaysWhereItCameFrom() throws {
        let s = try CodexStandIn(account: "provider = \"codex\"\ncodex_source = \"logs\"")
        try s.writeLog(Self.monthlyBesideWeeklyLog)
        let line = try s.fetchThenRun(["-a", "plain"]).stdout
        #expect(line == "Monthly 30% · 7d 80%\n", "\(line)")
        let json = try s.run(["-a", "json", "--offline"]).stdout
        #expect(json.contains(#""source":"session_log""#) && !json.contains(#""source":"api""#), "\(json)")
        let doctor = try s.run(["doctor"]).stdout
        #expect(doctor.contains("numbers from session_log"), "\(doctor)")
        #expect(doctor.contains("rate_limits.promo_banner"), "drift in a session-log event: \(doctor)")
        let cache = try s.run(["cache", "show"]).stdout
        #expect(cache.contains("data: session_log"), "\(cache)")
    }

    /// Source: getpaseo/paseo#4383 (a business capture of 2026-09-08: `rate_limit` null, a Spark
    /// limit, `model_usage`, `code_review_rate_limit`), its personal fields replaced; with its
    /// `spend_control` from czpython/druks#245. `workspace_digest` is no key any capture has: it
    /// stands for drift here.
    static var businessWithDrift: String {
        #"{"user_id":"user-x","account_id":"acct-x","email":"x@example.invalid","plan_type":"business","rate_limit":null,"code_review_rate_limit":null,"additional_rate_limits":[{"limit_name":"GPT-5.3-Codex-Spark-Preview","metered_feature":"codex_bengalfox","rate_limit":{"allowed":true,"limit_reached":false,"primary_window":{"used_percent":0,"limit_window_seconds":18000,"reset_after_seconds":18000,"reset_at":\#(r(18000))},"secondary_window":{"used_percent":0,"limit_window_seconds":604800,"reset_after_seconds":604800,"reset_at":\#(r(604_800))}},"normal_model_slug":null}],"model_usage":{"gpt-6-astra":{"available":true,"available_at":null,"credits_would_enable":false}},"credits":{"has_credits":true,"unlimited":false,"overage_limit_reached":false,"balance":null,"approx_local_messages":null,"approx_cloud_messages":null},"spend_control":{"reached":false,"individual_limit":{"source":"group_based_spend_controls","limit":"100","used":"12.5","used_percent":12.5,"remaining_percent":87.5,"reset_after_seconds":1681405,"reset_at":\#(r(1_681_405))}},"workspace_digest":{"enabled":true}}"#
    }

    @Test func unknownKeysInACodexBodyAreNamedByDoctor() throws {
        let s = try CodexStandIn(account: #"provider = "codex""#)
        s.serve(Self.businessWithDrift)
        let line = try s.fetchThenRun(["-a", "plain"]).stdout
        #expect(line == "Monthly credit limit 88%\n", "the per-model limits at 0 % do not displace it: \(line)")
        let doctor = try s.run(["doctor"]).stdout
        #expect(doctor.contains("keys elbowroom has never heard of in the last body: workspace_digest"), "\(doctor)")
        #expect(!doctor.contains("model_usage"), "a key CODEX.md names is no drift")
        #expect(doctor.contains("numbers from api"))
        let cache = try s.run(["cache", "show"]).stdout
        #expect(cache.contains("unknown keys in the last body: workspace_digest"), "\(cache)")
        #expect(!s.e2e.sandbox.cacheContents().contains("x@example.invalid"), "personal data is never stored")
    }
}
