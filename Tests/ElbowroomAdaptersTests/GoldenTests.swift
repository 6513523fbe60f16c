import Foundation
import ElbowroomAdapters
import ElbowroomCore
import Testing

@Suite struct GoldenTests {
    static let adapters = AdapterRegistry.builtIn.map(\.name)

    @Test(arguments: adapters, GoldenCase.allCases)
    func renderMatchesGolden(adapter name: String, golden: GoldenCase) throws {
        let adapter = try #require(AdapterRegistry.builtIn(named: name))
        try Golden.check(adapter.render(Self.frame(golden, for: adapter)).text, adapter: name, name: golden.rawValue)
    }

    /// The golden frame in the adapter's own default colours, as a render gives it.
    static func frame(_ golden: GoldenCase, for adapter: any OutputAdapter) -> RenderedFrame {
        var frame = golden.frame
        frame.palette = Palette(defaults: adapter.defaultColors)
        return frame
    }

    @Test(arguments: adapters)
    func errorMatchesGolden(adapter name: String) throws {
        let adapter = try #require(AdapterRegistry.builtIn(named: name))
        let output = adapter.renderError("unknown placeholder '{5h.lft}' & <more> 10% #1 | x")
        // A consumer that shows output gets exit 0 (waybar and Claude Code hide anything that
        // exits non-zero); a person or a program keeps the CLI's exit 2 for errors, and a person
        // finds the detail on stderr alone.
        #expect(output.exitCode == (adapter.errorReader == .consumer ? 0 : 2))
        #expect(output.text.isEmpty == (adapter.errorReader == .person))
        try Golden.check(output.text, adapter: name, name: "error")
    }

    /// What `watch` writes: the header, two frames and an error frame.
    @Test(arguments: adapters)
    func streamMatchesGolden(adapter name: String) throws {
        let adapter = try #require(AdapterRegistry.builtIn(named: name))
        let text = (adapter.streamHeader() ?? "") + adapter.streamFrame(Self.frame(.freshOK, for: adapter))
            + adapter.streamFrame(Self.frame(.critical, for: adapter)) + adapter.streamError("template error")
        try Golden.check(text, adapter: name, name: "stream")
    }

    @Test func i3blocksExitsUrgentOnlyWhenCritical() {
        for golden in GoldenCase.allCases {
            let code = I3blocksAdapter().render(golden.frame).exitCode
            #expect(code == (golden.frame.level == .critical ? 33 : 0), "\(golden)")
        }
    }

    @Test(arguments: adapters)
    func otherAdaptersExitZeroWhenTheyRender(adapter name: String) throws {
        guard name != "i3blocks" else { return }
        let adapter = try #require(AdapterRegistry.builtIn(named: name))
        for golden in GoldenCase.allCases {
            #expect(adapter.render(golden.frame).exitCode == 0, "\(name) \(golden)")
        }
    }

    @Test func registryNamesAreUniqueAndDocumented() {
        let names = AdapterRegistry.builtIn.map(\.name)
        #expect(Set(names).count == names.count)
        for expected in ["plain", "ansi", "bash", "zsh", "fish", "tmux", "waybar", "i3bar", "i3blocks",
                         "polybar", "swiftbar", "claude", "json", "prometheus"] {
            #expect(names.contains(expected), "\(expected)")
        }
        #expect(AdapterRegistry.builtIn.allSatisfy { !$0.summary.isEmpty && !$0.summary.contains("\n") })
    }
}
