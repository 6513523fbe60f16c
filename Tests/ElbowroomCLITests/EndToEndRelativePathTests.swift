import Foundation
import ElbowroomCore
import ElbowroomTestSupport
import Testing

/// Relative path variables are ignored (the XDG spec's rule), so the directory a prompt happens
/// to be in — a cloned repository, say — can never supply plugins, config or the fetcher.
@Suite struct EndToEndRelativePathTests {
    @Test func aRelativeXDGConfigHomeOrElbowroomFetchRunsNothingFromTheCurrentDirectory() throws {
        let e = try EndToEnd()
        let repo = e.sandbox.root + "/repo"
        let marker = e.sandbox.root + "/ran"
        let evil = Data("#!/bin/sh\ntouch \(marker)\necho evil\n".utf8)
        try FileSystem.makeDirectory(repo + "/cfg/elbowroom/adapters", mode: 0o755)
        try FileSystem.writeAtomically(evil, to: repo + "/cfg/elbowroom/adapters/elbowroom-adapter-evil", mode: 0o755)
        try FileSystem.writeAtomically(evil, to: repo + "/fetch", mode: 0o755)
        try Data("max_age = \"not a number\"\n".utf8).write(to: URL(fileURLWithPath: repo + "/cfg/elbowroom/config.toml"))
        var env = e.sandbox.environment
        env["XDG_CONFIG_HOME"] = "cfg"
        env["ELBOWROOM_FETCH"] = "fetch"

        let plugin = try e.runBounded(["-a", "evil"], environment: env, directory: repo)
        #expect(plugin.status == 2)
        #expect(plugin.stderr.hasPrefix("elbowroom: unknown adapter 'evil'"))
        // No cache yet: the first render starts a fetch (the built one, found beside elbowroom);
        // the config in the repository would have been an error.
        let render = try e.runBounded(["-a", "plain", "-t", "{5h.left}%"], environment: env, directory: repo)
        #expect(render.status == 0 && render.stderr.isEmpty, "\(render.stderr)")
        #expect(Eventually.within(10) { CacheStore(paths: e.sandbox.paths).load()?.reading != nil })
        let again = try e.runBounded(["-a", "plain", "-t", "{5h.left}%"], environment: env, directory: repo)
        #expect(again.stdout == "37%\n", "\(again.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker))

        let doctor = try e.runBounded(["doctor"], environment: env, directory: repo)
        #expect(doctor.stdout.contains("FAIL environment: ignoring XDG_CONFIG_HOME, ELBOWROOM_FETCH: a path there must be absolute (a relative one would depend on the current directory)\n"))
        #expect(!doctor.stdout.contains("repo/"))
    }
}
