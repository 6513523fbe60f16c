import Foundation
import Testing
@testable import ElbowroomCore

@Suite struct RefreshPolicyTests {
    let now = Date(timeIntervalSince1970: 1_795_356_000)
    let config = Config()

    func cache(dataAge: TimeInterval?, successAge: TimeInterval? = nil, fetch: (inout FetchState) -> Void = { _ in }) -> CacheFile {
        var state = FetchState()
        if let age = successAge ?? dataAge { state.recordSuccess(at: now.addingTimeInterval(-age)) }
        fetch(&state)
        let reading = dataAge.map {
            Reading(windows: [UsageWindow(key: "five_hour", used: 1, resetsAt: nil, observedAt: now.addingTimeInterval(-$0))],
                    fetchedAt: now.addingTimeInterval(-$0), source: .api)
        }
        return CacheFile(account: "a", reading: reading, fetch: state)
    }

    func decide(_ cache: CacheFile?, _ urgency: FetchUrgency = .whenDue, credentialsChanged: Date? = nil) -> Bool {
        RefreshPolicy.decide(cache: cache, now: now, config: config, urgency: urgency, credentialsChanged: credentialsChanged).shouldFetch
    }

    @Test func noCacheIsDue() { #expect(decide(nil)) }
    @Test func freshIsNotDueOldIsDue() {
        #expect(!decide(cache(dataAge: 179)))
        #expect(decide(cache(dataAge: 180)))
    }
    @Test func maxAgeOfOneSecondIsHonoured() {
        var c = Config()
        c.maxAge = 1
        #expect(RefreshPolicy.decide(cache: cache(dataAge: 1), now: now, config: c, urgency: .whenDue).shouldFetch)
    }

    @Test func rateLimitCooldownIsObeyedUnlessForced() {
        let limited = cache(dataAge: 4000) { $0.recordFailure(.rateLimited, message: "rate limited", at: now.addingTimeInterval(-10), retryAfter: 3000) }
        #expect(!decide(limited))
        #expect(!decide(limited, .now))
        #expect(decide(limited, .force))
        #expect(!decide(limited, credentialsChanged: now), "signing in again does not lift a 429")
        #expect(limited.fetch.cooldownUntil == now.addingTimeInterval(2990))
    }

    @Test func retryAfterZeroOrAbsentMeansFiveMinutes() {
        var state = FetchState()
        state.recordFailure(.rateLimited, message: nil, at: now)
        #expect(state.cooldownUntil == now.addingTimeInterval(300))
    }

    @Test func failuresBackOffExponentiallyToAnHour() {
        #expect((1...9).map { FetchState.backoff(failures: $0) } == [30, 60, 120, 240, 480, 960, 1920, 3600, 3600])
        var state = FetchState()
        for _ in 0..<3 { state.recordFailure(.network, message: "offline", at: now) }
        #expect(state.consecutiveFailures == 3)
        #expect(state.cooldownUntil == now.addingTimeInterval(120))
        state.recordSuccess(at: now)
        #expect(state.consecutiveFailures == 0 && state.cooldownUntil == nil)
    }

    @Test func signingInAgainEndsASignedOutBackoff() {
        let signedOut = cache(dataAge: nil) { $0.recordFailure(.signedOut, message: "sign in", at: now.addingTimeInterval(-5)) }
        #expect(!decide(signedOut))
        #expect(decide(signedOut, credentialsChanged: now.addingTimeInterval(-1)))
        #expect(!decide(signedOut, credentialsChanged: now.addingTimeInterval(-60)))
    }

    @Test func statusLineFreshDataStretchesTheRefreshToStaleAfter() {
        // API success 10 min ago, status line data 5 s old: not due until stale_after.
        #expect(!decide(cache(dataAge: 5, successAge: 600)))
        #expect(decide(cache(dataAge: 5, successAge: 900)))
        #expect(decide(cache(dataAge: 5, successAge: 600), .now))
    }
}

@Suite struct DisplayStatusTests {
    let now = Date(timeIntervalSince1970: 1_795_356_000)

