import Testing
import ElbowroomAdapters

/// The adapter names people type from memory.
@Suite struct AdapterRegistryTests {
    /// Every listed alias means a built-in adapter, and nothing else is taken for one: the list
    /// (did-you-mean, `--help`) and the switch (every render) say the same.
    @Test func theAliasesListedAreTheOnesTaken() {
        for alias in AdapterRegistry.aliasNames {
            let name = AdapterRegistry.canonicalName(alias)
            #expect(name != alias && AdapterRegistry.builtIn(named: alias)?.name == name, "\(alias)")
        }
        for adapter in AdapterRegistry.builtIn {
            #expect(AdapterRegistry.canonicalName(adapter.name) == adapter.name)
        }
        for other in ["i3status", "swaybars", "Sway", "waybar2"] {
            #expect(AdapterRegistry.canonicalName(other) == other)
        }
    }

    /// The switch `builtIn(named:)` is (every render runs it) finds exactly the adapters of the
    /// `builtIn` list (`elbowroom adapters`, --help), each under its own name, and nothing else.
    @Test func theSwitchFindsEveryListedAdapterAndNothingElse() {
        for adapter in AdapterRegistry.builtIn {
            let found = AdapterRegistry.builtIn(named: adapter.name)
            #expect(found?.name == adapter.name, "\(adapter.name)")
            #expect(found.map { type(of: $0) == type(of: adapter) } == true, "\(adapter.name)")
        }
        for other in ["", "Tmux", "tmux ", "starship", "i3blocks_json", "plugin", "waybar2", "json-lines"] {
            #expect(AdapterRegistry.builtIn(named: other) == nil, "\(other)")
        }
    }
}
