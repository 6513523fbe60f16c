// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// How to start the fetcher: a program, and what goes before the fetcher's own arguments.
public struct FetcherProgram: Sendable, Equatable {
    public var path: String
    /// `["elbowroom-fetch"]` when `path` is elbowroom itself, started with the fetcher's name as
    /// its first argument (as `busybox ls` is `ls`); empty for the `elbowroom-fetch` link or
    /// `ELBOWROOM_FETCH`.
    public var leadingArguments: [String]

    public init(path: String, leadingArguments: [String] = []) {
        self.path = path
        self.leadingArguments = leadingArguments
    }

    /// The argument list for a start of the fetcher with `arguments`.
    public func arguments(_ arguments: [String]) -> [String] {
        leadingArguments.isEmpty ? arguments : leadingArguments + arguments
    }

    /// What a render or `fetch` says when `FetcherLocator` finds nothing (only where
    /// `/proc/self/exe` cannot be read and PATH has no `elbowroom-fetch`).
    public static let notFound = "elbowroom-fetch not found: it is a link to elbowroom beside it (ln -s elbowroom DIR/elbowroom-fetch), or set ELBOWROOM_FETCH"
}

/// Finds the fetcher: `ELBOWROOM_FETCH` if set to an absolute path (elbowroom itself there is
/// started by the fetcher's name); else the `elbowroom-fetch`
/// link installed beside this program, when it is this program (an `elbowroom-fetch` of an older
/// install, a program of its own then, is passed over); else this program itself, by name (a
/// build directory, or a copy of `elbowroom` alone); else `elbowroom-fetch` on PATH, where there
/// is no `/proc/self/exe` to say what this program is.
public enum FetcherLocator {
    /// Where the installed `elbowroom-fetch` link is for `program`: in the same directory.
    public static func sibling(of program: String) -> String {
        FileSystem.directory(of: program) + "/" + FetcherName.name
    }

    public static func locate(environment: ElbowroomEnvironment) -> FetcherProgram? {
        let own = FileSystem.ownExecutablePath()
        if let explicit = environment.absolutePath("ELBOWROOM_FETCH") {  // a relative one is ignored
            guard FileSystem.isExecutable(explicit) else { return nil }
            // elbowroom itself by its own name: started as the fetcher all the same.
            if let own, FileSystem.isSameFile(explicit, own), !FetcherName.matches(explicit) {
                return FetcherProgram(path: explicit, leadingArguments: [FetcherName.name])
            }
            return FetcherProgram(path: explicit)
        }
        if let own {
            let sibling = sibling(of: own)
            if FileSystem.isExecutable(sibling), FileSystem.isSameFile(sibling, own) { return FetcherProgram(path: sibling) }
            return FetcherProgram(path: own, leadingArguments: [FetcherName.name])
        }
        return environment.findExecutable(FetcherName.name).map { FetcherProgram(path: $0) }
    }
}
