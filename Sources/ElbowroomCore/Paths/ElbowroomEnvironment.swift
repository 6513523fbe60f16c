// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process environment as a value, so tests pass their own and never touch the real HOME.
///
/// The live one (`current`) reads each variable with `getenv` when asked: building the whole
/// environment as a dictionary costs a render more than everything else it does with it (the
/// renderer reads about six variables). Only `variables` and `forChild` walk all of it.
public struct ElbowroomEnvironment: Sendable, Equatable {
    private enum Storage: Sendable, Equatable {
        /// This process's environment, read on demand.
        case process
        case fixed([String: String])
        /// This process's environment with some variables laid over it (names and values, the
        /// later winning): an account's (`Account.environment(over:)`).
        case overlay(names: [String], values: [String])
    }

    private var storage: Storage

    /// Every variable. For the live environment this is a snapshot taken now.
    public var variables: [String: String] {
        get {
            switch storage {
            case .fixed(let variables): return variables
            case .process: return Self.processVariables()
            case .overlay(let names, let values):
                var variables = Self.processVariables()
                for i in names.indices { variables[names[i]] = values[i] }
                return variables
            }
        }
        set { storage = .fixed(newValue) }
    }

    public init(_ variables: [String: String]) {
        storage = .fixed(variables)
    }

    /// This process's environment, each variable read when asked (see the type's comment).
    public static var current: ElbowroomEnvironment {
        ElbowroomEnvironment(storage: .process)
    }

    /// This process's environment as it is now, copied: for a process that changes its own
    /// environment later (the fetcher removes proxy variables) and must not see that here.
    public static var snapshot: ElbowroomEnvironment {
        ElbowroomEnvironment(processVariables())
    }

    private init(storage: Storage) {
        self.storage = storage
    }

