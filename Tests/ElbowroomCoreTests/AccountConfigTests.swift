import Foundation
import Testing
@testable import ElbowroomCore

/// `[accounts.NAME]` tables and what an account changes: its environment, paths and cache.
@Suite struct AccountConfigTests {
    @Test func accountsKeepConfigOrderAndDefaultToClaudeWithTheirNameAsLabel() throws {
        let config = try Config.parse("""
            [accounts.work]
            claude_config_dir = "~/.claude-work"
            label = "W"

            [accounts.home]
            label = "H"

            [accounts.codex]
            provider = "codex"
            codex_source = "logs"

            [accounts.gem]
            provider = "plugin:gemini"
            """, file: "c.toml")
        #expect(config.accounts.map(\.name) == ["work", "home", "codex", "gem"])
        #expect(config.accounts.map(\.label) == ["W", "H", "codex", "gem"])
        #expect(config.accounts.map(\.provider) == [.claude, .claude, .codex, .plugin("gemini")])
        #expect(config.accounts[0].settings.claudeConfigDir == "~/.claude-work")
        #expect(config.accounts[2].settings.codexSource == .logs)
    }

    /// A table's name spaced around its dot is the same table as written close (one is read
    /// from its bytes whole, the other joined), and more than five accounts keep their order.
    @Test func aSpacedTableNameIsTheSameAccount() throws {
        let close = try TOMLSubset.parse("[accounts.a]\nlabel = \"A\"\n[colors.tmux]\nok = \"green\"\n")
        for spaced in ["[ accounts . a ]\nlabel = \"A\"\n[colors .tmux]\nok = \"green\"\n",
                       "[accounts. a]\nlabel = \"A\"\n[colors\t.\ttmux ]\nok = \"green\"\n"] {
            let entries = try TOMLSubset.parse(spaced)
            #expect(entries.map(\.table) == close.map(\.table) && entries.map(\.table) == ["accounts.a", "colors.tmux"])
        }
        var text = ""
        for name in ["f", "e", "d", "c", "b", "a"] { text += "[accounts.\(name)]\nlabel = \"\(name.uppercased())\"\n" }
        text += "[accounts.e2]\nlabel = \"E2\"\n"
        let config = try Config.parse(text, file: "c.toml")
        #expect(config.accounts.map(\.name) == ["f", "e", "d", "c", "b", "a", "e2"])
        #expect(config.accounts.map(\.label) == ["F", "E", "D", "C", "B", "A", "E2"])
        #expect(throws: ConfigError.self) { try Config.parse("[accounts.a]\nlabel = \"A\"\n[ accounts . a ]\n", file: "c.toml") }
    }

    /// A provider's key at its default says nothing another provider's account could mind:
    /// `codex_source = "api"` on a `claude` account passes (as it always has).
    @Test func aProvidersKeyAtItsDefaultIsNoMismatch() throws {
        let config = try Config.parse("[accounts.a]\ncodex_source = \"api\"\n", file: "c.toml")
        #expect(config.accounts[0].provider == .claude && config.accounts[0].settings == ProviderSettings())
    }

    @Test func withoutAccountTablesThereAreNoAccounts() throws {
        #expect(try Config.parse("max_age = 60\n", file: "c.toml").accounts.isEmpty)
    }

