import Foundation
import ElbowroomCore
import ElbowroomTestSupport
import Testing

/// Notifications tried out on a machine where they do not work yet: the route's own reason is
/// shown (notify-send's, not only its exit status), a failed send does not use up the crossing
/// (the next run sends it, once), and `notify --test` sends one sample through the route.
@Suite struct NotifyRetryTests {
    /// Real notify-send with no session bus, then on a real bus with dunst under Xvfb.
    @Test(.enabled(if: DunstSession.available, DunstSession.why))
    func aFailedSendSaysNotifySendsReasonAndIsSentOnceTheDaemonRuns() throws {
        let e = try EndToEnd(usage: .hang)
        try EndToEndNotifyTests.seedTwoCrossings(e)
        let dir = e.sandbox.root
        // What notify-send itself says without a bus, to compare with what elbowroom shows.
        var noBus = e.sandbox.environment
        noBus["DBUS_SESSION_BUS_ADDRESS"] = nil
        noBus["DISPLAY"] = nil
        let direct = try #require(try runBounded("/usr/bin/notify-send", ["x"], environment: noBus, seconds: 10))
        let reason = direct.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(direct.status != 0 && !reason.isEmpty)

        let first = try #require(try runBounded(e.elbowroom, ["notify", "--offline"], environment: noBus, seconds: 20))
        #expect(first.status == 1)
        #expect(first.stdout.isEmpty)
        #expect(first.stderr.contains("notify-send exited with status \(direct.status): \(reason)"), "\(first.stderr)")
        let test = try #require(try runBounded(e.elbowroom, ["notify", "--test"], environment: noBus, seconds: 20))
        #expect(test.status == 1)
        #expect(test.stdout == "elbowroom: sending a test notification through notify-send\n")
        #expect(test.stderr.contains("notify-send exited with status \(direct.status): \(reason)"), "\(test.stderr)")
        #expect(test.stderr.contains("needs a session bus"))

        // Now with a daemon: the crossings the failed run claimed are sent, once.
        let run = try #require(try DunstSession.run(e, body: """
            for i in 1 2; do
                '\(e.elbowroom)' notify --offline >'\(dir)/out'$i 2>'\(dir)/err'$i; echo $? >'\(dir)/rc'$i
            done
            '\(e.elbowroom)' notify --test >'\(dir)/out3' 2>'\(dir)/err3'; echo $? >'\(dir)/rc3'
            """), "the session hung")
        func file(_ name: String) -> String { (try? String(contentsOfFile: dir + "/" + name, encoding: .utf8)) ?? "" }
        #expect(file("rc1") == "0\n", "\(file("err1"))")
        #expect(file("out1").split(separator: "\n").sorted()
            == ["notified: Claude Session: 20% left (warn)", "notified: Claude Weekly: 5% left (critical)"], "\(file("err1"))")
        #expect(file("rc2") == "0\n" && file("out2").isEmpty, "sent twice: \(file("out2"))")
        #expect(file("rc3") == "0\n", "\(file("err3"))")
        #expect(file("out3") == "elbowroom: sending a test notification through notify-send\nsent\n")
        #expect(run.stdout.hasPrefix("history 3\n"), "\(run.stdout.prefix(300)) \(run.stderr)")
        #expect(run.stdout.contains("elbowroom: test notification"))
    }

    /// `notify_command`: the route's own output and status on failure, and the claim given back;
    /// `--test` gives it the sample JSON, marked `"test":true`.
    @Test func aFailingNotifyCommandSaysWhatItSaidAndTheCrossingWaits() throws {
        let e = try EndToEnd(usage: .hang)
        try EndToEndNotifyTests.seedTwoCrossings(e)
        let events = e.sandbox.root + "/events.jsonl"
        let gate = e.sandbox.root + "/open"
        try e.sandbox.writeConfig("""
            timeout = 3
            notify_command = "if [ -e '\(gate)' ]; then cat >> '\(events)'; else echo 'no daemon here' >&2; exit 3; fi"

            """)
        let failed = try e.runBounded(["notify", "--offline"])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("notify_command exited with status 3: no daemon here"), "\(failed.stderr)")
        let test = try e.runBounded(["notify", "--test"])
        #expect(test.status == 1)
        #expect(test.stderr.contains("notify_command exited with status 3: no daemon here"), "\(test.stderr)")

        FileManager.default.createFile(atPath: gate, contents: nil)
        let sent = try e.runBounded(["notify", "--offline"])
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(sent.stdout.split(separator: "\n").count == 2, "\(sent.stdout)")
        let again = try e.runBounded(["notify", "--offline"])
        #expect(again.status == 0 && again.stdout.isEmpty, "\(again.stdout)")
        let sample = try e.runBounded(["notify", "--test"])
        #expect(sample.status == 0, "\(sample.stderr)")
        #expect(sample.stdout.hasSuffix("\nsent\n"))
        let lines = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3)
        let last = try #require(try JSONSerialization.jsonObject(with: Data(lines[2].utf8)) as? [String: Any])
        #expect(last["test"] as? Bool == true)
        #expect(last["title"] as? String == "elbowroom: test notification")
        #expect(lines[0...1].allSatisfy { !$0.contains("\"test\"") })
    }

    /// `cache clear` with several accounts clears each (it cleared the first only), or the one
    /// `--account` names.
    @Test func cacheClearClearsEveryAccount() throws {
        let s = CLISandbox()
        let other = s.sandbox.root + "/other-claude"
        let third = s.sandbox.root + "/third-claude"
        s.writeConfig("""
            [accounts.work]
            claude_config_dir = "\(s.sandbox.claudeConfigDir)"
            [accounts.home]
            claude_config_dir = "\(other)"
            [accounts.lab]
            claude_config_dir = "\(third)"

            """)
        var files: [String] = []
        for dir in [s.sandbox.claudeConfigDir, other, third] {
            var env = s.environment
            env["CLAUDE_CONFIG_DIR"] = dir
            let store = CacheStore(paths: Paths(environment: ElbowroomEnvironment(env)))
            try store.save(CacheFile(account: "x", reading: nil))
            files.append(store.file)
        }
        #expect(files.allSatisfy(FileManager.default.fileExists))
        #expect(s.run("cache", "clear", "--account", "home") == 0)
        #expect(FileManager.default.fileExists(atPath: files[0]) && !FileManager.default.fileExists(atPath: files[1]))
        #expect(s.run("cache", "clear") == 0)
        #expect(files.allSatisfy { !FileManager.default.fileExists(atPath: $0) }, "\(s.stdout.text)")
        #expect(s.stdout.text.split(separator: "\n").filter { $0.hasPrefix("cleared ") }.count == 4, "\(s.stdout.text)")
    }
}