    func status(dataAge: TimeInterval?, _ change: (inout FetchState) -> Void = { _ in }) -> DisplayStatus {
        var state = FetchState()
        if let dataAge { state.recordSuccess(at: now.addingTimeInterval(-dataAge)) }
        change(&state)
        let reading = dataAge.map { Reading(windows: [], fetchedAt: now.addingTimeInterval(-$0), source: .api) }
        return DisplayStatus.of(cache: CacheFile(account: "a", reading: reading, fetch: state), now: now, staleAfter: 900)
    }

    @Test func table() {
        #expect(DisplayStatus.of(cache: nil, now: now, staleAfter: 900) == .loading)
        #expect(status(dataAge: 10) == .ok)
        #expect(status(dataAge: 901) == .stale)
        #expect(status(dataAge: 60) { $0.recordFailure(.network, message: "x", at: now) } == .offline)
        #expect(status(dataAge: nil) { $0.recordFailure(.timeout, message: "x", at: now) } == .offline)
        #expect(status(dataAge: 60) { $0.recordFailure(.rateLimited, message: "x", at: now, retryAfter: 600) } == .rateLimited)
        #expect(status(dataAge: 60) { $0.recordFailure(.expired, message: "x", at: now) } == .expired)
        #expect(status(dataAge: nil) { $0.recordFailure(.signedOut, message: "x", at: now) } == .signedOut)
        #expect(status(dataAge: 60) { $0.recordFailure(.forbidden, message: "x", at: now) } == .signedOut)
    }

    @Test func statusLineDataAfterAFailureIsFresh() {
        var state = FetchState()
        state.recordFailure(.network, message: "x", at: now.addingTimeInterval(-30))
        let reading = Reading(windows: [], fetchedAt: now.addingTimeInterval(-5), source: .statusLine)
        #expect(DisplayStatus.of(cache: CacheFile(account: "a", reading: reading, fetch: state), now: now, staleAfter: 900) == .ok)
    }
}

@Suite struct UsageViewTests {
    let now = Date(timeIntervalSince1970: 1_795_356_000)

    @Test func aWindowPastItsResetReadsAsReset() {
        let w = UsageWindow(key: "five_hour", used: 97, resetsAt: now.addingTimeInterval(-1), observedAt: now.addingTimeInterval(-86400 * 3))
        let v = UsageView.project(w, now: now, thresholds: Thresholds())
        #expect(v.used == 0 && v.left == 100 && v.resetsAt == nil && v.resetsIn == nil && v.hasReset && v.level == .ok)
    }

    @Test func paceAndEtaFromTheObservedRate() throws {
        // 5 h window, 2 h elapsed at observation, 40 % used: 20 %/h → 100 % at reset; runs out at exactly reset → no eta.
        let observed = now
        let w = UsageWindow(key: "five_hour", used: 40, resetsAt: observed.addingTimeInterval(3 * 3600), observedAt: observed)
        let v = UsageView.project(w, now: now, thresholds: Thresholds())
        #expect(abs(try #require(v.pace) - 100) < 1e-9)
        #expect(v.eta == nil)
        // 60 % used after 2 h: 30 %/h → out of room 80 min after the observation.
        let hot = UsageView.project(UsageWindow(key: "five_hour", used: 60, resetsAt: observed.addingTimeInterval(3 * 3600), observedAt: observed),
                                    now: now.addingTimeInterval(600), thresholds: Thresholds())
        #expect(abs(try #require(hot.pace) - 150) < 1e-9)
        #expect(abs(try #require(hot.eta) - (80 * 60 - 600)) < 1e-6)
        #expect(abs(try #require(hot.resetsIn) - (3 * 3600 - 600)) < 1e-6)
    }

    @Test func noPaceTooEarlyOrWithoutALength() {
        let early = UsageView.project(UsageWindow(key: "five_hour", used: 5, resetsAt: now.addingTimeInterval(5 * 3600 - 60), observedAt: now), now: now, thresholds: Thresholds())
        #expect(early.pace == nil)
        let unknown = UsageView.project(UsageWindow(key: "mystery", used: 5, resetsAt: now.addingTimeInterval(60), observedAt: now), now: now, thresholds: Thresholds())
        #expect(unknown.pace == nil && unknown.name == "mystery" && unknown.label == "Mystery")
    }