    @Test(arguments: [
        ("[accounts.a]\nprovider = \"gemini\"\n", "must be \"claude\", \"codex\" or \"plugin:NAME\""),
        ("[accounts.a]\nprovider = \"plugin:../x\"\n", "plugin:NAME"),
        ("[accounts.a]\nlabl = \"A\"\n", "did you mean 'label'"),
        ("[accounts.a]\nprovider = \"codex\"\nclaude_config_dir = \"/x\"\n", "claude_config_dir goes with provider = \"claude\""),
        ("[accounts.a]\nclaude_config_dir = \"relative\"\n", "must be an absolute path"),
        // A provider's own keys (`ProviderSettings`, in Provider.swift): read and checked there,
        // with the texts they always had.
        ("[accounts.a]\ncodex_home = \"/x\"\n", "accounts.a: codex_home goes with provider = \"codex\""),
        ("[accounts.a]\nprovider = \"plugin:p\"\ncodex_source = \"logs\"\n", "accounts.a: codex_source goes with provider = \"codex\""),
        ("[accounts.a]\nprovider = \"plugin:p\"\ncodex_home = \"/x\"\nclaude_config_dir = \"/y\"\n", "accounts.a: claude_config_dir goes with provider = \"claude\""),
        ("[accounts.a]\nprovider = \"codex\"\ncodex_source = \"log\"\n", "'accounts.a.codex_source' must be \"api\" or \"logs\", not \"log\""),
        ("[accounts.a]\nprovider = \"codex\"\ncodex_home = \"x\"\n", "'accounts.a.codex_home' must be an absolute path (or start with ~/)"),
        ("[accounts.a]\nprovider = \"codex\"\ncodex_home = 3\n", "'codex_home' must be a string, not a number"),
        ("[accounts.a]\ncodx_home = \"/x\"\n", "unknown key 'accounts.a.codx_home' (did you mean 'codex_home'?)"),
        ("[accounts.a]\nlabel = \"a\\nb\"\n", "without controls or line breaks"),
        ("[nested.a]\nlabel = \"x\"\n", "nested tables are not supported"),
    ])
    func aBadAccountIsAConfigErrorThatSaysWhy(_ text: String, _ message: String) {
        #expect {
            try Config.parse(text, file: "c.toml")
        } throws: { error in
            (error as? ConfigError)?.message.contains(message) == true
        }
    }

    @Test func anAccountsClaudeConfigDirIsTheSameAccountAsThatCLAUDE_CONFIG_DIR() throws {
        let base = ElbowroomEnvironment(["HOME": "/home/u", "XDG_CACHE_HOME": "/tmp/c"])
        var account = Account(name: "work")
        account.settings.claudeConfigDir = "~/.claude-work"
        let viaAccount = Paths(environment: account.environment(over: base))
        let viaVariable = Paths(environment: ElbowroomEnvironment(["HOME": "/home/u", "XDG_CACHE_HOME": "/tmp/c",
                                                                   "CLAUDE_CONFIG_DIR": "/home/u/.claude-work"]))
        #expect(viaAccount.accountKey == viaVariable.accountKey)
        #expect(viaAccount.cacheFile == viaVariable.cacheFile)
        #expect(viaAccount.accountKey != Paths(environment: base).accountKey)
    }

    @Test func aCodexAccountHasItsOwnCacheKeyedByItsCodexHome() {
        let base = ElbowroomEnvironment(["HOME": "/home/u"])
        var codex = Account(name: "x")
        codex.provider = .codex
        let paths = Paths(environment: codex.environment(over: base))
        #expect(paths.credentialsFile == "/home/u/.codex/auth.json")
        #expect(paths.codexHome == "/home/u/.codex")
        codex.settings.codexHome = "/srv/codex2"
        let other = Paths(environment: codex.environment(over: base))
        #expect(other.credentialsFile == "/srv/codex2/auth.json")
        #expect(Set([paths.accountKey, other.accountKey, Paths(environment: base).accountKey]).count == 3)
    }

    /// A render of several accounts derives each account's paths from the first ones
    /// (`Paths(account:sharing:)`); they must be what the account's environment alone gives,
    /// for every provider, over fixed and live environments, with `~` and odd spellings.
    @Test func anAccountsSharedPathsEqualItsOwn() {
        var accounts: [Account] = []
        for (i, dir) in [nil, "~/.claude-work", "/srv/claude/../claude-x/", "~"].enumerated() {
            var account = Account(name: "c\(i)")
            account.settings.claudeConfigDir = dir
            accounts.append(account)
        }
        for (i, home) in [nil, "~/codex", "/opt/codex/"].enumerated() {
            var account = Account(name: "x\(i)")
            account.provider = .codex
            account.settings.codexHome = home
            account.settings.codexSource = i == 2 ? .logs : .api
            accounts.append(account)
        }
        var plugin = Account(name: "g")
        plugin.provider = .plugin("gemini")
        accounts.append(plugin)
        let bases = [
            ElbowroomEnvironment(["HOME": "/home/u"]),
            ElbowroomEnvironment(["HOME": "/home/u/", "CLAUDE_CONFIG_DIR": "~/other", "XDG_CACHE_HOME": "/c", "XDG_CONFIG_HOME": "rel",
                                  "ELBOWROOM_CONFIG": "/etc/e.toml", "CLAUDE_SECURESTORAGE_CONFIG_DIR": "/secure"]),
            ElbowroomEnvironment(["HOME": "/home/u", "CLAUDE_SECURESTORAGE_CONFIG_DIR": "", "CODEX_HOME": "/cx"]),
            ElbowroomEnvironment.current,
        ]
        for base in bases {
            let basePaths = Paths(environment: base)
            for account in accounts {
                let env = account.environment(over: base)
                #expect(Paths(account: env, sharing: basePaths) == Paths(environment: env), "\(account.name)")
            }
        }
    }

    @Test func anOverlayOnTheLiveEnvironmentReadsItsOwnVariablesFirst() {
        let live = ElbowroomEnvironment.current.overlaid(["ELBOWROOM_TEST_OVERLAY=one", "ELBOWROOM_TEST_OVERLAY=two", "PATH="])
        #expect(live["ELBOWROOM_TEST_OVERLAY"] == "two")
        #expect(live["PATH"] == nil, "an empty value reads as unset")
        #expect(live["HOME"] == ElbowroomEnvironment.current["HOME"])
        #expect(live.variables["ELBOWROOM_TEST_OVERLAY"] == "two")
        #expect(live.forChild["ELBOWROOM_TEST_OVERLAY"] == "two")
    }
}
