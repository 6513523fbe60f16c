import Foundation
import ElbowroomTestSupport
import Testing

/// `elbowroom.tmux`, the TPM plugin, in a real tmux: it turns `#{elbowroom}` into a `#()` job on
/// both sides of the status line, and an attached client then draws the headroom there.
@Suite(.enabled(if: TmuxScreen.available && FileManager.default.isExecutableFile(atPath: "/usr/bin/bash"), "needs tmux and bash"))
struct TmuxPluginTests {
    @Test func pluginReplacesThePlaceholderAndTheStatusLineShowsHeadroom() throws {
        let e = try EndToEnd()
        try e.seedCache(fiveHour: 37, age: 5)
        let inner = TmuxScreen()
        try inner.start("sleep 600")
        // What a user's tmux server has: their PATH (with elbowroom on it) and environment.
        let bin = URL(fileURLWithPath: e.elbowroom).deletingLastPathComponent().path
        for (key, value) in e.sandbox.environment {
            try inner.tmux(["set-environment", "-g", key, key == "PATH" ? bin + ":" + value : value])
        }
        try inner.tmux(["set", "-g", "status-interval", "1"])
        try inner.tmux(["set", "-g", "status-right", "#{elbowroom} & %H:%M"])
        try inner.tmux(["set", "-g", "status-left", "[#S] #{elbowroom}"])
        try inner.tmux(["set", "-g", "@elbowroom-template", "it's [{5h.left}%](level)"])
        try inner.tmux(["run-shell", ShippedFiles.path("elbowroom.tmux")])

        let job = "#(\(e.elbowroom) -a tmux -t 'it'\\''s [{5h.left}%](level)')"
        #expect(try inner.tmux(["show-option", "-gqv", "status-right"]) == "\(job) & %H:%M\n")
        #expect(try inner.tmux(["show-option", "-gqv", "status-left"]) == "[#S] \(job)\n")

        let outer = TmuxScreen()
        try outer.start("env -u TMUX tmux -L \(inner.socket) attach -t t")
        #expect(outer.waitFor("it's 63% &"), "status line: \((try? outer.screen()) ?? "")")
    }

    @Test func pluginLeavesAStatusLineWithoutThePlaceholderAlone() throws {
        let inner = TmuxScreen()
        try inner.start("sleep 600")
        try inner.tmux(["set", "-g", "status-right", "%H:%M #{=21:pane_title}"])
        try inner.tmux(["run-shell", ShippedFiles.path("elbowroom.tmux")])
        #expect(try inner.tmux(["show-option", "-gqv", "status-right"]) == "%H:%M #{=21:pane_title}\n")
    }
}