    @Test(arguments: [(74.0, Level.ok), (75, .warn), (80, .warn), (89, .warn), (90, .critical), (100, .critical), (0, .ok)])
    func levelsFromThresholdsOnLeft(used: Double, level: Level) {
        let v = UsageView.project(UsageWindow(key: "seven_day", used: used, resetsAt: nil, observedAt: now), now: now, thresholds: Thresholds())
        #expect(v.level == level)
    }

    @Test(arguments: stride(from: 0.0, through: 100.0, by: 0.5).map { $0 })
    func usedAndLeftAlwaysAddUpTo100(used: Double) {
        #expect(PercentText.whole(used) + PercentText.whole(100 - used) == 100)
    }

    @Test func apiSeverityRaisesTheLevel() {
        let v = UsageView.project(UsageWindow(key: "seven_day", used: 10, resetsAt: nil, severity: "critical", observedAt: now), now: now, thresholds: Thresholds())
        #expect(v.level == .critical)
    }

    @Test func worstAndAliases() {
        let view = UsageView(cache: DemoReading.cache(now: now), now: now, config: Config())
        #expect(view.worst?.key == "seven_day_opus")
        #expect(view.window(named: "5h")?.key == "five_hour")
        #expect(view.window(named: "seven_day_sonnet")?.name == "sonnet")
        #expect(view.level == .critical)
        #expect(view.status == .ok)
    }
}

@Suite struct PathsTests {
    @Test func derivesEverythingFromTheEnvironment() {
        let p = Paths(environment: ElbowroomEnvironment(["HOME": "/home/u"]))
        #expect(p.claudeConfigDir == "/home/u/.claude")
        #expect(p.credentialsFile == "/home/u/.claude/.credentials.json")
        #expect(p.configFile == "/home/u/.config/elbowroom/config.toml")
        #expect(p.cacheFile.hasPrefix("/home/u/.cache/elbowroom/usage-"))
        let q = Paths(environment: ElbowroomEnvironment(["HOME": "/home/u", "CLAUDE_CONFIG_DIR": "/work/claude2/", "XDG_CACHE_HOME": "/c", "ELBOWROOM_CONFIG": "/etc/h.toml"]))
        #expect(q.claudeConfigDir == "/work/claude2")
        #expect(q.credentialsFile == "/work/claude2/.credentials.json")
        #expect(q.cacheFile != p.cacheFile && q.cacheFile.hasPrefix("/c/elbowroom/"))
        #expect(q.configFile == "/etc/h.toml")
    }

    @Test func executablesAreFoundOnAbsolutePathEntriesOnly() throws {
        let dir = TempDirectory()
        try FileSystem.writeAtomically(Data("#!/bin/sh\n".utf8), to: dir.path + "/tool", mode: 0o755)
        let env = ElbowroomEnvironment(["PATH": ":.:bin:\(dir.path)"])
        #expect(env.executableSearchPath == [dir.path], "empty, . and relative entries would mean the prompt's directory")
        #expect(env.findExecutable("tool") == dir.path + "/tool")
        #expect(env.findExecutable("missing") == nil)
    }

    @Test func childEnvironmentCarriesNoSecrets() {
        let env = ElbowroomEnvironment(["HOME": "/h", "CLAUDE_CODE_OAUTH_TOKEN": "sk-ant-oat01-secret", "ANTHROPIC_API_KEY": "k"])
        #expect(env.forChild == ["HOME": "/h", "ELBOWROOM_ENV_TOKEN_PRESENT": "1"])
        #expect(ElbowroomEnvironment(env.forChild).hasInferenceOnlyToken)
    }
}

@Suite struct EndpointURLTests {
    @Test(arguments: ["https://api.anthropic.com", "http://127.0.0.1:8080", "http://localhost:1", "http://[::1]:9", "http://127.1.2.3"])
    func accepted(url: String) throws {
        _ = try EndpointURL.validated(url, variable: "ELBOWROOM_API_URL")
    }

    @Test(arguments: ["http://example.com", "http://10.0.0.1", "ftp://x", "http://127.0.0.1.evil.com", "https://user:pw@api.anthropic.com", "nonsense"])
    func refused(url: String) {
        #expect(throws: EndpointURL.Refused.self) { try EndpointURL.validated(url, variable: "ELBOWROOM_API_URL") }
    }

