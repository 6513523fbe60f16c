#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// The process environment as a value, so tests pass their own and never touch the real HOME.
public struct ElbowroomEnvironment: Sendable, Equatable {
    public var variables: [String: String]

    public init(_ variables: [String: String]) {
        self.variables = variables
    }

    public static var current: ElbowroomEnvironment {
        ElbowroomEnvironment(ProcessInfo.processInfo.environment)
    }

    public subscript(_ name: String) -> String? {
        guard let value = variables[name], !value.isEmpty else { return nil }
        return value
    }

    public var home: String {
        self["HOME"] ?? "/"
    }

    /// The absolute directories of `PATH`, in order. Relative entries (and empty ones, meaning the
    /// current directory) are skipped: a prompt runs in any directory, and a program found there
    /// must never be started with access to the user's credentials.
    public var executableSearchPath: [String] {
        (self["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
            .filter { $0.hasPrefix("/") }
    }

    /// The first executable called `name` in `directories` (default: `executableSearchPath`).
    public func findExecutable(_ name: String, in directories: [String]? = nil) -> String? {
        for dir in directories ?? executableSearchPath {
            let candidate = (dir.hasSuffix("/") ? dir : dir + "/") + name
            if FileSystem.isExecutable(candidate) { return candidate }
        }
        return nil
    }

    /// Variables a child process must never inherit: anything that carries a credential.
    public static let secretVariables: Set<String> = [
        "CLAUDE_CODE_OAUTH_TOKEN", "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN",
    ]

    /// The environment for a child: secrets removed; `ELBOWROOM_ENV_TOKEN_PRESENT=1` says (without
    /// the value) that `CLAUDE_CODE_OAUTH_TOKEN` was set, so the child can explain it.
    public var forChild: [String: String] {
        var child = variables.filter { !Self.secretVariables.contains($0.key) }
        if self["CLAUDE_CODE_OAUTH_TOKEN"] != nil { child["ELBOWROOM_ENV_TOKEN_PRESENT"] = "1" }
        return child
    }

    /// Whether `CLAUDE_CODE_OAUTH_TOKEN` is set here or was set in the parent.
    public var hasInferenceOnlyToken: Bool {
        self["CLAUDE_CODE_OAUTH_TOKEN"] != nil || self["ELBOWROOM_ENV_TOKEN_PRESENT"] == "1"
    }
}
