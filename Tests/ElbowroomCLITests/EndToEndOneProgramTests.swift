import Foundation
import ElbowroomCore
import ElbowroomTestSupport
import Testing
@testable import ElbowroomCLI

/// elbowroom is one program: the renderer, and the fetcher when started as `elbowroom-fetch`
/// (the link installed beside it) or as `elbowroom elbowroom-fetch`. The built programs, run for
/// real.
@Suite struct EndToEndOneProgramTests {
    /// Both names of the fetcher are the fetcher; anything else is the renderer.
    @Test func theFetcherAnswersToItsNameAndAsFirstArgument() throws {
        let e = try EndToEnd()
        let byLink = try e.runBounded(["--help"], executable: e.fetcher)
        #expect(byLink.status == 0 && byLink.stdout.hasPrefix("usage: elbowroom-fetch "), "\(byLink.stdout)\(byLink.stderr)")
        let byArgument = try e.runBounded(["elbowroom-fetch", "--help"])
        #expect(byArgument.status == 0 && byArgument.stdout == byLink.stdout)
        let renderer = try e.runBounded(["--help"])
        #expect(renderer.stdout.hasPrefix("elbowroom "), "\(renderer.stdout)")
        // Only the exact name: a path as first argument is an unknown command to the renderer.
        let path = try e.runBounded(["/x/elbowroom-fetch"])
        #expect(path.status == 2, "\(path.stdout)\(path.stderr)")
    }

    /// A copy of elbowroom alone (no link beside it, no ELBOWROOM_FETCH) still fetches: it starts
    /// itself by the fetcher's name. An `elbowroom-fetch` beside it that is not this program (an
    /// older install's, a program of its own then) is passed over, never run.
    @Test func aLoneCopyStartsItselfAsTheFetcherAndPassesOverAStaleOne() throws {
        let e = try EndToEnd()
        let directory = e.sandbox.root + "/bin"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // With cp, not in this process: a test that forks meanwhile would inherit the copy's
        // open write descriptor, and running the copy would fail with ETXTBSY.
        #expect(try BoundedRun.run("/bin/cp", [e.elbowroom, directory + "/elbowroom"], environment: [:], seconds: 30).status == 0)
        let helper = try #require(BuiltExecutable.path("elbowroom-http"))
        try FileManager.default.createSymbolicLink(atPath: directory + "/elbowroom-http", withDestinationPath: helper)
        let marker = e.sandbox.root + "/stale-ran"
        try "#!/bin/sh\ntouch \(marker)\n".write(toFile: directory + "/elbowroom-fetch", atomically: true, encoding: .utf8)
        chmod(directory + "/elbowroom-fetch", 0o755)
        var environment = e.sandbox.environment
        environment["ELBOWROOM_FETCH"] = nil

        let render = try e.runBounded(["-a", "plain", "-t", "{5h.left}%", "--wait"], environment: environment,
                                      executable: directory + "/elbowroom")
        #expect(render.stdout == "37%\n", "\(render.stdout)\(render.stderr)")
        #expect(e.usageRequests == 1)
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    /// Where the fetcher is, as doctor says it: the link, or elbowroom itself.
    @Test func theLocatorPrefersTheLinkThatIsThisProgram() throws {
        let own = try #require(FileSystem.ownExecutablePath())
        let environment = ElbowroomEnvironment(["PATH": "/usr/bin:/bin"])
        // The test runner has no link beside it (the build directory's links are made elsewhere).
        #expect(FetcherLocator.locate(environment: environment) == FetcherProgram(path: own, leadingArguments: ["elbowroom-fetch"]))
        let fetcher = try #require(BuiltExecutable.path("elbowroom-fetch"))
        let explicit = ElbowroomEnvironment(["ELBOWROOM_FETCH": fetcher])
        #expect(FetcherLocator.locate(environment: explicit) == FetcherProgram(path: fetcher))
        #expect(FetcherProgram(path: own, leadingArguments: ["elbowroom-fetch"]).arguments(["--probe"]) == ["elbowroom-fetch", "--probe"])
    }

    /// An upgrade replaces the program under a running `watch` or `serve`: `/proc/self/exe`
    /// then reads `PATH (deleted)`, and the fetch to start is the new program at `PATH`.
    @Test func aProgramReplacedOnDiskStartsTheNewOne() throws {
        let directory = NSTemporaryDirectory() + "elbowroom-upgrade-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let program = directory + "/elbowroom"
        _ = FileManager.default.createFile(atPath: program, contents: Data("#!/bin/sh\n".utf8))
        #expect(FileSystem.installedPath(fromProcLink: program + " (deleted)") == program)
        #expect(FileSystem.installedPath(fromProcLink: program) == program)
        // A file really named so is that file.
        let odd = directory + "/elbowroom (deleted)"
        _ = FileManager.default.createFile(atPath: odd, contents: Data())
        #expect(FileSystem.installedPath(fromProcLink: odd) == odd)
    }

    /// `ELBOWROOM_FETCH` set to elbowroom itself, by its own name (the docs say the fetcher is
    /// elbowroom): started as the fetcher, not as a render that rejects `--urgency`.
    @Test func elbowroomFetchNamingElbowroomItselfStartsTheFetcher() throws {
        let own = try #require(FileSystem.ownExecutablePath())
        let environment = ElbowroomEnvironment(["ELBOWROOM_FETCH": own])
        #expect(FetcherLocator.locate(environment: environment) == FetcherProgram(path: own, leadingArguments: ["elbowroom-fetch"]))
    }

    /// An older install's elbowroom-fetch beside a lone elbowroom: never started, and doctor
    /// says to remove it (a user typing `elbowroom-fetch` would run it).
    @Test func doctorNamesAnOlderFetcherBesideIt() throws {
        let e = try EndToEnd()
        let directory = e.sandbox.root + "/bin"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // With cp, not in this process: a test that forks meanwhile would inherit the copy's
        // open write descriptor, and running the copy would fail with ETXTBSY.
        #expect(try BoundedRun.run("/bin/cp", [e.elbowroom, directory + "/elbowroom"], environment: [:], seconds: 30).status == 0)
        try "#!/bin/sh\necho old\n".write(toFile: directory + "/elbowroom-fetch", atomically: true, encoding: .utf8)
        chmod(directory + "/elbowroom-fetch", 0o755)
        var environment = e.sandbox.environment
        environment["ELBOWROOM_FETCH"] = nil
        let doctor = try e.runBounded(["doctor"], environment: environment, executable: directory + "/elbowroom")
        let line = doctor.stdout.split(separator: "\n").first { $0.contains("programs:") } ?? ""
        #expect(line.hasPrefix("FAIL programs:") && line.contains("elbowroom-fetch is elbowroom itself: \((directory as NSString).standardizingPath)/elbowroom-fetch is another program (an older install's?), never started; remove it, or reinstall"),
                "\(doctor.stdout)")
    }
}
