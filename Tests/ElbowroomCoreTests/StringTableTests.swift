import Testing
@testable import ElbowroomCore

/// `StringTable` (a config's `[templates]` and `[colors]`) reads and writes as the dictionary it
/// replaced did, and keeps file order.
@Suite struct StringTableTests {
    @Test func itReadsAndWritesAsADictionary() {
        var table = StringTable()
        var reference: [String: String] = [:]
        #expect(table.isEmpty && table["tmux"] == nil)
        let steps: [(String, String?)] = [("tmux", "full"), ("default", "{5h.left}"), ("tmux", "compact"), ("x", nil),
                                          ("default", nil), ("waybar", ""), ("default", "minimal"), ("waybar", nil)]
        for (key, value) in steps {
            table[key] = value
            reference[key] = value
            #expect(table.count == reference.count)
            for k in ["tmux", "default", "waybar", "x"] { #expect(table[k] == reference[k], "\(k) after \(key)") }
            #expect(Set(table.keys) == Set(reference.keys))
        }
    }

    @Test func entriesKeepFileOrderAndEqualityIgnoresIt() throws {
        let config = try Config.parse("""
        [templates]
        waybar = "[{5h.left}%](level)"
        default = "full"
        tmux = "minimal"
        """, file: "c.toml")
        #expect(config.templates.map(\.key) == ["waybar", "default", "tmux"])
        #expect(config.templates.map(\.value) == ["[{5h.left}%](level)", "full", "minimal"])
        #expect(config.templates == ["tmux": "minimal", "default": "full", "waybar": "[{5h.left}%](level)"])
        #expect(config.templates != ["tmux": "minimal", "default": "full"])
        #expect(config.templates != ["tmux": "minimal", "default": "full", "waybar": "other"])
        var replaced = config.templates
        replaced["default"] = "compact"
        #expect(replaced.keys == ["waybar", "default", "tmux"] && replaced["default"] == "compact")
    }
}
