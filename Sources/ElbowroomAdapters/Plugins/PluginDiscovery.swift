import ElbowroomCore

/// Finds adapter plugins: executables named `elbowroom-adapter-NAME`, first in the user's adapters
/// dir (`$XDG_CONFIG_HOME/elbowroom/adapters`), then in each `PATH` directory; the first found wins.
/// Relative `PATH` entries are skipped (see `ElbowroomEnvironment.executableSearchPath`).
public enum PluginDiscovery {
    public static let prefix = "elbowroom-adapter-"

    static func directories(paths: Paths, environment: ElbowroomEnvironment) -> [String] {
        [paths.userAdaptersDir] + environment.executableSearchPath
    }

    /// A name a plugin file may carry: non-empty, no `/`, not starting with `.`, and nothing a
    /// listing could not show as it is (a control, a bidi control, a line break, a tab): such a
    /// file is not a plugin, so `adapters` and completion never print an escape from a file name.
    static func isValid(_ name: String) -> Bool {
        guard !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else { return false }
        return !name.unicodeScalars.contains { SafeText.isDropped($0) || SafeText.isLineBreak($0) || $0 == "\t" }
    }

    public static func find(name: String, paths: Paths, environment: ElbowroomEnvironment) -> String? {
        guard isValid(name) else { return nil }
        return environment.findExecutable(prefix + name, in: directories(paths: paths, environment: environment))
    }

    public static func all(paths: Paths, environment: ElbowroomEnvironment) -> [(name: String, path: String)] {
        var seen: Set<String> = []
        var found: [(name: String, path: String)] = []
        for dir in directories(paths: paths, environment: environment) {
            for entry in FileSystem.entries(of: dir).sorted() where entry.hasPrefix(prefix) {
                let name = String(entry.dropFirst(prefix.count))
                let path = (dir.hasSuffix("/") ? dir : dir + "/") + entry
                guard isValid(name), !seen.contains(name), FileSystem.isExecutable(path) else { continue }
                seen.insert(name)
                found.append((name, path))
            }
        }
        return found.sorted { $0.name < $1.name }
    }
}
