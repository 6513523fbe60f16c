/// `elbowroom-http`, the small C program the fetcher makes its HTTP calls through on Linux
/// (`Sources/elbowroom-http/main.c` says why and how). Where it is installed, for the fetcher
/// that runs it and for `doctor`, which checks that it starts.
public enum HTTPHelper {
    public static let name = "elbowroom-http"

    /// `PREFIX/libexec/elbowroom/elbowroom-http` for a program in `PREFIX/bin/` (install.sh, the
    /// .deb and Nix lay it out so), else `PREFIX/lib/elbowroom/` (Arch has no libexec), else the
    /// same directory as the program (a build directory: `.build/release/`); `nil` when none is
    /// there.
    public static func locate(besides program: String? = FileSystem.ownExecutablePath()) -> String? {
        guard let program else { return nil }
        let directory = FileSystem.directory(of: program)
        let prefix = FileSystem.directory(of: directory)
        return [Paths.join(prefix, "libexec/elbowroom/" + name), Paths.join(prefix, "lib/elbowroom/" + name),
                Paths.join(directory, name)].first(where: FileSystem.isExecutable)
    }
}
