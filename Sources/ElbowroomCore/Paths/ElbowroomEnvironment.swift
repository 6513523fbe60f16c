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

    /// `HOME`, or `/` when it is unset or relative.
    public var home: String {
        self["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/"
    }

    /// The variables that name a file or directory. A relative value in any of them is ignored,
    /// as if unset (the XDG base directory spec says so for its variables): the renderer runs in
    /// whatever directory the prompt is in, and a path resolved there would take config, plugins,
    /// credentials or the fetcher from a directory the user merely `cd`'d into.
    public static let pathVariables = [
        "HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR",
        "CLAUDE_CONFIG_DIR", "ELBOWROOM_CONFIG", "ELBOWROOM_FETCH",
    ]

    /// The value of a path variable with a leading `~` or `~/` expanded, when that is an absolute
    /// path; `nil` when unset, empty or relative.
    public func absolutePath(_ name: String) -> String? {
        guard let value = self[name] else { return nil }
        let expanded: String
        if name == "HOME" {
            expanded = value
        } else if value == "~" {
            expanded = home
        } else if value.hasPrefix("~/") {
            expanded = (home.hasSuffix("/") ? home : home + "/") + value.dropFirst(2)
        } else {
            expanded = value
        }
        return expanded.hasPrefix("/") ? expanded : nil
    }

    /// The path variables set to a relative value, and so ignored (for `doctor`).
    public var ignoredRelativePaths: [String] {
        Self.pathVariables.filter { self[$0] != nil && absolutePath($0) == nil }
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
