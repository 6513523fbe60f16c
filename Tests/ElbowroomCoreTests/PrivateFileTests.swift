import Foundation
import Testing
@testable import ElbowroomCore

/// Files planted in the cache directory (by another user while it was writable, or by anything
/// else): elbowroom never follows a symlink there, never waits on a FIFO, never writes through
/// either, and treats every such file as a miss it replaces on the next write.
@Suite struct PrivateFileTests {
    /// Another user, for "not owned by us" (the tests run as root here; elsewhere those cases skip).
    static let otherUID: uid_t = 65534
    static var canChown: Bool { geteuid() == 0 }

    final class Sandbox {
        let temp = TempDirectory()
        let paths: Paths
        let store: CacheStore
        /// A file outside the cache dir that a planted symlink points at.
        let victim: String
        init() {
            paths = Paths(environment: ElbowroomEnvironment(["HOME": temp.path, "XDG_CACHE_HOME": temp.path + "/cache"]))
            store = CacheStore(paths: paths)
            victim = temp.path + "/victim"
            try! FileSystem.makeDirectory(paths.cacheDir, mode: 0o700)
        }
        var dir: String { paths.cacheDir }
        func plantFIFO(_ path: String) { #expect(mkfifo(path, 0o666) == 0) }
        func plantSymlink(_ path: String, to target: String) { #expect(symlink(target, path) == 0) }
        func writeVictim() { try! "precious\n".write(toFile: victim, atomically: false, encoding: .utf8) }
        var victimText: String? { try? String(contentsOfFile: victim, encoding: .utf8) }
        func sample(used: Double = 42) -> CacheFile {
            let now = Date(timeIntervalSince1970: 1_795_356_000)
            var cache = CacheFile(account: store.account, reading: Reading(
                windows: [UsageWindow(key: "five_hour", used: used, resetsAt: now.addingTimeInterval(3600), observedAt: now)],
                fetchedAt: now, source: .api))
            cache.fetch.recordSuccess(at: now)
            return cache
        }
    }

    /// Runs `body` on a thread and fails (instead of hanging the suite) when it takes longer
    /// than `seconds`; a FIFO it may be stuck opening is then opened for writing to free it.
    static func bounded<T: Sendable>(_ seconds: TimeInterval = 3, fifo: String? = nil,
                                     _ body: @escaping @Sendable () -> T,
                                     sourceLocation: SourceLocation = #_sourceLocation) -> T? {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<T>()
        Thread.detachNewThread {
            box.value = body()
            done.signal()
        }
        if done.wait(timeout: .now() + seconds) == .timedOut {
            Issue.record("did not return within \(seconds) s", sourceLocation: sourceLocation)
            if let fifo {
                let fd = open(fifo, O_WRONLY | O_NONBLOCK)
                if fd >= 0 { close(fd) }
                let reader = open(fifo, O_RDONLY | O_NONBLOCK)
                if reader >= 0 { close(reader) }
            }
            return nil
        }
        return box.value
    }

    final class ResultBox<T>: @unchecked Sendable { var value: T? }

    static func isUnusable(_ contents: CacheStore.Contents, saying text: String) -> Bool {
        if case .unusable(let why) = contents { return why.contains(text) }
        return false
    }

    /// A path's directory is cut at its last "/" byte, whatever follows it (a combining mark
    /// after a "/" makes one `Character`, but the kernel still sees a "/").
    @Test func aPathsDirectoryIsBeforeItsLastSlashByte() {
        #expect(FileSystem.directory(of: "/a/b/c") == "/a/b")
        #expect(FileSystem.directory(of: "/c") == "/")
        #expect(FileSystem.directory(of: "c") == ".")
        #expect(FileSystem.directory(of: "/home/é/usage-1.json") == "/home/é")
        #expect(FileSystem.directory(of: "/a/\u{301}b") == "/a")
    }

    @Test func aFIFOPlantedAsTheCacheFileIsAMissNotAHangAndIsReplaced() throws {
        let s = Sandbox()
        s.plantFIFO(s.store.file)
        let store = s.store
        let contents = Self.bounded(fifo: store.file) { store.read() }
        #expect(contents.map { Self.isUnusable($0, saying: "is a fifo, not a regular file") } == true)
        try s.store.save(s.sample())
        #expect(s.store.load() == s.sample())
    }

    @Test func aFIFOPlantedAsALockFileIsReplacedNotWaitedOn() throws {
        let s = Sandbox()
        for lock in [s.paths.cacheLockFile, s.paths.fetchLockFile] { s.plantFIFO(lock) }
        let paths = s.paths
        #expect(Self.bounded(fifo: paths.fetchLockFile) { FileLock.isHeld(paths.fetchLockFile) } == false)
        #expect(FileSystem.privateFileProblem(paths.fetchLockFile)?.contains("is a fifo") == true)
        let store = s.store
        let saved = Self.bounded(fifo: paths.cacheLockFile) { (try? store.update { $0.fetch.consecutiveFailures = 3; return true }) != nil }
        #expect(saved == true)
        #expect(s.store.load()?.fetch.consecutiveFailures == 3)
        let lock = try #require(Self.bounded(fifo: paths.fetchLockFile) { try? FileLock(path: paths.fetchLockFile) } ?? nil)
        #expect(lock.tryLock())
        #expect(FileSystem.privateFileProblem(paths.fetchLockFile) == nil)
        #expect(FileSystem.privateFileProblem(paths.cacheLockFile) == nil)
    }

    @Test func aSymlinkPlantedAsTheCacheFileIsNeitherReadNorWrittenThrough() throws {
        let s = Sandbox()
        // A target that happens to hold a valid cache must not be read through the link either.
        try FileSystem.writeAtomically(s.sample(used: 99).encoded(), to: s.victim, mode: 0o600)
        let before = try Data(contentsOf: URL(fileURLWithPath: s.victim))
        s.plantSymlink(s.store.file, to: s.victim)
        #expect(Self.isUnusable(s.store.read(), saying: "is a symbolic link"))
        try s.store.save(s.sample())
        #expect(try Data(contentsOf: URL(fileURLWithPath: s.victim)) == before)
        #expect(FileSystem.privateFileProblem(s.store.file) == nil, "the link itself was replaced by the cache")
        #expect(s.store.load() == s.sample())
    }

    @Test func aSymlinkPlantedAsALockFileNeverCreatesOrTouchesItsTarget() throws {
        let s = Sandbox()
        let missing = s.temp.path + "/created-by-elbowroom"
        s.writeVictim()
        s.plantSymlink(s.paths.cacheLockFile, to: missing)
        s.plantSymlink(s.paths.fetchLockFile, to: s.victim)
        #expect(!FileLock.isHeld(s.paths.fetchLockFile))
        try s.store.update { $0.fetch.consecutiveFailures = 1; return true }
        let lock = try FileLock(path: s.paths.fetchLockFile)
        #expect(lock.tryLock())
        #expect(!FileSystem.exists(missing))
        #expect(s.victimText == "precious\n")
        var info = stat()
        #expect(lstat(s.paths.fetchLockFile, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG)
    }

    @Test func aSymlinkPlantedAtTheTempFileNameIsSkipped() throws {
        let s = Sandbox()
        s.writeVictim()
        let name = (s.store.file as NSString).lastPathComponent
        // The writer's first two temp names are planted; the third is free.
        for n in [1, 2] { s.plantSymlink("\(s.dir)/.\(name).\(getpid()).\(n).tmp", to: s.victim) }
        let nonces = NonceSequence([1, 2, 3])
        try FileSystem.writeAtomically(s.sample().encoded(), to: s.store.file, mode: 0o600, nonce: nonces.next)
        #expect(s.victimText == "precious\n")
        #expect(s.store.load() == s.sample())
        #expect(!FileSystem.exists("\(s.dir)/.\(name).\(getpid()).3.tmp"))
    }

    final class NonceSequence: @unchecked Sendable {
        var values: [UInt32]
        init(_ values: [UInt32]) { self.values = values }
        func next() -> UInt32 { values.isEmpty ? 9 : values.removeFirst() }
    }

    @Test func aCacheDirectoryWritableByOthersIsRepairedBeforeAWrite() throws {
        let s = Sandbox()
        chmod(s.dir, 0o777)
        #expect(s.store.load() == nil)  // reading neither refuses nor repairs
        #expect(FileSystem.mode(of: s.dir) == 0o777)
        let inspection = CacheStore.inspect(paths: s.paths)
        #expect(inspection.problems.isEmpty)
        #expect(inspection.repairs == ["\(s.dir) was mode 777, writable by others; repaired to 700"])
        #expect(FileSystem.mode(of: s.dir) == 0o700)
        chmod(s.dir, 0o777)
        try s.store.save(s.sample())
        #expect(FileSystem.mode(of: s.dir) == 0o700)
    }

    @Test(.enabled(if: canChown)) func aCacheDirectoryOwnedByAnotherUserIsRefused() throws {
        let s = Sandbox()
        try s.store.save(s.sample())
        #expect(chown(s.dir, Self.otherUID, Self.otherUID) == 0)
        guard case .refused(let why) = s.store.read() else {
            Issue.record("expected a refusal")
            return
        }
        #expect(why == "cannot use the cache directory: \(s.dir) is owned by uid 65534, not by you (uid 0): elbowroom will not use it; remove it or change its owner")
        #expect(s.store.load() == nil)
        #expect(throws: FileSystem.Failure.self) { try s.store.save(s.sample(used: 1)) }
        #expect(throws: FileSystem.Failure.self) { try s.store.update { _ in true } }
        #expect(CacheStore.inspect(paths: s.paths).problems == [why])
    }

    @Test(.enabled(if: canChown)) func aCacheFileOwnedByAnotherUserIsAMissAndReplaced() throws {
        let s = Sandbox()
        try s.store.save(s.sample(used: 99))
        #expect(chown(s.store.file, Self.otherUID, Self.otherUID) == 0)
        #expect(Self.isUnusable(s.store.read(), saying: "is owned by uid 65534, not by you (uid 0)"))
        try s.store.save(s.sample())
        #expect(s.store.load() == s.sample())
    }

    @Test func aHugeSparseCacheFileIsRefusedWithoutReadingIt() throws {
        let s = Sandbox()
        let fd = open(s.store.file, O_WRONLY | O_CREAT, 0o600)
        #expect(ftruncate(fd, 100 << 20) == 0)
        close(fd)
        let started = Date()
        #expect(Self.isUnusable(s.store.read(), saying: "is 104857600 bytes, more than the 1048576 it may hold"))
        #expect(Date().timeIntervalSince(started) < 0.5)
    }

    @Test(arguments: [("", "is empty"), (#"{"version":1,"account":"a","fe"#, "is corrupt, truncated or of another version")])
    func anEmptyOrTruncatedCacheFileIsAMissThatSaysSo(contents: String, says: String) throws {
        let s = Sandbox()
        try FileSystem.writeAtomically(Data(contents.utf8), to: s.store.file, mode: 0o600)
        #expect(Self.isUnusable(s.store.read(), saying: says))
    }

    @Test func aHardLinkToAnotherFileIsNotTakenForTheCache() throws {
        let s = Sandbox()
        try FileSystem.writeAtomically(s.sample(used: 99).encoded(), to: s.victim, mode: 0o600)
        #expect(link(s.victim, s.store.file) == 0)
        #expect(Self.isUnusable(s.store.read(), saying: "has 2 hard links"))
    }

    @Test func tempFilesOfADeadWriterAreRemovedByTheNextWrite() throws {
        let s = Sandbox()
        let name = (s.store.file as NSString).lastPathComponent
        // A pid that is not running (pid_max is below 2^22 on Linux).
        let dead = "\(s.dir)/.\(name).4194303.77.tmp"
        let fresh = "\(s.dir)/.\(name).4194302.78.tmp"
        let alive = "\(s.dir)/.\(name).1.79.tmp"
        for path in [dead, fresh, alive] { try Data("{}".utf8).write(to: URL(fileURLWithPath: path)) }
        let old = Date().addingTimeInterval(-3600)
        for path in [dead, alive] { try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: path) }
        try s.store.save(s.sample())
        #expect(!FileSystem.exists(dead))
        #expect(FileSystem.exists(fresh), "a minute's grace: its writer may be in another pid namespace")
        #expect(FileSystem.exists(alive), "pid 1 is alive")
    }

    /// The cache's reader of bytes reads what `readPrivate` reads, at every size (one more byte
    /// than `fstat` said, more than its old 16 kB buffer), and refuses what it refuses.
    @Test func theBytesReaderReadsWhatTheDataReaderReads() throws {
        let s = Sandbox()
        let path = s.dir + "/usage-0000000000000000.json"
        #expect(try FileSystem.readPrivateBytes(path, limit: 100) == nil)
        for size in [0, 1, 541, 4095, 4096, 16384, 40000] {
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            #expect(try FileSystem.readPrivateBytes(path, limit: 1 << 20) == bytes, "\(size) bytes")
            #expect(try FileSystem.readPrivate(path, limit: 1 << 20).map { [UInt8]($0) } == bytes, "\(size) bytes")
        }
        #expect(throws: FileSystem.Failure.self) { try FileSystem.readPrivateBytes(path, limit: 39999) }
        let link = s.dir + "/link.json"
        s.plantSymlink(link, to: path)
        #expect(throws: FileSystem.Failure.self) { try FileSystem.readPrivateBytes(link, limit: 1 << 20) }
    }

    @Test func aFIFOIsReadWithoutHangingByThePlainReaderToo() {
        let s = Sandbox()
        let fifo = s.temp.path + "/config.toml"
        s.plantFIFO(fifo)
        let started = Date()
        let data = Self.bounded(fifo: fifo) { FileSystem.read(fifo) }
        #expect(data == .some(Data()), "no writer: end of file at once")
        #expect(Date().timeIntervalSince(started) < 1)
    }
}
