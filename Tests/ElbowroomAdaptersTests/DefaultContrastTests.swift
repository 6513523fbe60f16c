import ElbowroomAdapters
import ElbowroomCore
import Testing

/// Every adapter's default colours read on its consumer's default themes (issue 23: ok green on
/// tmux's green bar, yellow on a light terminal).
@Suite struct DefaultContrastTests {
    @Test(arguments: AdapterRegistry.builtIn.map(\.name))
    func defaultColoursReadOnTheConsumersDefaultThemes(adapter name: String) throws {
        let adapter = try #require(AdapterRegistry.builtIn(named: name))
        if !["plain", "json", "prometheus"].contains(name) {
            #expect(!adapter.defaultThemes.isEmpty, "\(name) colours text: it names the themes it must read on")
        }
        for theme in adapter.defaultThemes {
            for style in SemanticStyle.allCases {
                let ratio = theme.contrast(style, in: adapter.defaultColors)
                #expect(ratio >= Contrast.minimum, "\(name): \(style) is \(ratio):1 on \(theme.name)")
            }
        }
    }

    /// The figures the table in docs/adapters.md is made of, against the WCAG examples.
    @Test func contrastIsWCAGs() {
        #expect(abs(Contrast.ratio((0, 0, 0), (255, 255, 255)) - 21) < 0.001)
        #expect(Contrast.ratio((119, 119, 119), (255, 255, 255)) > 4.47)
        #expect(Contrast.ratio((119, 119, 119), (255, 255, 255)) < 4.49)
        #expect(abs(ConsumerTheme.tmuxDefault.contrast(.warn, in: Palette.defaults) - 1.27) < 0.01, "xterm yellow on xterm green")
    }
}
