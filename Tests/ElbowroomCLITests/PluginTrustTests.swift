import Foundation
import Testing
import ElbowroomCore
import ElbowroomTestSupport
@testable import ElbowroomCLI

/// Plugins another user could change are not run: the render says so, `doctor` FAILs naming why.
@Suite struct PluginTrustTests {
    @Test func anAdapterPluginOthersCanWriteIsNotRunAndTheRenderSaysWhy() throws {
        let e = try EndToEnd()
        try e.seedCache(fiveHour: 20, age: 5)
        let found = e.sandbox.configHome + "/elbowroom/adapters"
        try FileManager.default.createDirectory(atPath: found, withIntermediateDirectories: true)
        let dir = try #require(FileSystem.realPath(found))
        let marker = e.sandbox.root + "/ran"
        try FileSystem.writeAtomically(Data("#!/bin/sh\ntouch '\(marker)'\necho spied\n".utf8), to: dir + "/elbowroom-adapter-spy", mode: 0o755)
        #expect(try e.run(["-a", "spy"]).stdout == "spied\n")
        try FileManager.default.removeItem(atPath: marker)
        for (path, mode) in [(dir + "/elbowroom-adapter-spy", mode_t(0o757)), (dir, 0o777), (dir, 0o775)] {
            chmod(dir + "/elbowroom-adapter-spy", 0o755); chmod(dir, 0o755)
            chmod(path, mode)
            let run = try e.run(["-a", "spy"])
            #expect(run.status == 2)
            let shown = run.stdout.replacingOccurrences(of: "//", with: "/")
            #expect(shown.contains("plugin spy refused: \(path) is writable by"), "\(run.stdout)")
            #expect(!FileManager.default.fileExists(atPath: marker), "the plugin ran")
            let doctor = try e.run(["doctor"])
            #expect(doctor.status == 1)
            let said = doctor.stdout.replacingOccurrences(of: "//", with: "/")
            #expect(said.contains("FAIL adapter plugin: \(dir)/elbowroom-adapter-spy refused: \(path) is writable by"), "\(doctor.stdout.split(separator: "\n").filter { $0.contains("plugin") })")
        }
    }

    @Test func doctorFailsASourcePluginAnotherUserCouldChange() throws {
        let s = CLISandbox()
        s.writeConfig("[accounts.gem]\nprovider = \"plugin:gem\"\n")
        let sources = s.paths.configHome + "/sources"
        try FileManager.default.createDirectory(atPath: sources, withIntermediateDirectories: true)
        let plugin = sources + "/elbowroom-source-gem"
        try FileSystem.writeAtomically(Data("#!/bin/sh\nexit 0\n".utf8), to: plugin, mode: 0o755)
        let real = try #require(FileSystem.realPath(plugin))
        s.run("doctor", "--account", "gem")
        #expect(s.stdout.text.contains("ok   source plugin: \(plugin)\n"), "\(s.stdout.text)")
        chmod(plugin, 0o777)
        let t = CLISandbox()
        t.extraEnvironment = s.environment
        #expect(t.run("doctor", "--account", "gem") == 1)
        #expect(t.stdout.text.contains("FAIL source plugin: \(plugin) refused: \(real) is writable by group and others (mode 777)"), "\(t.stdout.text)")
        if geteuid() == 0 {
            chmod(plugin, 0o755)
            #expect(chown(plugin, 4242, 4242) == 0)
            let u = CLISandbox()
            u.extraEnvironment = s.environment
            #expect(u.run("doctor", "--account", "gem") == 1)
            #expect(u.stdout.text.contains("refused: \(real) is owned by uid 4242, neither you (uid 0) nor root"), "\(u.stdout.text)")
        }
    }
}
