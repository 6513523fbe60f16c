import Foundation
import ElbowroomAdapters
import ElbowroomCore
import Testing
import ElbowroomTestSupport

/// The adapters' output fed to the real consumers installed on this machine. A test whose
/// program is missing is skipped with a message naming it.
@Suite struct RealConsumerTests {
    static func require(_ program: String) -> String? {
        let path = Shell.which(program)
        if path == nil { print("skipping: \(program) is not installed (apt-get install -y \(program))") }
        return path
    }

    /// What every terminal consumer must end up showing: the text, without control characters.
    static func visible(_ frame: RenderedFrame) -> String { SafeText.clean(frame.spans.plainText, lines: .keep) }

    /// bash decodes PS1 first and substitutes `$(…)` after, exactly as `PS1='$(elbowroom -a bash)'`
    /// does: the output must come through byte for byte, every escape inside 0x01…0x02.
    @Test(arguments: GoldenCase.allCases)
    func bashPromptKeepsMarkersAroundEveryEscape(golden: GoldenCase) throws {
        guard let bash = Self.require("bash") else { return }
        let dir = try Shell.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = BashAdapter().render(golden.frame).text
        let file = dir.appendingPathComponent("out")
        try Data(output.utf8).write(to: file)
        let result = try Shell.run(bash, ["--norc", "--noprofile", "-c", #"PS1='$(cat "$HR_FILE")'; printf %s "${PS1@P}""#],
                                   environment: ["HR_FILE": file.path])
        let expanded = String(decoding: result.stdout, as: UTF8.self)
        #expect(Array(expanded.utf8) == Array(output.dropLast().utf8))
        // Every ESC is the first byte after a 0x01, and its sequence ends right before a 0x02.
        let bytes = Array(expanded.utf8)
        var i = 0
        var escapes = 0
        while i < bytes.count {
            if bytes[i] == 0x1B {
                escapes += 1
                #expect(i > 0 && bytes[i - 1] == 0x01, "ESC at \(i) not opened with 0x01")
                var j = i + 1
                while j < bytes.count && bytes[j] != UInt8(ascii: "m") { j += 1 }
                #expect(j + 1 < bytes.count && bytes[j + 1] == 0x02, "escape at \(i) not closed with 0x02")
                i = j
            }
            i += 1
        }
        #expect(bytes.filter { $0 == 0x01 }.count == escapes)
        #expect(bytes.filter { $0 == 0x02 }.count == escapes)
        #expect(Shell.stripEscapes(expanded).filter { $0 != "\u{01}" && $0 != "\u{02}" }
                == Self.visible(golden.frame))
    }

