import Foundation
import Testing
import ElbowroomCore
import ElbowroomTestSupport
@testable import ElbowroomCLI

/// `doctor` when elbowroom-fetch is there but does not start (a clone install whose Swift
/// toolchain moved, a broken copy): it says so and why, not that the api is unreachable.
@Suite struct DoctorFetcherStartTests {
    /// `doctor`'s api line with `fetcher` as elbowroom-fetch, started for real.
    static func apiLine(fetcher: String) -> String {
        let s = CLISandbox()
        var context = s.context
        context.spawner = PosixSpawner()
        context.fetcher = FetcherProgram(path: fetcher)
        _ = ElbowroomMain.run(["doctor"], context: context)
        try? FileManager.default.removeItem(atPath: (fetcher as NSString).deletingLastPathComponent)
        return s.stdout.text.split(separator: "\n").map(String.init).first { $0.contains("api:") } ?? s.stdout.text
    }

    static func program(_ name: String, _ content: String) throws -> String {
        let dir = NSTemporaryDirectory() + "elbowroom-doctor-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/" + name
        try content.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    /// What the dynamic loader does when a library is gone: says so on stderr, exits 127.
    @Test func aFetcherWhoseLibrariesAreGoneCannotStart() throws {
        let fetcher = try Self.program("elbowroom-fetch", """
            #!/bin/sh
            echo "$0: error while loading shared libraries: libswiftCore.so: cannot open shared object file: No such file or directory" >&2
            exit 127
            """)
        let line = Self.apiLine(fetcher: fetcher)
        #expect(line == "FAIL api: not checked: the fetcher cannot start (error while loading shared libraries: libswiftCore.so: cannot open shared object file: No such file or directory); reinstall elbowroom", "\(line)")
    }

    /// exec itself refuses it.
    @Test func aFetcherThatCannotBeExecutedCannotStart() throws {
        let fetcher = try Self.program("elbowroom-fetch", "this is not a program\n")
        let line = Self.apiLine(fetcher: fetcher)
        #expect(line == "FAIL api: not checked: the fetcher cannot start (Exec format error); reinstall elbowroom", "\(line)")
        let interpreterGone = try Self.program("elbowroom-fetch", "#!/nonexistent/swift-toolchain/ld.so\n")
        #expect(Self.apiLine(fetcher: interpreterGone) == "FAIL api: not checked: the fetcher cannot start (No such file or directory); reinstall elbowroom")
    }

    /// A fetcher that starts and answers is still the api's story.
    @Test func aFetcherThatStartsIsAskedAboutTheAPI() throws {
        let fetcher = try Self.program("elbowroom-fetch", "#!/bin/sh\necho 'unreachable: https://api.example/api/oauth/usage: connection refused'\nexit 1\n")
        #expect(Self.apiLine(fetcher: fetcher) == "FAIL api: unreachable: https://api.example/api/oauth/usage: connection refused")
    }

    /// `doctor`'s programs line with `helper` as elbowroom-http (Linux: the fetcher's HTTP goes
    /// through it), started for real.
    static func programsLine(helper: String?) -> String {
        let s = CLISandbox()
        var context = s.context
        context.spawner = PosixSpawner()
        context.locateHTTPHelper = { helper }
        _ = ElbowroomMain.run(["doctor"], context: context)
        return s.stdout.text.split(separator: "\n").map(String.init).first { $0.contains("programs:") } ?? s.stdout.text
    }

    /// The helper that makes every fetch's HTTP call, missing: no fetch can reach the network,
    /// and doctor says so on the programs line rather than blaming the api.
    @Test func aMissingHTTPHelperIsNamed() {
        let line = Self.programsLine(helper: nil)
        #expect(line.hasPrefix("FAIL programs: elbowroom "), "\(line)")
        #expect(line.hasSuffix(", elbowroom-http not found in PREFIX/libexec/elbowroom/ or beside elbowroom: no fetch can reach the network; reinstall elbowroom"), "\(line)")
    }

    /// libcurl gone (the helper is linked against the system's): the loader's words, and what to install.
    @Test func anHTTPHelperWithoutLibcurlCannotStart() throws {
        let helper = try Self.program("elbowroom-http", """
            #!/bin/sh
            echo "$0: error while loading shared libraries: libcurl.so.4: cannot open shared object file: No such file or directory" >&2
            exit 127
            """)
        defer { try? FileManager.default.removeItem(atPath: (helper as NSString).deletingLastPathComponent) }
        let line = Self.programsLine(helper: helper)
        #expect(line.hasSuffix(", elbowroom-http \(helper) cannot start (error while loading shared libraries: libcurl.so.4: cannot open shared object file: No such file or directory): no fetch can reach the network; install libcurl (Debian: libcurl4) or reinstall elbowroom"), "\(line)")
        #expect(line.hasPrefix("FAIL "))
    }

    /// The built helper starts and names its libcurl.
    @Test func theBuiltHTTPHelperIsOK() throws {
        let helper = try #require(BuiltExecutable.path("elbowroom-http"))
        let line = Self.programsLine(helper: helper)
        #expect(line.hasPrefix("ok   programs: elbowroom "), "\(line)")
        #expect(line.contains(", elbowroom-http \(helper) (libcurl/"), "\(line)")
    }
}
