import Foundation
import Testing
import ElbowroomCore
@testable import ElbowroomFetch
import ElbowroomTestSupport
import CSystem
#if canImport(Glibc)
import Glibc
#endif

/// The credentials write cannot be redirected: not by a symlink planted before it, nor by one
/// swapped in between the re-read and the rename, and as root it acts with the owner's rights.
@Suite(.serialized) struct CredentialsWriteTests {
    static let nobody: uid_t = 65534

    struct Scene {
        let dir: ScratchDirectory
        var file: String { dir.path + "/.credentials.json" }
        var victim: String { dir.path + "/victim" }
        let victimText = "root's own file\n"

        init() throws {
            dir = ScratchDirectory()
            try Data(Sandbox.credentialsJSON(accessToken: "sk-ant-oat01-old", refreshToken: "sk-ant-ort01-old",
                                             expiresAt: Date().addingTimeInterval(-60)).utf8)
                .write(to: URL(fileURLWithPath: file))
            chmod(file, 0o600)
            try Data(victimText.utf8).write(to: URL(fileURLWithPath: victim))
        }

        var victimUntouched: Bool { (try? String(contentsOfFile: victim, encoding: .utf8)) == victimText }
    }

    /// The owner swaps the file for a symlink between our read and our rename (the race that hit
    /// about one try in ten): the write notices, refuses, and the link's target is untouched.
    @Test func aSymlinkSwappedInDuringTheWriteIsNeverWrittenThrough() throws {
        let scene = try Scene()
        let update = CredentialsFileUpdate(path: scene.file)
        #expect(throws: (any Error).self) {
            try update.run { current in
                #expect(current != nil)
                unlink(scene.file)
                symlink(scene.victim, scene.file)
                return Data("{\"claudeAiOauth\":{\"accessToken\":\"attacker's choice\"}}".utf8)
            }
        }
        #expect(scene.victimUntouched)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scene.dir.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    /// The swap raced for real, as the attack runs: root refreshes a login of `nobody`'s, in
    /// `nobody`'s directory, while a thread acting as `nobody` flips the name between the file and
    /// a link to root's file, 300 times. Every update writes the file it read or refuses; root's
    /// file is never written (the suite's figure: 300 races).
    @Test(.enabled(if: geteuid() == 0, "the attack needs root refreshing another user's login"))
    func aSwapRacingTheWriteNeverReachesTheVictim() throws {
        let scene = try Scene()
        #expect(chown(scene.dir.path, Self.nobody, Self.nobody) == 0)
        #expect(chown(scene.file, Self.nobody, Self.nobody) == 0)
        let spare = scene.dir.path + "/spare"
        let (file, victim) = (scene.file, scene.victim)
        let stop = LockedFlag()
        let flipper = Thread {
            // This thread's files are nobody's, as the attacker's would be.
            _ = elbowroom_setfsgid(UInt32(CredentialsWriteTests.nobody))
            _ = elbowroom_setfsuid(UInt32(CredentialsWriteTests.nobody))
            while !stop.value {
                _ = rename(file, spare)
                _ = symlink(victim, file)
                usleep(50)
                _ = unlink(file)
                _ = rename(spare, file)
                usleep(50)
            }
        }
        flipper.start()
        var wrote = 0, refused = 0
        for round in 0..<300 {
            do {
                try CredentialsFileUpdate(path: scene.file).run { _ in Data("{\"round\":\(round)}".utf8) }
                wrote += 1
            } catch {
                refused += 1
            }
        }
        stop.value = true
        while !flipper.isFinished { usleep(1000) }
        #expect(scene.victimUntouched)
        #expect(wrote + refused == 300)
    }