    /// zsh with prompt_subst substitutes `$(…)` and then prompt-expands its output.
    @Test(arguments: GoldenCase.allCases)
    func zshPromptShowsTheTextAndItsColours(golden: GoldenCase) throws {
        guard let zsh = Self.require("zsh") else { return }
        let dir = try Shell.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("out")
        try Data(ZshAdapter().render(golden.frame).text.utf8).write(to: file)
        let result = try Shell.run(zsh, ["-f", "-c", #"setopt prompt_subst; print -rnP -- '$(cat $HR_FILE)'"#],
                                   environment: ["HR_FILE": file.path, "TERM": "xterm-256color", "LANG": "C.UTF-8"])
        let expanded = String(decoding: result.stdout, as: UTF8.self)
        #expect(Shell.stripEscapes(expanded) == Self.visible(golden.frame))
        switch golden {
        case .freshOK: #expect(expanded.contains("\u{1B}[32m63%\u{1B}[39m"))
        case .critical: #expect(expanded.contains("\u{1B}[1m\u{1B}[97m\u{1B}[41m5%\u{1B}[49m\u{1B}[39m"))
        case .hostile:
            #expect(expanded.contains("d%e#f|g%{h"))
            #expect(expanded.contains("%F{red}"))
            #expect(expanded.contains("\u{1B}[38;5;208m 10%"))
            #expect(expanded.contains("\u{1B}[38;2;255;136;0m"))
        default: break
        }
    }

    /// fish measures the prompt itself: escapes must count as zero width.
    @Test(arguments: GoldenCase.allCases)
    func fishSeesEscapesAsZeroWidth(golden: GoldenCase) throws {
        guard let fish = Self.require("fish") else { return }
        let dir = try Shell.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let styled = dir.appendingPathComponent("styled"), plain = dir.appendingPathComponent("plain")
        try Data(FishAdapter().render(golden.frame).text.utf8).write(to: styled)
        try Data((Self.visible(golden.frame) + "\n").utf8).write(to: plain)
        func widths(_ file: URL) throws -> String {
            String(decoding: try Shell.run(fish, ["--no-config", "-c", "string length --visible -- (cat $argv[1])", file.path],
                                           environment: ["LANG": "C.UTF-8"]).stdout, as: UTF8.self)
        }
        #expect(try widths(styled) == widths(plain))
    }

    /// The status line as a real tmux client draws it: `##` shows as `#`, `%` stays, styles apply.
    /// A client of a second tmux server is attached to the first, and its screen is read back.
    @Test(.enabled(if: TmuxScreen.available, "needs tmux"))
    func tmuxStatusLineShowsDataLiterally() throws {
        let dir = try Shell.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let frame = GoldenCase.hostile.frame
        let file = dir.appendingPathComponent("out")
        try Data(TmuxAdapter().render(frame).text.utf8).write(to: file)
        let inner = TmuxScreen()
        try inner.start("sleep 600", width: 300, height: 5)
        for option in [["status-left", ""], ["status-right-length", "280"], ["status-interval", "1"],
                       ["status-right", "#(cat '\(file.path)')"]] {
            try inner.tmux(["set", "-g"] + option)
        }
        let outer = TmuxScreen()
        try outer.start("env -u TMUX tmux -L \(inner.socket) attach -t t", width: 300, height: 5)
        let expected = SafeText.clean(frame.spans.plainText, lines: .join)
        #expect(outer.waitFor(expected, seconds: 10), "tmux drew: \(((try? outer.screen()) ?? "").debugDescription)")
        #expect(try outer.screen(escapes: true).contains("\u{1B}[32m50%"), "green 50%")
    }

    @Test(arguments: GoldenCase.allCases)
    func barLinesParseAsJSONWithValidPango(golden: GoldenCase) throws {
        let frame = golden.frame
        let waybar = try JSONChecks.object(WaybarAdapter().render(frame).text)
        try JSONChecks.expectValidPango(try #require(waybar["text"] as? String))
        try JSONChecks.expectValidPango(try #require(waybar["tooltip"] as? String))
        #expect(!(waybar["text"] as? String ?? "").contains("\n"))

        for line in [I3barAdapter().render(frame).text, "[" + I3blocksJSONAdapter().render(frame).text + "]"] {
            let block = try #require(try JSONChecks.array(line).first)
            if block["markup"] as? String == "pango" {
                try JSONChecks.expectValidPango(try #require(block["full_text"] as? String))
                try JSONChecks.expectValidPango(try #require(block["short_text"] as? String))
            }
            #expect(block["full_text"] is String)
            #expect((block["color"] as? String)?.count == 7)
        }
        let view = try JSONChecks.object(JSONAdapter().render(frame).text)
        #expect(view["status"] as? String == frame.status.rawValue)
    }

    @Test func i3barStreamIsAValidInfiniteArray() throws {
        let adapter = I3barAdapter()
        let stream = (adapter.streamHeader() ?? "") + adapter.streamFrame(GoldenCase.freshOK.frame)
            + adapter.streamFrame(GoldenCase.hostile.frame) + adapter.streamError("x")
        let lines = stream.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = try JSONChecks.object(lines[0])
        #expect(header["version"] as? Int == 1)
        #expect(header["click_events"] as? Bool == true)
        #expect(header["stop_signal"] as? Int == 12)
        #expect(header["cont_signal"] as? Int == 18)
        #expect(lines[1] == "[")
        // The endless array, closed by hand, parses.
        let body = "[" + lines[2...].joined(separator: "\n").dropLast(2) + "]"
        let frames = try #require(try JSONChecks.value(body) as? [[[String: Any]]])
        #expect(frames.count == 3)
        #expect(frames.allSatisfy { $0.first?["name"] as? String == "elbowroom" })
    }

    @Test(arguments: GoldenCase.allCases)
    func polybarOutputHasOnlyOurTags(golden: GoldenCase) {
        let out = PolybarAdapter().render(golden.frame).text
        #expect(out.hasSuffix("\n") && out.dropLast().firstIndex(of: "\n") == nil, "one line")
        var rest = Substring(out)
        while let r = rest.range(of: "%{") {
            let tag = rest[r.upperBound...].prefix(2)
            #expect(["F#", "F-", "B#", "B-", "+u", "-u"].contains(String(tag)), "unexpected tag %{\(tag)")
            rest = rest[r.upperBound...]
        }
    }

    @Test(arguments: GoldenCase.allCases)
    func swiftbarLinesHaveOneParameterSeparator(golden: GoldenCase) {
        let out = SwiftBarAdapter().render(golden.frame).text
        for line in out.split(separator: "\n") where line != "---" {
            let text = line.components(separatedBy: " | ").first ?? ""
            #expect(!text.contains("|"), "\(line)")
            #expect(line.components(separatedBy: " | ").count <= 2, "\(line)")
        }
        #expect(out.components(separatedBy: "\n---\n").count >= 2)
    }
}
