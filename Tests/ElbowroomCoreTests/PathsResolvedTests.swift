import Testing
@testable import ElbowroomCore

/// A Claude config dir that does not exist is resolved by its spelling, on bytes: the same
/// answer as splitting into parts and joining them (the form it replaced, which cost a render
/// ~250 k instructions of metadata).
@Suite struct PathsResolvedTests {
    static func bySplitting(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == ".." {
                if !parts.isEmpty { parts.removeLast() }
            } else {
                parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    @Test(arguments: ["/", "//", "/nonexistent-elbowroom/a/b", "/nonexistent-elbowroom/./a/../b/", "/nonexistent-elbowroom//x/./y/..",
                      "/../..", "/nonexistent-elbowroom/..a/.b/...", "/nonexistent-elbowroom/é/ü/../ß", "relative/nonexistent-elbowroom/.."])
    func aSpellingResolvesAsSplittingWould(_ path: String) {
        #expect(Paths.resolved(path) == Self.bySplitting(path))
    }

    /// Trailing slashes go (one path, one account), a lone "/" stays, nothing else changes.
    @Test(arguments: [("/a/b///", "/a/b"), ("/", "/"), ("///", "/"), ("a/", "a"), ("/é/", "/é"), ("/a/b", "/a/b"), ("", "")])
    func trailingSlashesAreTrimmed(_ path: String, _ trimmed: String) {
        #expect(Paths.trimmed(path) == trimmed)
    }
}