    @Test func refusalSaysHTTPSIsRequired() {
        #expect(throws: EndpointURL.Refused(description: "ELBOWROOM_API_URL must use https (plain http is allowed only to 127.0.0.1, ::1 or localhost): http://example.com")) {
            try EndpointURL.validated("http://example.com", variable: "ELBOWROOM_API_URL")
        }
    }
}

@Suite struct CredentialsParserTests {
    @Test func oauthLoggedOutAndMCPOnly() throws {
        let full = #"{"claudeAiOauth":{"accessToken":"sk-ant-oat01-a","refreshToken":"sk-ant-ort01-b","expiresAt":1795356000000,"scopes":["user:inference","user:profile"],"subscriptionType":"max","rateLimitTier":"default_claude_max_20x"},"mcpOAuth":{"x":{}}}"#
        guard case .oauth(let c) = try CredentialsParser.parse(Data(full.utf8)) else { Issue.record("not oauth"); return }
        #expect(c.expiresAt == Date(timeIntervalSince1970: 1_795_356_000))
        #expect(c.subscriptionType == "max")
        #expect(!c.description.contains("sk-ant"))
        #expect(try CredentialsParser.parse(Data(#"{"claudeAiOauth":{"accessToken":"","refreshToken":"","expiresAt":0}}"#.utf8)) == .loggedOut)
        #expect(try CredentialsParser.parse(Data(#"{"mcpOAuth":{"srv":{"accessToken":"m"}}}"#.utf8)) == .mcpOnly)
        #expect(throws: CredentialsParser.Malformed.self) { try CredentialsParser.parse(Data("{oops".utf8)) }
    }

    @Test func keychainHexIsDecoded() {
        let json = #"{"a":1}"#
        let hex = json.utf8.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        #expect(CredentialsParser.unhexIfNeeded(hex) == Data(json.utf8))
        #expect(CredentialsParser.unhexIfNeeded(json + "\n") == Data(json.utf8))
    }
}

/// The wall clock moving back an hour or forward a day between renders never wedges a cooldown
/// and never shows a negative duration.
@Suite struct ClockJumpTests {
    let t0 = Date(timeIntervalSince1970: 1_795_356_000)

    func cache(cooldown: TimeInterval, outcome: FetchOutcome = .rateLimited) -> CacheFile {
        var fetch = FetchState()
        fetch.recordSuccess(at: t0.addingTimeInterval(-120))
        fetch.recordFailure(outcome, message: nil, at: t0, retryAfter: cooldown)
        return CacheFile(account: "t", reading: Reading(
            windows: [UsageWindow(key: "five_hour", used: 40, resetsAt: t0.addingTimeInterval(3600), observedAt: t0.addingTimeInterval(-120))],
            fetchedAt: t0.addingTimeInterval(-120), source: .api), fetch: fetch)
    }

    @Test func aClockMovedBackAnHourDoesNotStretchACooldown() {
        let c = cache(cooldown: 300)
        let back = t0.addingTimeInterval(-3600)
        #expect(RefreshPolicy.decide(cache: c, now: t0.addingTimeInterval(10), config: Config(), urgency: .whenDue).shouldFetch == false,
                "without a jump the 429 is obeyed")
        #expect(RefreshPolicy.decide(cache: c, now: back, config: Config(), urgency: .whenDue).shouldFetch,
                "an hour back, the five-minute cooldown does not last an hour and five minutes")
        let view = UsageView(cache: c, now: back, config: Config())
        #expect(view.cooldownUntil == nil)
        #expect((view.age ?? -1) >= 0, "no negative age")
        #expect(view.windows.allSatisfy { ($0.resetsIn ?? 0) >= 0 && ($0.eta ?? 0) >= 0 })
    }

    @Test func aClockMovedForwardADayEndsTheCooldownAndShowsTheWindowAsReset() {
        let c = cache(cooldown: 1800)
        let later = t0.addingTimeInterval(86400)
        #expect(RefreshPolicy.decide(cache: c, now: later, config: Config(), urgency: .whenDue).shouldFetch)
        let view = UsageView(cache: c, now: later, config: Config())
        #expect(view.status == .offline || view.status == .stale)
        let w = view.window(named: "5h")
        #expect(w?.hasReset == true && w?.resetsIn == nil)
        #expect((view.age ?? -1) >= 0)
    }

    @Test func aReadingFromTheFutureIsDueNotFreshForAnHour() {
        var c = cache(cooldown: 1)
        c.fetch.recordSuccess(at: t0)
        let back = t0.addingTimeInterval(-3600)
        #expect(RefreshPolicy.decide(cache: c, now: back, config: Config(), urgency: .whenDue).shouldFetch)
    }
}

