import Foundation
import ElbowroomCore

/// A throwaway HOME for one test: `home/`, `home/.claude` (CLAUDE_CONFIG_DIR), `config/`
/// (XDG_CONFIG_HOME) and `cache/` (XDG_CACHE_HOME). Tests pass `environment` explicitly and never
/// see the real HOME. `cleanup()` removes it all.
public final class Sandbox: @unchecked Sendable {
    public let root: String
    public let home: String
    public let claudeConfigDir: String
    public let configHome: String
    public let cacheHome: String
    /// Extra variables (`ELBOWROOM_API_URL`, …) merged into `environment`.
    public var extra: [String: String] = [:]

    public init() throws {
        let template = NSTemporaryDirectory() + "/elbowroom-test-XXXXXX"
        var bytes = Array(template.utf8CString)
        guard let made = mkdtemp(&bytes) else { throw Sandbox.Failure(description: "mkdtemp failed") }
        root = String(cString: made)
        home = root + "/home"
        claudeConfigDir = home + "/.claude"
        configHome = root + "/config"
        cacheHome = root + "/cache"
        for dir in [home, claudeConfigDir, configHome + "/elbowroom", cacheHome] {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        }
    }

    public struct Failure: Error, CustomStringConvertible { public let description: String }

    public var environment: [String: String] {
        var env = [
            "HOME": home, "XDG_CONFIG_HOME": configHome, "XDG_CACHE_HOME": cacheHome,
            "CLAUDE_CONFIG_DIR": claudeConfigDir, "PATH": "/usr/bin:/bin", "USER": "tester",
        ]
        env.merge(extra) { _, new in new }
        return env
    }

    public var elbowroomEnvironment: ElbowroomEnvironment { ElbowroomEnvironment(environment) }
    public var paths: Paths { Paths(environment: elbowroomEnvironment) }
    public var credentialsFile: String { claudeConfigDir + "/.credentials.json" }

    /// A realistic credentials document with keys that must survive a rewrite.
    public static func credentialsJSON(accessToken: String, refreshToken: String, expiresAt: Date,
                                       subscriptionType: String = "max") -> String {
        let ms = Int64(expiresAt.timeIntervalSince1970 * 1000)
        return """
            {"claudeAiOauth":{"accessToken":"\(accessToken)","refreshToken":"\(refreshToken)","expiresAt":\(ms),\
            "scopes":["user:inference","user:profile"],"subscriptionType":"\(subscriptionType)",\
            "rateLimitTier":"default_claude_max_20x","futureField":{"nested":[1,2,3]}},\
            "mcpOAuth":{"github|abc123":{"serverName":"github","accessToken":"mcp-secret","expiresAt":0,"enabled":true}},\
            "someUnknownTopLevelKey":"keep me"}
            """
    }

    @discardableResult
    public func writeCredentials(accessToken: String, refreshToken: String, expiresAt: Date,
                                 mode: mode_t = 0o600) throws -> Data {
        try writeCredentials(Self.credentialsJSON(accessToken: accessToken, refreshToken: refreshToken,
                                                  expiresAt: expiresAt), mode: mode)
    }

    @discardableResult
    public func writeCredentials(_ text: String, mode: mode_t = 0o600) throws -> Data {
        let data = Data(text.utf8)
        try data.write(to: URL(fileURLWithPath: credentialsFile))
        chmod(credentialsFile, mode)
        return data
    }

    public func credentialsData() -> Data? {
        FileManager.default.contents(atPath: credentialsFile)
    }

    /// The `claudeAiOauth` object and the whole document of the credentials file.
    public func credentialsObject() -> [String: Any]? {
        credentialsData().flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }

    public func writeConfig(_ toml: String) throws {
        try Data(toml.utf8).write(to: URL(fileURLWithPath: configHome + "/elbowroom/config.toml"))
    }

    /// Everything under the cache dir, concatenated (for "never contains a token" checks).
    public func cacheContents() -> String {
        let dir = cacheHome + "/elbowroom"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.compactMap { FileManager.default.contents(atPath: dir + "/" + $0) }
            .map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n")
    }

    public func cleanup() {
        try? FileManager.default.removeItem(atPath: root)
    }
}

/// A clock that says what the test tells it.
public final class FixedClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    public init(_ date: Date = Date(timeIntervalSince1970: 1_795_000_000)) {
        current = date
    }

    public var now: Date {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    public func advance(by seconds: TimeInterval) {
        lock.lock()
        current = current.addingTimeInterval(seconds)
        lock.unlock()
    }

    /// As a `() -> Date` seam.
    public var function: @Sendable () -> Date { { [self] in now } }
}
