import Foundation
import Testing
@testable import ElbowroomCore

/// Who an account is (`AccountIdentity`), read once from the variables `Account.environment(over:)`
/// writes: typed, and keyed exactly as before (existing caches are named by these keys).
@Suite struct ProviderTests {
    static let base = ElbowroomEnvironment(["HOME": "/home/u"])

    static func identity(_ account: Account) -> AccountIdentity {
        let env = account.environment(over: base)
        return AccountIdentity(environment: env, home: env.home)
    }

    @Test func everyBuiltInWordIsAProviderThatSaysItBack() {
        for word in Provider.builtInWords {
            #expect(Provider(word)?.word == word)
        }
        #expect(Provider("plugin:gem") == .plugin("gem"))
        #expect(Provider("gemini") == nil)
    }

    /// The first 16 hex digits of SHA-256 of `/home/u/.claude`, `codex:/home/u/.codex` and
    /// `plugin:gem` NUL `work`: the names of users' caches, which must never move.
    @Test func theKeysAreTheOnesCachesAreNamedBy() {
        #expect(Self.identity(Account(name: "c")).key == "99b1807e219173ce")
        var codex = Account(name: "x")
        codex.provider = .codex
        #expect(Self.identity(codex).key == "e60bb66df6ffdf6d")
        codex.settings.codexSource = .logs
        #expect(Self.identity(codex).key == "e60bb66df6ffdf6d")
        var plugin = Account(name: "work")
        plugin.provider = .plugin("gem")
        #expect(Self.identity(plugin).key == "c8aad6af498e7f46")
        #expect(Paths(environment: plugin.environment(over: Self.base)).legacyPluginAccountKey == "d6c8d5426d13f1aa")
    }

    @Test func aCodexAccountIsReadTyped() {
        var codex = Account(name: "x")
        codex.provider = .codex
        codex.settings.codexHome = "~/cx/"
        let api = Self.identity(codex)
        #expect(api.provider == .codex && api.codexSource == .api && api.home == "/home/u/cx")
        #expect(api.credentialsFile == "/home/u/cx/auth.json" && api.source == api.credentialsFile)
        codex.settings.codexSource = .logs
        #expect(Self.identity(codex).codexSource == .logs)
        // `codex_source` is a Codex account's only.
        let claude = AccountIdentity(environment: Self.base.overlaid(["ELBOWROOM_CODEX_SOURCE=logs"]), home: "/home/u")
        #expect(claude.provider == .claude && claude.codexSource == .api && claude.home == nil)
    }

    @Test func aWordNoProviderHasIsKeptToBeRefused() {
        let bogus = AccountIdentity(environment: Self.base.overlaid(["ELBOWROOM_PROVIDER=bogus"]), home: "/home/u")
        #expect(bogus.unknownProvider == "bogus" && bogus.provider == .claude)
        #expect(bogus.key == "f3c16f525a1b7c20" && bogus.source == "bogus" && bogus.credentialsFile.isEmpty)
        let claude = AccountIdentity(environment: Self.base.overlaid(["ELBOWROOM_PROVIDER=claude"]), home: "/home/u")
        #expect(claude == AccountIdentity(environment: Self.base, home: "/home/u"))
    }

    /// Codex's windows named by their length and the lengths of window keys are one table, both
    /// ways round.
    @Test func aWindowNamedByItsLengthHasThatLength() throws {
        for seconds in [3600.0, 18000, 86400, 604800, 2_592_000] {
            let length = try #require(WindowCatalog.Length(seconds: seconds))
            #expect(WindowCatalog.length(forKey: length.key) == seconds, "\(length.key)")
        }
        #expect(WindowCatalog.Length(seconds: 2_628_000)?.key == "thirty_day")
        #expect(WindowCatalog.Length(seconds: 7200)?.key == "window_120m")
        #expect(WindowCatalog.Length(seconds: 30) == nil)
    }

    /// A Codex per-model window is told on bytes for an ASCII key, and that is what the
    /// `Character` form says, for every kind of key (and past ASCII the `Character` form decides).
    @Test func aPerModelWindowIsToldOnBytesAsOnCharacters() {
        let keys = ["five_hour", "five_hour_codex_bengalfox", "one_hour_x", "one_day_", "seven_day", "seven_day_opus",
                    "thirty_day_a", "tertiary_window_b", "tertiary_window", "window_120m", "window_120m_codex_x",
                    "window_m_", "window_", "m_", "windowm_", "blocked", "", "five_hour_\u{301}", "window_1m\u{301}_x",
                    "window_\u{600}m_x", "one_hour_é", "window_5m_é"]
        for key in keys {
            #expect(WindowCatalog.isCodexPerModel(key) == WindowCatalog.isCodexPerModelByCharacters(key), "\(key.debugDescription)")
        }
        #expect(WindowCatalog.isCodexPerModel("five_hour_codex_bengalfox") && !WindowCatalog.isCodexPerModel("window_120m"))
    }
}
