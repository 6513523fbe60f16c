import Foundation
import Testing

/// `install.sh` from a clone on a machine without libcurl's headers: it says what is missing and
/// which package brings it on Debian/Ubuntu, Fedora and Arch, before anything is built (it used to
/// build for two minutes, then fail on `curl/curl.h` naming no package). A clone is copied to a
/// temporary directory; `swift` and `cc` on its PATH are stand-ins that record being run, the
/// `cc` one refusing `curl/curl.h` as a machine without the headers does.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/sh"), "needs /bin/sh"))
struct InstallPrerequisitesTests {
    struct Clone {
        let root: String
        let bin: String
        let log: String

        init(ccWithoutCurl: Bool, swiftPresent: Bool = true) throws {
            root = NSTemporaryDirectory() + "elbowroom-clone-\(UUID().uuidString)"
            bin = root + "/fakebin"
            log = root + "/ran.log"
            let fm = FileManager.default
            try fm.createDirectory(atPath: root + "/scripts", withIntermediateDirectories: true)
            try fm.createDirectory(atPath: bin, withIntermediateDirectories: true)
            for file in ["install.sh", "Package.swift", "scripts/build-prerequisites"] {
                try fm.copyItem(atPath: ShippedFiles.path(file), toPath: root + "/" + file)
            }
            if swiftPresent {
                try Self.script(bin + "/swift", "echo \"swift $*\" >> '\(log)'; exit 1")
            }
            // The real compiler for everything but libcurl's header, which this machine lacks.
            let real = ["/usr/bin/cc", "/usr/bin/gcc", "/usr/bin/clang"].first { fm.isExecutableFile(atPath: $0) } ?? "/usr/bin/cc"
            try Self.script(bin + "/cc", """
                echo "cc $*" >> '\(log)'
                input=$(cat)
                case $input in *curl/curl.h*) \(ccWithoutCurl ? "echo '<stdin>:1:10: fatal error: curl/curl.h: No such file or directory' >&2; exit 1" : ":") ;; esac
                printf '%s\\n' "$input" | exec \(real) "$@"
                """)
        }

        static func script(_ path: String, _ body: String) throws {
            try ("#!/bin/sh\n" + body + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            chmod(path, 0o755)
        }

        func install() throws -> BoundedRun {
            try BoundedRun.run("/bin/sh", [root + "/install.sh", "--prefix", root + "/prefix"],
                               environment: ["PATH": bin + ":/usr/bin:/bin", "HOME": root],
                               seconds: 30, directory: root)
        }

        var ran: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

        func remove() { try? FileManager.default.removeItem(atPath: root) }
    }

    @Test func withoutLibcurlsHeadersItNamesThePackageAndBuildsNothing() throws {
        let clone = try Clone(ccWithoutCurl: true)
        defer { clone.remove() }
        let run = try clone.install()
        #expect(run.status == 1)
        #expect(run.stderr.contains("missing: libcurl's headers (curl/curl.h)"), "\(run.stderr)")
        #expect(run.stderr.contains("Debian/Ubuntu libcurl4-openssl-dev, Fedora libcurl-devel, Arch curl"), "\(run.stderr)")
        #expect(run.stderr.contains("nothing was built or installed"), "\(run.stderr)")
        // Nothing was built: swift never ran, nothing was installed.
        #expect(!clone.ran.contains("swift build"), "\(clone.ran)")
        #expect(!FileManager.default.fileExists(atPath: clone.root + "/prefix"))
        if (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8))?.contains("debian") == true {
            #expect(run.stderr.contains("install it: sudo apt-get install libcurl4-openssl-dev"), "\(run.stderr)")
        }
    }

    @Test func withoutSwiftItSaysSoBeforeBuilding() throws {
        let clone = try Clone(ccWithoutCurl: false, swiftPresent: false)
        defer { clone.remove() }
        let run = try clone.install()
        #expect(run.status == 1)
        #expect(run.stderr.contains("missing: Swift 6"), "\(run.stderr)")
        #expect(!run.stderr.contains("curl"), "\(run.stderr)")
    }

    @Test func withEverythingThereTheChecksPassAndTheBuildStarts() throws {
        let clone = try Clone(ccWithoutCurl: false)
        defer { clone.remove() }
        let run = try clone.install()
        // The stand-in swift fails the build; what matters is that the checks let it start.
        #expect(clone.ran.contains("swift build -c release"), "\(run.stderr)\n\(clone.ran)")
        #expect(!run.stderr.contains("missing:"), "\(run.stderr)")
    }
}