@Suite struct ChildEntriesTests {
    /// `childEntries` (what posix_spawn gets) is `forChild` as `NAME=value` lines.
    @Test func childEntriesAreForChildAsEntries() {
        let env = ElbowroomEnvironment(["HOME": "/h", "CLAUDE_CODE_OAUTH_TOKEN": "x", "ANTHROPIC_API_KEY": "y",
                                        "ANTHROPIC_AUTH_TOKEN": "z", "ELBOWROOM_ENV_TOKEN_PRESENT": "0", "A": "b=c", "E": ""])
        #expect(env.childEntries.sorted() == env.forChild.map { $0.key + "=" + $0.value }.sorted())
        #expect(env.childEntries.sorted() == ["A=b=c", "E=", "ELBOWROOM_ENV_TOKEN_PRESENT=1", "HOME=/h"])
    }

    /// The live environment's byte-level rule drops exactly the secrets `secretVariables` names
    /// (and entries without `=`), and the stale marker only when the token is here.
    @Test func theLiveRuleDropsEverySecretAndNothingElse() {
        func passes(_ entry: String, token: Bool = false) -> Bool {
            entry.withCString { ElbowroomEnvironment.passesToChild($0, tokenPresent: token) }
        }
        for name in ElbowroomEnvironment.secretVariables {
            #expect(!passes(name + "=secret"), "\(name)")
            #expect(!passes(name + "="), "\(name)")
            #expect(passes(name + "_NOT=1") && passes("X" + name + "=1"), "\(name)")
        }
        #expect(!passes("NOEQUALS") && passes("A=b=c") && passes("E="))
        #expect(passes("ELBOWROOM_ENV_TOKEN_PRESENT=0") && !passes("ELBOWROOM_ENV_TOKEN_PRESENT=0", token: true))
    }

    /// The entries `withChildEnvironment` hands a child, as strings.
    static func handedOn(_ env: ElbowroomEnvironment) -> [String] {
        env.withChildEnvironment { envp in
            var out: [String] = []
            var i = 0
            while let entry = envp[i] { out.append(String(cString: entry)); i += 1 }
            return out
        }
    }

    /// What a forked child gets from the live environment is `childEntries`, entry for entry.
    @Test func theLiveEnvironmentHandedOnIsChildEntries() {
        let env = ElbowroomEnvironment.current
        let handed = Self.handedOn(env)
        #expect(handed.sorted() == env.childEntries.sorted())
        #expect(!handed.isEmpty)
        // An account's overlay on the live environment: its names replace environ's, the last
        // of a name wins, an empty value is handed on as set-but-empty, a secret never.
        let overlaid = env.overlaid(names: ["HOME", "ELBOWROOM_PROVIDER", "X_NEW", "X_NEW", "ANTHROPIC_API_KEY"],
                                    values: ["/elsewhere", "", "1", "2", "secret"])
            .overlaid(["PATH=/only"])
        let overlaidHanded = Self.handedOn(overlaid)
        #expect(overlaidHanded.sorted() == overlaid.childEntries.sorted())
        #expect(overlaidHanded.contains("X_NEW=2") && !overlaidHanded.contains("X_NEW=1") && overlaidHanded.contains("ELBOWROOM_PROVIDER="))
        #expect(overlaidHanded.contains("PATH=/only") && !overlaidHanded.contains { $0.contains("secret") })
        let fixed = ElbowroomEnvironment(["HOME": "/h", "ANTHROPIC_API_KEY": "y", "A": "b"])
        let fixedHanded = Self.handedOn(fixed)
        #expect(fixedHanded.sorted() == ["A=b", "HOME=/h"])
    }
}
