import Foundation
import Testing
import ElbowroomCore

/// `ExecutableTrust`: a plugin another user could change is refused, as ssh, sudo and cron refuse.
@Suite struct ExecutableTrustTests {
    final class Tree: @unchecked Sendable {
        let root: String
        init() throws {
            var bytes = Array((NSTemporaryDirectory() + "/elbowroom-trust-XXXXXX").utf8CString)
            let made = try #require(mkdtemp(&bytes))
            root = try #require(FileSystem.realPath(String(cString: made)))
        }
        deinit { try? FileManager.default.removeItem(atPath: root) }

        @discardableResult
        func plugin(_ relative: String, mode: mode_t = 0o755) throws -> String {
            let path = root + "/" + relative
            try FileManager.default.createDirectory(atPath: FileSystem.directory(of: path), withIntermediateDirectories: true)
            try "#!/bin/sh\necho ran\n".write(toFile: path, atomically: false, encoding: .utf8)
            chmod(path, mode)
            return path
        }
    }

    static let otherUID: uid_t = 4242

    @Test func anOwnPluginInOwnDirectoriesIsRun() throws {
        let t = try Tree()
        let path = try t.plugin("bin/elbowroom-adapter-fine")
        #expect(ExecutableTrust.refusal(path) == nil)
        chmod(path, 0o700)
        #expect(ExecutableTrust.refusal(path) == nil)
    }

    @Test func aPluginWritableByGroupOrOthersIsRefused() throws {
        let t = try Tree()
        for (mode, who) in [(mode_t(0o777), "group and others"), (0o757, "others"), (0o775, "group"), (0o1777, "group and others")] {
            let path = try t.plugin("bin/elbowroom-adapter-m\(String(mode, radix: 8))", mode: mode)
            let why = try #require(ExecutableTrust.refusal(path), "mode \(String(mode, radix: 8))")
            #expect(why == "\(path) is writable by \(who) (mode \(String(mode, radix: 8)))")
        }
    }

    @Test func aPluginInADirectoryOthersCanWriteIsRefusedUnlessItIsSticky() throws {
        let t = try Tree()
        let path = try t.plugin("open/deeper/elbowroom-source-x")
        chmod(t.root + "/open", 0o777)
        #expect(ExecutableTrust.refusal(path) == "\(t.root)/open is writable by group and others (mode 777)")
        chmod(t.root + "/open", 0o775)
        #expect(ExecutableTrust.refusal(path)?.hasPrefix("\(t.root)/open is writable by group") == true)
        // Sticky, as /tmp: nobody but an entry's owner can rename or remove it.
        chmod(t.root + "/open", 0o1777)
        #expect(ExecutableTrust.refusal(path) == nil)
        // The plugin's own directory writable: refused.
        chmod(t.root + "/open/deeper", 0o757)
        #expect(ExecutableTrust.refusal(path)?.hasPrefix("\(t.root)/open/deeper is writable by others") == true)
    }

    @Test func aSymlinkIsJudgedWhereItIsAndWhereItLeads() throws {
        let t = try Tree()
        let target = try t.plugin("shared/elbowroom-adapter-real")
        try FileManager.default.createDirectory(atPath: t.root + "/bin", withIntermediateDirectories: true)
        let link = t.root + "/bin/elbowroom-adapter-link"
        #expect(symlink(target, link) == 0)
        #expect(ExecutableTrust.refusal(link) == nil)
        chmod(t.root + "/shared", 0o777)
        #expect(ExecutableTrust.refusal(link)?.hasPrefix("\(t.root)/shared is writable") == true, "where it leads")
        chmod(t.root + "/shared", 0o755)
        chmod(t.root + "/bin", 0o777)
        #expect(ExecutableTrust.refusal(link)?.hasPrefix("\(t.root)/bin is writable") == true, "where it was found")
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to give a file to another user"))
    func aPluginOrADirectoryOwnedByAnotherUserIsRefused() throws {
        let t = try Tree()
        let path = try t.plugin("bin/elbowroom-source-theirs")
        #expect(chown(path, Self.otherUID, 0) == 0)
        #expect(ExecutableTrust.refusal(path) == "\(path) is owned by uid 4242, neither you (uid 0) nor root")
        #expect(chown(path, 0, 0) == 0)
        #expect(chown(t.root + "/bin", Self.otherUID, 0) == 0)
        #expect(ExecutableTrust.refusal(path) == "\(t.root)/bin is owned by uid 4242, neither you (uid 0) nor root")
        // As another user: root's files are fine, the user's own too, a third user's not.
        #expect(chown(t.root + "/bin", 0, 0) == 0)
        #expect(ExecutableTrust.refusal(path, uid: Self.otherUID) == nil)
        #expect(ExecutableTrust.refusal(path, uid: 1000) == nil)
        // A symlink in a sticky directory, made by another user: they can point it elsewhere.
        let sticky = t.root + "/sticky"
        try FileManager.default.createDirectory(atPath: sticky, withIntermediateDirectories: true)
        chmod(sticky, 0o1777)
        let target = try t.plugin("bin/elbowroom-source-linked")
        let linkDir = sticky + "/bin"
        try FileManager.default.createDirectory(atPath: linkDir + "-real", withIntermediateDirectories: true)
        #expect(symlink(t.root + "/bin", linkDir) == 0)
        #expect(ExecutableTrust.refusal(linkDir + "/elbowroom-source-linked") == nil)
        #expect(lchown(linkDir, Self.otherUID, 0) == 0)
        #expect(ExecutableTrust.refusal(linkDir + "/elbowroom-source-linked") == "\(linkDir) is a symlink owned by uid 4242, neither you (uid 0) nor root")
        _ = target
    }
}