/// `scripts/test`, the README's one test command: its last lines say how many tests passed,
/// failed and skipped, and why they skipped, grouped (a newcomer could not tell a skip from a
/// pass in 4,600 lines of output). `.ci/run` runs the same command.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs python3"))
struct TestScriptTests {
    @Test func theSummaryIsOneLineThenTheSkipReasonsGrouped() throws {
        let log = NSTemporaryDirectory() + "elbowroom-test-log-\(UUID().uuidString)"
        defer { unlink(log) }
        try """
            ◇ Test run started.
            ✔ Test aPass() passed after 0.001 seconds.
            ✔ Test aParameterisedPass(_:) with 32 test cases passed after 0.002 seconds.
            ✘ Test aFailure() recorded an issue at Foo.swift:3:5: Expectation failed: 1 == 2
            ↳ some detail
            ✘ Test aFailure() failed after 0.003 seconds with 1 issue.
            ➜ Suite TmuxTests skipped: "needs tmux"
            ➜ Test one() skipped: "needs tmux"
            ➜ Test two() skipped: "needs tmux"
            ➜ Test three() skipped: "needs dunst"
            ✔ Suite Other passed after 0.004 seconds.
            ✘ Test run with 6 tests in 3 suites failed after 0.005 seconds with 1 issue.

            """.write(toFile: log, atomically: true, encoding: .utf8)
        let run = try BoundedRun.run("/usr/bin/python3", [ShippedFiles.path("scripts/lib/test-summary.py"), log],
                                     environment: ["PATH": "/usr/bin:/bin"], seconds: 20)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == """
            ✘ Test aFailure() recorded an issue at Foo.swift:3:5: Expectation failed: 1 == 2
            2 passed, 1 failed, 3 skipped
              2 skipped: needs tmux
              1 skipped: needs dunst

            """, "\(run.stdout)")
    }

    /// A crash of the test process: said in one line, with the frame in the tests where it was.
    @Test func aCrashIsSaidWithWhereItHappened() throws {
        let log = NSTemporaryDirectory() + "elbowroom-test-log-\(UUID().uuidString)"
        defer { unlink(log) }
        try """
            ◇ Test run started.
            ✔ Test aPass() passed after 0.001 seconds.

            *** Program crashed: Bad pointer dereference at 0x0000000000000000 ***

            Thread 4 "oot.default-qos" crashed:

              0                  0x00007f002ba706ce swift_release + 30 in libswiftCore.so
              3 [ra]             0x0000561d8c571042 static FuzzChecks.config(_:) + 801 in elbowroomPackageTests.xctest at /w/Tests/ElbowroomFuzzTests/FuzzChecks.swift:131:13

            rip 0x00007f185c2706ce  48 8b 47 08

            """.write(toFile: log, atomically: true, encoding: .utf8)
        let run = try BoundedRun.run("/usr/bin/python3", [ShippedFiles.path("scripts/lib/test-summary.py"), log],
                                     environment: ["PATH": "/usr/bin:/bin"], seconds: 20)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.first == "test: the test process crashed (Program crashed: Bad pointer dereference at 0x0000000000000000) in static FuzzChecks.config(_:) + 801 at /w/Tests/ElbowroomFuzzTests/FuzzChecks.swift:131:13; the rest did not run (the whole output: \(log))", "\(run.stdout)")
        #expect(lines.last == "1 passed, 0 failed, 0 skipped")
        #expect(!run.stdout.contains("rip "))
    }

    @Test func theReadmeAndCIRunTheSameCommand() throws {
        let readme = try ShippedFiles.read("README.md")
        let tests = try #require(readme.components(separatedBy: "## Tests\n").last)
        #expect(tests.hasPrefix("\n```sh\nscripts/test\n```\n"))
        let development = try ShippedFiles.read("docs/development.md")
        #expect(!readme.contains("URLSession") && !development.contains("URLSession"))
        let ci = try ShippedFiles.read(".ci/run")
        #expect(ci.contains("\nscripts/test ||"))
        #expect(!ci.contains("\nswift test"))
        // scripts/test installs what .ci/run's first install line names: systemd among them.
        let first = try #require(ci.split(separator: "\n").first { $0.hasPrefix("install ") })
        for package in ["libcurl4-openssl-dev", "tmux", "dunst", "systemd"] { #expect(first.contains(" \(package)")) }
    }
}
