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
}