    /// A link that is there before the write is followed only to a file of the link's owner.
    @Test func aLinkToAnotherUsersFileIsRefused() throws {
        let scene = try Scene()
        let link = scene.dir.path + "/link.json"
        symlink(scene.victim, link)
        guard geteuid() == 0 else {
            // As a normal user the link and the file are both ours: nothing to refuse.
            return
        }
        #expect(lchown(link, Self.nobody, Self.nobody) == 0)
        let update = CredentialsFileUpdate(path: link)
        do {
            try update.run { _ in Data("{}".utf8) }
            Issue.record("wrote through a link to another user's file")
        } catch {
            #expect("\(error)".contains("belongs to another user"))
        }
        #expect(scene.victimUntouched)
    }

    /// A link to a file of the same owner is how some keep their login elsewhere: it still works.
    @Test func aLinkToTheOwnersOwnFileIsFollowed() throws {
        let scene = try Scene()
        let elsewhere = scene.dir.path + "/elsewhere.json"
        try FileManager.default.moveItem(atPath: scene.file, toPath: elsewhere)
        symlink(elsewhere, scene.file)
        try CredentialsFileUpdate(path: scene.file).run { _ in Data("{\"claudeAiOauth\":{}}".utf8) }
        #expect(try String(contentsOfFile: elsewhere, encoding: .utf8) == "{\"claudeAiOauth\":{}}")
        var info = stat()
        #expect(lstat(scene.file, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
    }

    /// Root refreshing a user's login writes with that user's identity: the new file is theirs,
    /// with the mode it had, and root's own files are out of reach even if a name were redirected.
    @Test func rootWritesAsTheFilesOwner() throws {
        guard geteuid() == 0 else { return }
        let scene = try Scene()
        #expect(chown(scene.dir.path, Self.nobody, Self.nobody) == 0)
        #expect(chown(scene.file, Self.nobody, Self.nobody) == 0)
        chmod(scene.file, 0o640)
        let seenAs = LogBox()
        try CredentialsFileUpdate(path: scene.file).run { _ in
            // Inside the update, the file system sees the owner: root's file cannot be opened.
            seenAs.append(open(scene.victim, O_WRONLY) < 0 ? "owner" : "root")
            return Data("{\"claudeAiOauth\":{\"accessToken\":\"new\"}}".utf8)
        }
        #expect(seenAs.lines == ["owner"])
        var info = stat()
        #expect(stat(scene.file, &info) == 0)
        #expect(info.st_uid == Self.nobody && info.st_gid == Self.nobody)
        #expect(info.st_mode & 0o777 == 0o640)
        #expect(scene.victimUntouched)
        // Root is itself again afterwards.
        let fd = open(scene.victim, O_WRONLY | O_APPEND)
        #expect(fd >= 0)
        if fd >= 0 { close(fd) }
    }

    /// Claude Code's document grows with MCP logins: 2 MiB is read, and one over the limit says
    /// so rather than "not signed in".
    @Test func largeCredentialsAreReadAndTooLargeOnesSaySo() throws {
        let dir = ScratchDirectory()
        let file = dir.path + "/.credentials.json"
        let padding = String(repeating: "x", count: 2 << 20)
        let json = #"{"claudeAiOauth":{"accessToken":"sk-ant-oat01-a","refreshToken":"sk-ant-ort01-r","expiresAt":4102444800000},"mcpOAuth":{"big":"\#(padding)"}}"#
        try Data(json.utf8).write(to: URL(fileURLWithPath: file))
        let source = FileCredentialSource(path: file)
        #expect(source.load().oauth?.accessToken == "sk-ant-oat01-a")
        let huge = FileHandle(forWritingAtPath: file)!
        huge.truncateFile(atOffset: UInt64(CredentialsFileUpdate.readLimit + 1))
        huge.closeFile()
        do {
            _ = try source.readRaw()
            Issue.record("read a file over the limit")
        } catch {
            #expect("\(error)".contains("more than the 16 MiB elbowroom reads"))
        }
    }
}

/// A fresh directory (0755, so another user may be given things in it), removed at the end.
final class ScratchDirectory {
    let path: String
    init() {
        path = NSTemporaryDirectory() + "elbowroom-fetch-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        chmod(path, 0o755)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = false
    var value: Bool {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}
