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

    /// A path taken as it stands (a directory that does not exist) is one splitting and joining
    /// would give back unchanged, and only such a path: over every path of up to four parts.
    @Test func aPathIsTakenAsItStandsExactlyWhenSplittingGivesItBack() {
        let parts = ["a", "é", ".", "..", "", ".b", "..c", "d."]
        var paths: [String] = ["/", "", "a"]
        var level = [""]
        for _ in 0..<4 {
            level = level.flatMap { prefix in parts.map { prefix + "/" + $0 } }
            paths += level
            paths += level.map { String($0.dropFirst()) }  // relative
        }
        for path in paths {
            #expect(Paths.isResolvedSpelling(path) == (Self.bySplitting(path) == path), "\(path)")
        }
    }

    /// A path and a name joined with one slash between (none added after one there), long and
    /// short, ASCII or not: what `a + "/" + b` gave for every `a` that does not end in a
    /// slash after a prepended mark (a slash there is a slash to the kernel, and to `join`).
    @Test(arguments: [("/a", "b", "/a/b"), ("/a/", "b", "/a/b"), ("/", ".claude", "/.claude"), ("", "b", "/b"),
                      ("/home/someone-with-a-long-name/.cache/elbowroom", "usage-0123456789abcdef.json",
                       "/home/someone-with-a-long-name/.cache/elbowroom/usage-0123456789abcdef.json"),
                      ("/é", "ü", "/é/ü"), ("/x\u{301}", "y", "/x\u{301}/y"), ("/x/\u{301}", "y", "/x/\u{301}/y"),
                      ("/x\u{600}/", "y", "/x\u{600}/y"), ("/a", "", "/a/")])
    func aPathAndANameAreJoinedWithOneSlash(_ a: String, _ b: String, _ joined: String) {
        #expect(Paths.join(a, b) == joined)
        #expect(Array(Paths.join(a, b).utf8) == Array(joined.utf8))
    }

    /// An account's file, written in one piece, is the directory joined with `usage-KEY.SUFFIX`.
    @Test(arguments: ["/a", "/a/", "/", "", "/home/someone-with-a-long-name/.cache/elbowroom", "/é/x\u{301}"])
    func anAccountFileIsItsNameJoinedToTheDirectory(_ dir: String) {
        for key in ["0123456789abcdef", "", "k"] {
            #expect(Array(Paths.accountFile(dir, key, ".json").utf8) == Array(Paths.join(dir, "usage-" + key + ".json").utf8))
            #expect(Paths.accountFile(dir, key, ".fetch.lock") == Paths.join(dir, "usage-\(key).fetch.lock"))
        }
    }

    /// Trailing slashes go (one path, one account), a lone "/" stays, nothing else changes.
    @Test(arguments: [("/a/b///", "/a/b"), ("/", "/"), ("///", "/"), ("a/", "a"), ("/é/", "/é"), ("/a/b", "/a/b"), ("", "")])
    func trailingSlashesAreTrimmed(_ path: String, _ trimmed: String) {
        #expect(Paths.trimmed(path) == trimmed)
    }
}
