import Foundation
import ElbowroomTestSupport
import Testing
@testable import ElbowroomCLI

/// The systemd snippets `init` prints and `init NAME --write` puts in place, checked by systemd
/// itself: `systemd-analyze verify --user` on each unit file as printed (every timer snippet used
/// to print its `.timer` commented out inside the `.service`, so the "enable --now ….timer" line
/// could not work as pasted), and `systemctl --global --root` enabling the timer, which needs an
/// `[Install]` section that is not a comment.
@Suite struct SystemdUnitTests {
    static let analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let systemctl = ["/usr/bin/systemctl", "/bin/systemctl"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Each systemd snippet is its units, each under its own path line and uncommented: a
    /// service, and for the timers a timer with `[Install]`; the unit the printed `systemctl`
    /// line enables is one of them.
    @Test(arguments: IntegrationSnippets.systemdUnits.map(\.name))
    func everyUnitIsABlockOfItsOwn(name: String) throws {
        let text = try #require(IntegrationSnippets.snippet(named: name))
        let units = IntegrationSnippets.units(in: text)
        let enable = try #require(IntegrationSnippets.systemdUnits.first { $0.name == name }?.enable)
        #expect(text.contains("systemctl --user daemon-reload && systemctl --user enable --now \(enable)\n"))
        let enabled = try #require(units.first { $0.file == enable }, "\(name): no block for \(enable)")
        #expect(enabled.text.contains("\n[Install]\n"))
        for unit in units {
            #expect(unit.text.hasPrefix(IntegrationSnippets.unitMarker + unit.file))
            #expect(unit.text.contains("\n[Unit]\nDescription=elbowroom: "))
            #expect(!unit.text.contains("# ["), "\(unit.file) has a commented-out section")
            #expect(!unit.text.contains(IntegrationSnippets.unitMarker + unit.file + "\n" + IntegrationSnippets.unitMarker))
        }
        if enable.hasSuffix(".timer") {
            #expect(units.map(\.file) == [String(enable.dropLast(".timer".count)) + ".service", enable])
        } else {
            #expect(units.map(\.file) == [enable])
        }
    }

    /// `init systemd` says which of four it could mean instead of quietly meaning one.
    @Test func initSystemdListsTheChoices() throws {
        let e = try EndToEnd()
        let run = try e.runBounded(["init", "systemd"])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        for name in ["prometheus", "systemd-notify", "serve", "tray"] {
            #expect(run.stderr.contains("elbowroom init \(name) "), "\(run.stderr)")
        }
        #expect(run.stderr.contains("notifications"))
    }

    /// `init node-exporter` is the same textfile route as `init prometheus`: the same text.
    @Test func nodeExporterIsPrometheus() throws {
        let e = try EndToEnd()
        let a = try e.runBounded(["init", "prometheus"]), b = try e.runBounded(["init", "node-exporter"])
        #expect(a.status == 0 && b.status == 0)
        #expect(a.stdout == b.stdout)
        #expect(b.stderr.contains("'node-exporter' is 'prometheus'"))
        #expect(!IntegrationSnippets.names.contains("node-exporter"))
    }

    /// `--write` goes with the systemd snippets only.
    @Test func writeRefusesASnippetThatIsNotUnits() throws {
        let e = try EndToEnd()
        let run = try e.runBounded(["init", "tmux", "--write"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("--write puts systemd units in place"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: e.sandbox.configHome + "/systemd"))
        let notify = try e.runBounded(["fetch", "--write"])
        #expect(notify.status == 2)
        #expect(notify.stderr.contains("--write goes with 'elbowroom init NAME'"), "\(notify.stderr)")
    }

    /// The units as the built program prints them (naming itself in full, as it is not on the
    /// system PATH), each in a file of its own, pass `systemd-analyze verify` without a word.
    @Test(.enabled(if: analyze != nil, "systemd-analyze is not installed (apt-get install systemd): printed units not verified"),
          arguments: IntegrationSnippets.systemdUnits.map(\.name))
    func printedUnitsPassSystemdAnalyzeVerify(name: String) throws {
        let e = try EndToEnd()
        let run = try e.runBounded(["init", name])
        #expect(run.status == 0, "\(run.stderr)")
        let dir = e.sandbox.root + "/units"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let units = IntegrationSnippets.units(in: run.stdout)
        #expect(!units.isEmpty)
        for unit in units {
            try unit.text.write(toFile: dir + "/" + unit.file, atomically: true, encoding: .utf8)
        }
        let verify = try Self.verify(units.map { dir + "/" + $0.file }, sandbox: e.sandbox)
        #expect(verify.status == 0 && verify.stderr.isEmpty, "\(name): \(verify.stderr)")
    }

    /// `init NAME --write` puts the units in $XDG_CONFIG_HOME/systemd/user (else
    /// ~/.config/systemd/user), says the systemctl line, and the files verify and enable.
    @Test(.enabled(if: analyze != nil && systemctl != nil, "systemd is not installed (apt-get install systemd): written units not verified"))
    func writePutsTheUnitsInPlaceAndSaysTheLine() throws {
        let e = try EndToEnd()
        let run = try e.runBounded(["init", "systemd-notify", "--write"])
        #expect(run.status == 0, "\(run.stderr)")
        let dir = e.sandbox.configHome + "/systemd/user"
        #expect(run.stdout == """
            wrote \(dir)/elbowroom-notify.service
            wrote \(dir)/elbowroom-notify.timer
            now run: systemctl --user daemon-reload && systemctl --user enable --now elbowroom-notify.timer

            """)
        let service = try String(contentsOfFile: dir + "/elbowroom-notify.service", encoding: .utf8)
        #expect(service.contains("\nExecStart=\(e.elbowroom) notify\n"))
        let verify = try Self.verify([dir + "/elbowroom-notify.service", dir + "/elbowroom-notify.timer"], sandbox: e.sandbox)
        #expect(verify.status == 0 && verify.stderr.isEmpty, "\(verify.stderr)")

        // systemctl enables the timer as written (an [Install] section it can read).
        let root = e.sandbox.root + "/root"
        try FileManager.default.createDirectory(atPath: root + "/etc/systemd/user", withIntermediateDirectories: true)
        for file in ["elbowroom-notify.service", "elbowroom-notify.timer"] {
            try FileManager.default.copyItem(atPath: dir + "/" + file, toPath: root + "/etc/systemd/user/" + file)
        }
        let enable = try BoundedRun.run(try #require(Self.systemctl), ["--global", "--root=" + root, "enable", "elbowroom-notify.timer"],
                                        environment: ["PATH": "/usr/bin:/bin"], seconds: 20)
        #expect(enable.status == 0, "\(enable.stderr)")
        // A link to where the unit is inside that root (it resolves there, not here).
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: root + "/etc/systemd/user/timers.target.wants/elbowroom-notify.timer"))
                == "/etc/systemd/user/elbowroom-notify.timer", "\(enable.stderr)")

        // Again: replaced, and said so.
        let again = try e.runBounded(["init", "systemd-notify", "--write"])
        #expect(again.stdout.hasPrefix("replaced \(dir)/elbowroom-notify.service\n"), "\(again.stdout)")

        // Without XDG_CONFIG_HOME: ~/.config/systemd/user.
        var environment = e.sandbox.environment
        environment["XDG_CONFIG_HOME"] = nil
        let home = try e.runBounded(["init", "prometheus", "--write"], environment: environment)
        #expect(home.status == 0, "\(home.stderr)")
        #expect(FileManager.default.fileExists(atPath: e.sandbox.home + "/.config/systemd/user/elbowroom-prometheus.timer"))
        #expect(home.stdout.hasSuffix("now run: systemctl --user daemon-reload && systemctl --user enable --now elbowroom-prometheus.timer\n"))
    }

    static func verify(_ files: [String], sandbox: Sandbox) throws -> BoundedRun {
        let runtime = sandbox.root + "/runtime"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        return try BoundedRun.run(try #require(analyze), ["verify", "--user"] + files,
                                  environment: ["PATH": "/usr/bin:/bin", "HOME": sandbox.home, "XDG_RUNTIME_DIR": runtime,
                                                "XDG_CONFIG_HOME": sandbox.configHome],
                                  seconds: 30, directory: sandbox.root)
    }
}
