import Foundation
import Testing
import ElbowroomCore

@Suite struct SourceNotifyConfigTests {
    @Test func sourceNotifyCommandAndNotifyTableParse() throws {
        let config = try Config.parse("""
            source = "statusline"
            notify_command = "notify-me --json"
            [notify]
            warn = false
            reset = true
            """, file: "c")
        #expect(config.usageSource == .statusLine)
        #expect(!config.usageSource.mayFetch)
        #expect(config.notifyCommand == "notify-me --json")
        #expect(config.notify.enabled == [.critical, .exhausted, .runsOut, .reset, .unused, .elsewhere])
        let defaults = Config()
        #expect(defaults.usageSource == .api && defaults.notifyCommand == nil)
        #expect(defaults.notify.enabled == [.warn, .critical, .exhausted, .runsOut, .unused, .elsewhere])
        #expect(defaults.notify.elsewherePoints == 5)
        let elsewhere = try Config.parse("[notify]\nelsewhere = false\nelsewhere_points = 12.5", file: "c")
        #expect(!elsewhere.notify.isEnabled(.elsewhere))
        #expect(elsewhere.notify.elsewherePoints == 12.5)
        #expect(try Config.parse("notify_command = \"\"", file: "c").notifyCommand == nil)
    }

    @Test(arguments: [
        ("source = \"network\"", "c:1:10: error: source must be \"api\" or \"statusline\", not \"network\""),
        ("source = 1", "c:1:10: error: 'source' must be a string, not a number"),
        ("[notify]\nwarn = \"yes\"", "c:2:8: error: 'notify.warn' must be true or false, not a string"),
        ("[notify]\nrun_out = true", "c:2:1: error: unknown key 'notify.run_out' (did you mean 'runs_out'?)"),
        ("notify_comand = \"x\"", "c:1:1: error: unknown key 'notify_comand' (did you mean 'notify_command'?)"),
        ("[notify]\nelsewhere_points = 0", "c:2:20: error: 'elsewhere_points' must be between 0.1 and 100"),
        ("[notify]\nelsewhere_point = 3", "c:2:1: error: unknown key 'notify.elsewhere_point' (did you mean 'elsewhere_points'?)"),
    ])
    func badValuesAreClearErrors(text: String, message: String) {
        #expect(throws: ConfigError.self) { try Config.parse(text, file: "c") }
        do {
            _ = try Config.parse(text, file: "c")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func elbowroomNowSetsTheClockOfOneProcess() {
        let set = ProcessClock.make(environment: ElbowroomEnvironment(["ELBOWROOM_NOW": "1800000000"]))
        #expect(set.warning == nil)
        #expect(set.now() == Date(timeIntervalSince1970: 1_800_000_000))
        let fraction = ProcessClock.make(environment: ElbowroomEnvironment(["ELBOWROOM_NOW": "1800000000.5"]))
        #expect(fraction.now() == Date(timeIntervalSince1970: 1_800_000_000.5))
        let unset = ProcessClock.make(environment: ElbowroomEnvironment([:]))
        #expect(abs(unset.now().timeIntervalSinceNow) < 5 && unset.warning == nil)
        let bad = ProcessClock.make(environment: ElbowroomEnvironment(["ELBOWROOM_NOW": "tomorrow"]))
        #expect(bad.warning == "ELBOWROOM_NOW must be Unix epoch seconds, such as 1800000000, not 'tomorrow'; using the real clock")
        #expect(abs(bad.now().timeIntervalSinceNow) < 5)
    }

    @Test func statusLineModeWithoutDataSaysWhereDataWillComeFrom() throws {
        var config = Config()
        #expect(UsageView(cache: nil, now: Date(), config: config).error == nil)
        config.usageSource = .statusLine
        #expect(UsageView(cache: nil, now: Date(), config: config).error == "waiting for Claude Code's status line")
    }
}
