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
        context.fetcherPath = fetcher
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
}
