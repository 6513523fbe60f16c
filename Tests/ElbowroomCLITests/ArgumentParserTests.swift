import Testing
@testable import ElbowroomCLI
import ElbowroomAdapters

@Suite struct ArgumentParserTests {
    @Test func renderIsTheDefaultCommand() throws {
        let i = try ArgumentParser.parse(["-a", "waybar", "--template=full", "--max-age", "30", "--offline", "--color", "never", "--demo"])
        #expect(i.command == .render)
        #expect(i.adapter == "waybar" && i.template == "full" && i.maxAge == 30 && i.offline && i.color == .never && i.demo)
    }

    @Test func commands() throws {
        #expect(try ArgumentParser.parse(["watch", "-a", "i3bar", "--interval", "0.5"]).interval == 0.5)
        #expect(try ArgumentParser.parse(["fetch", "--force", "--json"]).command == .fetch(force: true, json: true))
        #expect(try ArgumentParser.parse(["templates"]).command == .templates(.list))
        #expect(try ArgumentParser.parse(["templates", "show", "compact"]).command == .templates(.show("compact")))
        #expect(try ArgumentParser.parse(["templates", "check", "{5h.left}"]).command == .templates(.check("{5h.left}")))
        #expect(try ArgumentParser.parse(["init", "tmux"]).command == .initSnippet("tmux"))
        #expect(try ArgumentParser.parse(["cache"]).command == .cache(.show))
        #expect(try ArgumentParser.parse(["cache", "clear"]).command == .cache(.clear))
        #expect(try ArgumentParser.parse(["--version"]).command == .version)
        #expect(try ArgumentParser.parse(["render", "--help"]).command == .help)
    }

    @Test(arguments: [
        (["--adpater", "x"], "unknown option '--adpater' (did you mean '--adapter'?)"),
        (["wach"], "unknown command 'wach' (did you mean 'watch'?); see 'elbowroom --help'"),
        (["-a"], "-a needs a value"),
        (["--max-age", "0"], "--max-age takes a number of seconds from 1 to 31536000, not '0'"),
        (["--max-age", "1e300"], "--max-age takes a number of seconds from 1 to 31536000, not '1e300'"),
        (["watch", "--interval", "3e6"], "--interval takes a number of seconds from 0.01 to 3600, not '3e6'"),
        (["--color", "sometimes"], "--color takes auto, always or never, not 'sometimes'"),
        (["--force"], "--force goes with 'elbowroom fetch'"),
        (["cache", "cleer"], "unknown cache action 'cleer' (did you mean 'clear'?)"),
        (["templates", "show"], "usage: elbowroom templates show NAME"),
        (["doctor", "now"], "unexpected argument 'now' for 'doctor'"),
    ])
    func usageErrors(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try ArgumentParser.parse(arguments) }
    }

    /// `--flag=value` is split where `firstIndex(of: "=")` splits it, ASCII or not.
    @Test func theEqualsSignIsFoundWhereACharacterSearchFindsIt() {
        for arg in ["--template=full", "--x=", "--=", "--a=b=c", "--é=1", "--a=\u{301}b", "--a\u{301}=b", "--a=é",
                    "--\u{600}=x", "--none", "--a=\u{200D}", "--a=\r\n", "--\u{1F600}=\u{1F600}"] {
            #expect(ArgumentParser.equalsSign(in: arg) == arg.firstIndex(of: "="), "\(arg.debugDescription)")
        }
        #expect(throws: Never.self) {
            let i = try ArgumentParser.parse(["--template=full", "--account=wörk"])
            #expect(i.template == "full" && i.account == "wörk")
        }
    }
}