    /// `environ`, walked once. The first `=` splits name and value; entries without one are skipped.
    static func processVariables() -> [String: String] {
        var result: [String: String] = [:]
        #if canImport(Darwin)
        guard var entry = _NSGetEnviron()?.pointee else { return result }
        #else
        guard var entry = environ as UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? else { return result }
        #endif
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let eq = text.firstIndex(of: "=") {
                let name = String(text[..<eq])
                // Like ProcessInfo: the first definition of a name wins.
                if result[name] == nil { result[name] = String(text[text.index(after: eq)...]) }
            }
            entry += 1
        }
        return result
    }

    /// This environment with `entries` (`NAME=value` each) laid over it: an empty value reads
    /// as unset, as always. The live environment stays live underneath (no copy of it is made).
    public func overlaid(_ entries: [String]) -> ElbowroomEnvironment {
        switch storage {
        case .fixed(var variables):
            for entry in entries {
                let (name, value) = Self.split(entry)
                variables[name] = value
            }
            return ElbowroomEnvironment(variables)
        case .process, .overlay:
            var names: [String] = []
            var values: [String] = []
            for entry in entries {
                let (name, value) = Self.split(entry)
                names.append(name)
                values.append(value)
            }
            return overlaid(names: names, values: values)
        }
    }

    /// `overlaid` with each entry's name and value apart (`names[i]=values[i]`), as
    /// `Account.environment(over:)` has them: nothing to join and split again.
    public func overlaid(names: [String], values: [String]) -> ElbowroomEnvironment {
        switch storage {
        case .fixed(var variables):
            for i in names.indices { variables[names[i]] = values[i] }
            return ElbowroomEnvironment(variables)
        case .process:
            return ElbowroomEnvironment(storage: .overlay(names: names, values: values))
        case .overlay(let earlierNames, let earlierValues):
            return ElbowroomEnvironment(storage: .overlay(names: earlierNames + names, values: earlierValues + values))
        }
    }

    /// `NAME=value` split at the first `=` (a byte: no grapheme breaking).
    static func split(_ entry: String) -> (String, String) {
        guard let eq = entry.utf8.firstIndex(of: UInt8(ascii: "=")) else { return (entry, "") }
        return (String(entry[..<eq]), String(entry[entry.utf8.index(after: eq)...]))
    }

    /// The variable's value; an empty one reads as unset.
    public subscript(_ name: String) -> String? {
        guard let value = raw(name), !value.isEmpty else { return nil }
        return value
    }

    /// The variable's value as set, empty included (where "set but empty" means something, as
    /// `CLAUDE_SECURESTORAGE_CONFIG_DIR=` does to Claude Code).
    public func raw(_ name: String) -> String? {
        switch storage {
        case .fixed(let variables): return variables[name]
        case .process: return Self.processValue(name)
        case .overlay(let names, let values):
            // The last entry for the name wins (a few entries: a walk, no dictionary).
            var i = names.count
            while i > 0 {
                i -= 1
                if names[i] == name { return values[i] }
            }
            return Self.processValue(name)
        }
    }

    /// `getenv(3)`, the name passed through `withCString` (a `String` passed as a C string
    /// itself is copied into an array first: ~250 instructions, and a render reads a dozen).
    private static func processValue(_ name: String) -> String? {
        name.withCString { getenv($0) }.map { CString.string($0) }
    }

    /// `HOME`, or `/` when it is unset or relative.
    public var home: String {
        self["HOME"].flatMap { ASCIIAffix.hasPrefix($0, "/") ? $0 : nil } ?? "/"
    }

    /// The variables that name a file or directory. A relative value in any of them is ignored,
    /// as if unset (the XDG base directory spec says so for its variables): the renderer runs in
    /// whatever directory the prompt is in, and a path resolved there would take config, plugins,
    /// credentials or the fetcher from a directory the user merely `cd`'d into.
    public static let pathVariables = [
        "HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR",
        "CLAUDE_CONFIG_DIR", "CLAUDE_SECURESTORAGE_CONFIG_DIR", "ELBOWROOM_CONFIG", "ELBOWROOM_FETCH", "CODEX_HOME",
    ]

    /// The value of a path variable with a leading `~` or `~/` expanded, when that is an absolute
    /// path; `nil` when unset, empty or relative. `home`: `self.home` when the caller has read it
    /// already (`Paths` reads it once for all its paths); read here when needed otherwise.
    public func absolutePath(_ name: String, home: String? = nil) -> String? {
        guard let value = self[name] else { return nil }
        let expanded: String
        // A value that does not start with `~` (nearly every one) is itself: no comparison of
        // names or of `~` made for it.
        if value.utf8.first != UInt8(ascii: "~") || name == "HOME" {
            expanded = value
        } else if value.utf8.count == 1 {  // "~"
            expanded = home ?? self.home
        } else if ASCIIAffix.hasPrefix(value, "~/") {
            let home = home ?? self.home
            expanded = Paths.join(home, String(value.dropFirst(2)))
        } else {
            expanded = value
        }
        return ASCIIAffix.hasPrefix(expanded, "/") ? expanded : nil
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
            let candidate = Paths.join(dir, name)
            if FileSystem.isExecutable(candidate) { return candidate }
        }
        return nil
    }

    /// Variables a child process must never inherit: anything that carries a credential
    /// (Claude Code's OAuth token and refresh token, API keys, gateway tokens; Codex's and
    /// OpenAI's, for Codex accounts).
    public static let secretVariables: Set<String> = [
        "CLAUDE_CODE_OAUTH_TOKEN", "CLAUDE_CODE_OAUTH_REFRESH_TOKEN", "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN",
        "OPENAI_API_KEY", "CODEX_API_KEY", "CODEX_ACCESS_TOKEN",
    ]

    /// The environment for a child: secrets removed; `ELBOWROOM_ENV_TOKEN_PRESENT=1` says (without
    /// the value) that `CLAUDE_CODE_OAUTH_TOKEN` was set, so the child can explain it.
    public var forChild: [String: String] {
        var child = variables.filter { !Self.secretVariables.contains($0.key) }
        if self["CLAUDE_CODE_OAUTH_TOKEN"] != nil { child["ELBOWROOM_ENV_TOKEN_PRESENT"] = "1" }
        return child
    }

    /// `forChild` as `NAME=value` entries.
    public var childEntries: [String] { forChild.map { $0.key + "=" + $0.value } }

    /// `childEntries` as `execve` takes them: a NULL-terminated array of C strings, valid during
    /// `body`. For the live environment they are `environ`'s own strings, picked byte by byte by
    /// `passesToChild` (a test holds the result equal to `childEntries`) and not copied: a render
    /// with a refresh due hands the fetcher its environment without making a `String` of every
    /// variable (about 1 k instructions each), or a dictionary of them.
    public func withChildEnvironment<R>(
        _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) throws -> R
    ) rethrows -> R {
        guard let environment = Self.environment else { return try CStringArray.with(childEntries, body) }
        // An account's overlay (`Account.environment(over:)`): environ's strings but the names it
        // sets, then its own entries (the last for each name), copied. A render of several
        // accounts starts a fetcher for each that is due; through `childEntries` every one cost
        // it a dictionary of the whole environment (~0.7 M instructions).
        var overlay: [String] = []
        switch storage {
        case .fixed: return try CStringArray.with(childEntries, body)
        case .process: break
        case .overlay(let names, let values):
            for i in names.indices where !names[(i + 1)...].contains(names[i]) { overlay.append(names[i] + "=" + values[i]) }
        }
        let tokenPresent = self["CLAUDE_CODE_OAUTH_TOKEN"] != nil
        var count = 0
        while environment[count] != nil { count += 1 }
        return try CStringArray.with(overlay) { own in
            try "ELBOWROOM_ENV_TOKEN_PRESENT=1".withCString { marker in
                try withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<CChar>?.self, capacity: count + overlay.count + 2) { envp in
                    var n = 0
                    for i in 0..<count where Self.passesToChild(environment[i]!, tokenPresent: tokenPresent)
                        && !Self.isSet(environment[i]!, among: own, count: overlay.count) {
                        envp[n] = environment[i]
                        n += 1
                    }
                    for i in 0..<overlay.count where Self.passesToChild(own[i]!, tokenPresent: tokenPresent) {
                        envp[n] = own[i]
                        n += 1
                    }
                    if tokenPresent {
                        envp[n] = UnsafeMutablePointer(mutating: marker)  // execve does not write it
                        n += 1
                    }
                    envp[n] = nil
                    return try body(envp.baseAddress!)
                }
            }
        }
    }

    /// Whether `entry`'s name (up to its `=`) is the name of one of the `count` entries of `own`.
    private static func isSet(_ entry: UnsafePointer<CChar>, among own: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, count: Int) -> Bool {
        guard let eq = strchr(entry, Int32(UInt8(ascii: "="))) else { return false }
        let length = UnsafePointer(eq) - entry + 1  // with the "="
        for i in 0..<count where strncmp(entry, own[i]!, length) == 0 { return true }
        return false
    }

    /// Whether a live `environ` entry goes to a child: a `NAME=value` that is not a secret
    /// (`secretVariables`, a test holds the two equal), and not a stale token-present marker
    /// when this process has the token (the child gets a fresh one). Bytes, not `String`s.
    static func passesToChild(_ entry: UnsafePointer<CChar>, tokenPresent: Bool) -> Bool {
        func starts(_ prefix: StaticString) -> Bool {
            prefix.utf8Start.withMemoryRebound(to: CChar.self, capacity: prefix.utf8CodeUnitCount) {
                strncmp(entry, $0, prefix.utf8CodeUnitCount) == 0
            }
        }
        guard strchr(entry, Int32(UInt8(ascii: "="))) != nil else { return false }
        if starts("CLAUDE_CODE_OAUTH_TOKEN=") || starts("CLAUDE_CODE_OAUTH_REFRESH_TOKEN=")
            || starts("ANTHROPIC_API_KEY=") || starts("ANTHROPIC_AUTH_TOKEN=")
            || starts("OPENAI_API_KEY=") || starts("CODEX_API_KEY=") || starts("CODEX_ACCESS_TOKEN=") {
            return false
        }
        return !(tokenPresent && starts("ELBOWROOM_ENV_TOKEN_PRESENT="))
    }

    /// This process's `environ`.
    private static var environment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        #if canImport(Darwin)
        _NSGetEnviron()?.pointee
        #else
        environ
        #endif
    }

    /// Whether `CLAUDE_CODE_OAUTH_TOKEN` is set here or was set in the parent.
    public var hasInferenceOnlyToken: Bool {
        self["CLAUDE_CODE_OAUTH_TOKEN"] != nil || self["ELBOWROOM_ENV_TOKEN_PRESENT"] == "1"
    }
}
