import Foundation
import Testing
import ElbowroomCore
import ElbowroomTestSupport

/// `install.sh --uninstall` removes what its manifest lists inside PREFIX and nothing else: the
/// real script under sh, against manifests made by hand.
@Suite struct InstallManifestTests {
    final class Tree: @unchecked Sendable {
        let root: String
        init() throws {
            var bytes = Array((NSTemporaryDirectory() + "/elbowroom-install-XXXXXX").utf8CString)
            let made = try #require(mkdtemp(&bytes))
            root = try #require(FileSystem.realPath(String(cString: made)))
        }
        deinit { try? FileManager.default.removeItem(atPath: root) }

        func file(_ path: String) throws {
            try FileManager.default.createDirectory(atPath: FileSystem.directory(of: path), withIntermediateDirectories: true)
            try "x\n".write(toFile: path, atomically: false, encoding: .utf8)
        }

        func manifest(in prefix: String, _ lines: [String]) throws {
            try file(prefix + "/share/elbowroom/install-manifest")
            try (lines.joined(separator: "\n") + "\n").write(toFile: prefix + "/share/elbowroom/install-manifest", atomically: false, encoding: .utf8)
        }

        func uninstall(prefix: String) throws -> (status: Int32, output: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = [ShippedFiles.path("install.sh"), "--prefix", prefix, "--uninstall"]
            process.environment = ["HOME": root, "PATH": "/usr/bin:/bin"]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = out
            try process.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, text)
        }
    }

    @Test func aLineWithDotDotNeverDeletesOutsideThePrefix() throws {
        let t = try Tree()
        let prefix = t.root + "/prefix"
        let victim = t.root + "/outside/victim"
        try t.file(victim)
        try t.file(prefix + "/bin/elbowroom")
        try t.manifest(in: prefix, [prefix + "/bin/elbowroom", prefix + "/share/../../outside/victim",
                                    prefix + "/./bin/../../outside/victim", prefix + "/share/elbowroom/install-manifest"])
        let run = try t.uninstall(prefix: prefix)
        #expect(run.status == 0, "\(run.output)")
        #expect(FileManager.default.fileExists(atPath: victim), "a manifest line with '..' deleted a file outside the prefix: \(run.output)")
        #expect(!FileManager.default.fileExists(atPath: prefix + "/bin/elbowroom"))
        #expect(run.output.contains("skipping '\(prefix)/share/../../outside/victim'"), "\(run.output)")
    }

    @Test func aSymlinkedPrefixIsTheSamePrefixUnderEitherSpelling() throws {
        for installedThroughLink in [true, false] {
            let t = try Tree()
            let real = t.root + "/data/local"
            try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: true)
            let link = t.root + "/home-link"
            #expect(symlink(t.root + "/data", link) == 0)
            let spelled = installedThroughLink ? link + "/local" : real
            try t.file(real + "/bin/elbowroom")
            try t.file(real + "/share/man/man1/elbowroom.1")
            try t.manifest(in: real, [spelled + "/bin/elbowroom", spelled + "/share/man/man1/elbowroom.1",
                                      spelled + "/share/elbowroom/install-manifest"])
            let run = try t.uninstall(prefix: installedThroughLink ? real : link + "/local")
            #expect(run.status == 0, "\(run.output)")
            #expect(!FileManager.default.fileExists(atPath: real + "/bin/elbowroom"), "nothing removed: \(run.output)")
            #expect(!FileManager.default.fileExists(atPath: real + "/share/man/man1/elbowroom.1"))
            #expect(!FileManager.default.fileExists(atPath: real + "/share/elbowroom/install-manifest"))
            #expect(FileManager.default.fileExists(atPath: real), "the prefix itself stays")
        }
    }

    @Test func aManifestWithNothingInsideThePrefixIsKept() throws {
        let t = try Tree()
        let prefix = t.root + "/prefix"
        try t.file(t.root + "/elsewhere/bin/elbowroom")
        try t.manifest(in: prefix, [t.root + "/elsewhere/bin/elbowroom", "/usr/bin/elbowroom"])
        let run = try t.uninstall(prefix: prefix)
        #expect(run.status != 0, "\(run.output)")
        #expect(!run.output.contains("is uninstalled"), "\(run.output)")
        #expect(run.output.contains("nothing removed, the manifest kept"))
        #expect(FileManager.default.fileExists(atPath: prefix + "/share/elbowroom/install-manifest"))
        #expect(FileManager.default.fileExists(atPath: t.root + "/elsewhere/bin/elbowroom"))
    }
}
