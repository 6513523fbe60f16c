import Foundation
import Testing
import ElbowroomCore
@testable import ElbowroomCLI

/// A template or config that the limits reject still leaves a bar with its short visible error
/// (exit 0, so the bar shows it instead of hiding the module) and the detail on stderr.
@Suite struct RejectedTemplateTests {
    static let deep = String(repeating: "(", count: 5000) + "{5h.left}" + String(repeating: ")", count: 5000)

    @Test(arguments: ["waybar", "i3bar", "i3blocks", "polybar", "swiftbar", "tmux"])
    func aTooDeepTemplateLeavesTheBarItsVisibleError(adapter: String) {
        let s = CLISandbox()
        s.saveCache(used: ["five_hour": 40], age: 30)
        #expect(s.run("-a", adapter, "-t", Self.deep) == 0)
        #expect(s.stdout.text.contains("⚠"))
        #expect(s.stderr.text.contains("template:1:33: error: groups nested too deeply: '[' and '(' may nest at most 32 levels"))
    }

    @Test func waybarNamesTheReasonInItsTooltip() throws {
        let s = CLISandbox()
        s.saveCache(used: ["five_hour": 40], age: 30)
        #expect(s.run("-a", "waybar", "-t", String(repeating: "x ", count: 35_000)) == 0)
        let line = try #require(s.stdout.text.split(separator: "\n").first)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(json["text"] as? String == "⚠ elbowroom")
        #expect(json["class"] as? String == "error")
        #expect(json["tooltip"] as? String == "template error: template too large: 70000 bytes, at most 65536 (64 KiB)")
    }

    @Test func aHugeUserTemplateFileIsReportedNotReadWhole() throws {
        let s = CLISandbox()
        s.saveCache(used: ["five_hour": 40], age: 30)
        try FileManager.default.createDirectory(atPath: s.paths.userTemplatesDir, withIntermediateDirectories: true)
        let path = s.paths.userTemplatesDir + "/big.tmpl"
        try String(repeating: "{5h.left} ", count: 1 << 20).write(toFile: path, atomically: true, encoding: .utf8)
        #expect(s.run("-a", "i3blocks", "-t", "big") == 0)
        #expect(s.stdout.text.hasPrefix("⚠ elbowroom\n"))
        #expect(s.stderr.text.contains("\(path):1:1: error: template too large: 10485760 bytes, at most 65536 (64 KiB)"))
    }

    @Test func aHugeConfigLeavesTheBarItsVisibleError() {
        let s = CLISandbox()
        s.saveCache(used: ["five_hour": 40], age: 30)
        s.writeConfig(String(repeating: "# filler\n", count: 40_000))
        #expect(s.run("-a", "waybar") == 0)
        #expect(s.stdout.text.contains("config error: config file too large: 360000 bytes, at most 262144 (256 KiB)"))
    }

    @Test func templatesCheckPositionsTheNestingError() {
        let s = CLISandbox()
        #expect(s.run("templates", "check", "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[x") == 2)
        #expect(s.stderr.text.hasPrefix("template:1:33: error: groups nested too deeply"))
    }
}
