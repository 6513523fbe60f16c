import Foundation
import Testing
@testable import ElbowroomCore
import ElbowroomTestSupport

/// An account's directory resolved with its parent's resolution shared (`ResolvedParent`): the
/// same answer as the C library's `realpath` for every kind of path, asked in any order, the
/// shared parent included.
@Suite struct ResolvedParentTests {
    /// A tree with a symlinked directory above the accounts, a symlinked account, a dangling
    /// link, a file, and a relative link: every account path in it, then the same ones again
    /// (the second time, the parent is the one kept).
    @Test func everyPathResolvesAsRealpathDoes() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let root = try #require(FileSystem.realPath(sandbox.root))
        let fm = FileManager.default
        let real = root + "/real"
        try fm.createDirectory(atPath: real + "/claude", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: real + "/codex", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: root + "/elsewhere/target", withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: root + "/via-link", withDestinationPath: real)
        try fm.createSymbolicLink(atPath: real + "/linked", withDestinationPath: root + "/elsewhere/target")
        try fm.createSymbolicLink(atPath: real + "/relative", withDestinationPath: "codex")
        try fm.createSymbolicLink(atPath: real + "/dangling", withDestinationPath: root + "/nowhere")
        fm.createFile(atPath: real + "/file", contents: Data("x".utf8))
        var paths: [String] = []
        for parent in [real, root + "/via-link", root + "/home/../home", root + "/missing"] {
            for part in ["claude", "codex", "linked", "relative", "dangling", "file", "absent", ".", "..", "claude/"] {
                paths.append(parent + "/" + part)
            }
        }
        paths += ["/", "/tmp", root, "relative/path", ""]
        for path in paths + paths.reversed() + paths {
            #expect(ResolvedParent.realPath(path) == FileSystem.realPath(path), "\(path)")
        }
    }

    /// A second account beside the first costs one `readlink`, not one a part: the kept parent
    /// is used even after the directory it names moved (within its second), and a symlinked
    /// account is still the C library's to resolve.
    @Test func theParentIsKeptForTheNextAccount() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let root = try #require(FileSystem.realPath(sandbox.root))
        let fm = FileManager.default
        try fm.createDirectory(atPath: root + "/a/one", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: root + "/a/two", withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: root + "/via", withDestinationPath: root + "/a")
        let realRoot = root
        #expect(ResolvedParent.realPath(root + "/via/one") == realRoot + "/a/one")
        // The link now points elsewhere: within the second the kept parent still answers, as a
        // render's accounts, all resolved at once, are resolved against one parent.
        try fm.createDirectory(atPath: root + "/b/two", withIntermediateDirectories: true)
        try fm.removeItem(atPath: root + "/via")
        try fm.createSymbolicLink(atPath: root + "/via", withDestinationPath: root + "/b")
        let kept = ResolvedParent.realPath(root + "/via/two")
        #expect(kept == realRoot + "/a/two" || kept == realRoot + "/b/two")
    }
}
