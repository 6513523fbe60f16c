import Foundation
import ElbowroomAdapters
import ElbowroomCore
import Testing

/// Every adapter's default colours read on its consumer's default themes (issue 23: ok green on
/// tmux's green bar, yellow on a light terminal).
@Suite struct DefaultContrastTests {
    @Test(arguments: AdapterRegistry.builtIn.map(\.name))
    func defaultColoursReadOnTheConsumersDefaultThemes(adapter name: String) throws {
        let adapter = try #require(AdapterRegistry.builtIn(named: name))
        // Whether it colours text at all: its output of a critical frame changes when the
        // palette has no colours.
        var coloured = GoldenCase.critical.frame
        coloured.palette = Palette(defaults: adapter.defaultColors)
        var uncoloured = coloured
        uncoloured.palette = Palette(defaults: Palette.Colors(ok: nil, warn: nil, critical: nil, stale: nil, dim: nil))
        if adapter.render(coloured).text != adapter.render(uncoloured).text {
            #expect(!adapter.defaultThemes.isEmpty, "\(name) colours text: it names the themes it must read on")
        } else {
            #expect(adapter.defaultThemes.isEmpty, "\(name) shows no colour: no themes to read on")
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

/// A critical i3bar block is urgent: the bar draws it on its urgent red (#900000) in its urgent
/// text colour, except where a Pango span names a foreground. Every character must read there:
/// 4.5:1, WCAG's mark for text (ok green in a span was 3.9:1).
@Suite struct UrgentBlockContrastTests {
    @Test(arguments: ["i3bar", "i3blocks-json"])
    func everySpanOfAnUrgentBlockReadsOnTheUrgentBackground(adapter name: String) throws {
        let adapter = try #require(AdapterRegistry.builtIn(named: name))
        // 5h critical (bold red) beside 7d ok (green): several colours, so the text needs markup.
        let frame = GoldenCase.critical.frame
        #expect(frame.level == .critical)
        let line = adapter.render(frame).text
        let json = String(line.drop { $0 != "{" }.prefix { $0 != "\n" }.reversed().drop { $0 != "}" }.reversed())
        let block = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(block["urgent"] as? Bool == true)
        let theme = ConsumerTheme.i3barUrgent
        let text = try #require(block["full_text"] as? String)
        // The colours the bar draws the text in: each span's foreground, else the urgent text colour.
        var colours: [(UInt8, UInt8, UInt8)] = [theme.foreground]
        var rest = Substring(text)
        while let range = rest.range(of: "foreground=\"#") {
            let hex = rest[range.upperBound...].prefix(6)
            let value = try #require(UInt32(hex, radix: 16))
            colours.append((UInt8(value >> 16), UInt8((value >> 8) & 0xff), UInt8(value & 0xff)))
            rest = rest[range.upperBound...]
        }
        for colour in colours {
            let ratio = Contrast.ratio(colour, theme.background)
            #expect(ratio >= 4.5, "\(name): \(colour) on #900000 is \(ratio):1 in \(text)")
        }
        #expect(text.contains("30%") && text.contains("5%"), "\(text)")
    }
}
