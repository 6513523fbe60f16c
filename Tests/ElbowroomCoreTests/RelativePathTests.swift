import Foundation
import Testing
@testable import ElbowroomCore

/// A relative path in an environment variable is ignored, as if unset (the XDG base directory
/// spec says so for its variables): otherwise what elbowroom reads — config, templates, plugins,
/// credentials, the fetcher — would come from whatever directory the prompt is in.
@Suite struct RelativePathTests {
    static let home = "/home/u"
    static let defaults = Paths(environment: ElbowroomEnvironment(["HOME": home]))

    @Test(arguments: ["XDG_CONFIG_HOME", "XDG_CACHE_HOME", "CLAUDE_CONFIG_DIR", "ELBOWROOM_CONFIG"])
    func aRelativeValueIsIgnored(variable: String) {
        for value in ["rel", "./rel", "../rel", "rel/"] {
            let env = ElbowroomEnvironment(["HOME": Self.home, variable: value])
            #expect(Paths(environment: env) == Self.defaults, "\(variable)=\(value)")
            #expect(env.ignoredRelativePaths == [variable])
        }
    }

    @Test func pluginsAndTemplatesComeFromTheHomeConfigWhenXDGConfigHomeIsRelative() {
        let p = Paths(environment: ElbowroomEnvironment(["HOME": Self.home, "XDG_CONFIG_HOME": "."]))
        #expect(p.userAdaptersDir == "/home/u/.config/elbowroom/adapters")
        #expect(p.userTemplatesDir == "/home/u/.config/elbowroom/templates")
    }

    @Test func absoluteAndTildeValuesAreUsed() {
        let env = ElbowroomEnvironment([
            "HOME": Self.home, "XDG_CONFIG_HOME": "~/cfg", "XDG_CACHE_HOME": "/var/cache/u/",
            "CLAUDE_CONFIG_DIR": "~", "ELBOWROOM_CONFIG": "~/e.toml",
        ])
        let p = Paths(environment: env)
        #expect(p.configHome == "/home/u/cfg/elbowroom")
        #expect(p.cacheDir == "/var/cache/u/elbowroom")
        #expect(p.claudeConfigDir == "/home/u")
        #expect(p.configFile == "/home/u/e.toml")
        #expect(env.ignoredRelativePaths.isEmpty)
    }

    @Test func aRelativeHomeIsNotUsedEither() {
        let env = ElbowroomEnvironment(["HOME": "home/u", "XDG_CONFIG_HOME": "~/cfg"])
        #expect(env.home == "/")
        #expect(Paths(environment: env).configHome == "/cfg/elbowroom")
        #expect(env.ignoredRelativePaths == ["HOME"])
    }

    @Test func otherPathVariablesAreCheckedTheSameWay() {
        let env = ElbowroomEnvironment(["HOME": Self.home, "XDG_STATE_HOME": "state", "XDG_DATA_HOME": "/d",
                                        "ELBOWROOM_FETCH": "bin/elbowroom-fetch"])
        #expect(env.absolutePath("XDG_STATE_HOME") == nil)
        #expect(env.absolutePath("XDG_DATA_HOME") == "/d")
        #expect(env.absolutePath("ELBOWROOM_FETCH") == nil)
        #expect(env.ignoredRelativePaths == ["XDG_STATE_HOME", "ELBOWROOM_FETCH"])
    }
}
