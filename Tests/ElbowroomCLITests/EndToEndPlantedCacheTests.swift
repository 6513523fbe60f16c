import Foundation
import ElbowroomCore
import ElbowroomTestSupport
import Testing

/// The built `elbowroom` and `elbowroom-fetch` with things planted in the cache directory, as
/// another user could while it was writable by others: `doctor` says what it found, a render
/// returns promptly (a hang here would be every prompt's), and nothing outside the cache
/// directory is followed, created or overwritten.
@Suite struct EndToEndPlantedCacheTests {
    static let template = ["-a", "plain", "-t", "{5h.left}%"]

    /// The harness with the cache directory made, and a file outside it for links to point at.
    final class Planted {
        let e: EndToEnd
        let paths: Paths
        let victim: String
        init() throws {
            e = try EndToEnd()
            paths = e.sandbox.paths
            victim = e.sandbox.root + "/victim"
            try FileSystem.makeDirectory(paths.cacheDir, mode: 0o700)
            try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
        }
        var victimText: String? { try? String(contentsOfFile: victim, encoding: .utf8) }

        /// The `cache:` line of `doctor` (which does not fetch).
        func doctorCacheLine() throws -> String {
            let run = try e.runBounded(["doctor"])
            #expect(!run.timedOut && !run.crashed)
            return run.stdout.split(separator: "\n").first { $0.contains(" cache: ") }.map(String.init) ?? run.stdout
        }

        /// A render that must return promptly: the first run waits at most 2 s for its fetch.
        func render() throws -> BoundedRun {
            let run = try e.runBounded(EndToEndPlantedCacheTests.template, seconds: 8)
            #expect(!run.timedOut, "a render hung")
            #expect(run.seconds < 5)
            return run
        }

        /// A prompt render returns promptly, the fetch it started replaces what was planted,
        /// and the next render shows the fetched numbers (63 % used: 37 % left).
        func renderRecovers() throws {
            let first = try render()
            #expect(first.stdout != "1%\n", "read the planted file's numbers")
            #expect(Eventually.within(10) { CacheStore(paths: paths).load()?.reading?.window(key: "five_hour")?.used == 63 })
            #expect(try render().stdout == "37%\n")
        }

        func isRegularFile(_ path: String) -> Bool {
            var info = stat()
            return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        }
    }

    @Test func aFIFOAsTheCacheFile() throws {
        let p = try Planted()
        #expect(mkfifo(p.paths.cacheFile, 0o666) == 0)
        let line = try p.doctorCacheLine()
        #expect(line.hasPrefix("FAIL cache: \(p.paths.cacheFile) is a fifo, not a regular file (treated as empty"))
        try p.renderRecovers()
        #expect(p.isRegularFile(p.paths.cacheFile))
    }

    @Test func aFIFOAsTheLockFiles() throws {
        let p = try Planted()
        try p.e.seedCache(fiveHour: 50, age: 600)  // due: the render asks whether a fetch runs
        for lock in [p.paths.fetchLockFile, p.paths.cacheLockFile] { #expect(mkfifo(lock, 0o666) == 0) }
        let line = try p.doctorCacheLine()
        #expect(line.hasPrefix("FAIL cache: "))
        #expect(line.contains("; \(p.paths.cacheLockFile) is a fifo, not a regular file (the next fetch replaces it)"))
        #expect(line.contains("; \(p.paths.fetchLockFile) is a fifo, not a regular file (the next fetch replaces it)"))
        #expect(try p.render().stdout == "50%\n")
        // The fetch it started replaced both and landed.
        #expect(Eventually.within(5) { CacheStore(paths: p.paths).load()?.reading?.window(key: "five_hour")?.used == 63 })
        #expect(p.isRegularFile(p.paths.fetchLockFile) && p.isRegularFile(p.paths.cacheLockFile))
        #expect(try p.doctorCacheLine().hasPrefix("ok   cache: "))
    }

    @Test func aSymlinkAsTheCacheFileIsNotReadNorWrittenThrough() throws {
        let p = try Planted()
        // The link's target holds a cache saying 99 % used: following it would show 1 %.
        var planted = CacheFile(account: p.paths.accountSource, reading: Reading(
            windows: [UsageWindow(key: "five_hour", used: 99, resetsAt: Date().addingTimeInterval(3600), observedAt: Date())],
            fetchedAt: Date(), source: .api))
        planted.fetch.recordSuccess(at: Date())
        try planted.encoded().write(to: URL(fileURLWithPath: p.victim))
        let before = try Data(contentsOf: URL(fileURLWithPath: p.victim))
        #expect(symlink(p.victim, p.paths.cacheFile) == 0)
        #expect(try p.doctorCacheLine().hasPrefix("FAIL cache: \(p.paths.cacheFile) is a symbolic link, not a regular file"))
        try p.renderRecovers()
        #expect(try Data(contentsOf: URL(fileURLWithPath: p.victim)) == before)
        #expect(p.isRegularFile(p.paths.cacheFile))
    }

    @Test func symlinksAsTheLockFilesNeverCreateOrTouchTheirTargets() throws {
        let p = try Planted()
        let nowhere = p.e.sandbox.root + "/created-by-elbowroom"
        #expect(symlink(nowhere, p.paths.fetchLockFile) == 0)
        #expect(symlink(p.victim, p.paths.cacheLockFile) == 0)
        #expect(try p.doctorCacheLine().contains("\(p.paths.fetchLockFile) is a symbolic link, not a regular file"))
        try p.renderRecovers()
        #expect(!FileManager.default.fileExists(atPath: nowhere))
        #expect(p.victimText == "precious\n")
    }

    @Test func aCacheDirectoryWritableByOthersIsRepairedAndDoctorSaysSo() throws {
        let p = try Planted()
        chmod(p.paths.cacheDir, 0o777)
        let line = try p.doctorCacheLine()
        #expect(line == "ok   cache: \(p.paths.cacheFile) (none yet; the first render fetches); \(p.paths.cacheDir) was mode 777, writable by others; repaired to 700")
        #expect(FileSystem.mode(of: p.paths.cacheDir) == 0o700)
        chmod(p.paths.cacheDir, 0o777)
        try p.renderRecovers()
        #expect(FileSystem.mode(of: p.paths.cacheDir) == 0o700, "the fetcher repaired it before writing")
    }

    @Test(.enabled(if: geteuid() == 0)) func aCacheDirectoryOwnedByAnotherUserIsRefusedVisibly() throws {
        let p = try Planted()
        try p.e.seedCache(fiveHour: 50, age: 5)
        #expect(chown(p.paths.cacheDir, 65534, 65534) == 0)
        let why = "cannot use the cache directory: \(p.paths.cacheDir) is owned by uid 65534, not by you (uid 0): elbowroom will not use it; remove it or change its owner"
        #expect(try p.doctorCacheLine() == "FAIL cache: " + why)
        let probes = p.e.usageRequests  // doctor's probe
        let run = try p.render()
        #expect(run.status == 2 && run.stdout.isEmpty, "plain text shows errors on stderr only")
        #expect(run.stderr == "elbowroom: \(why)\n")
        let waybar = try p.e.runBounded(["-a", "waybar"])
        #expect(waybar.stdout == #"{"text":"⚠ elbowroom","tooltip":"cannot use the cache directory (see elbowroom doctor)","class":"error"}"# + "\n")
        #expect(waybar.status == 0)
        usleep(500_000)
        #expect(p.e.usageRequests == probes, "no fetch is started for a directory that cannot take its result")
    }

    @Test func aHugeSparseCacheFileIsAMissPromptly() throws {
        let p = try Planted()
        let fd = open(p.paths.cacheFile, O_WRONLY | O_CREAT, 0o600)
        #expect(ftruncate(fd, 100 << 20) == 0)
        close(fd)
        #expect(try p.doctorCacheLine().hasPrefix("FAIL cache: \(p.paths.cacheFile) is 104857600 bytes, more than the 1048576 it may hold"))
        try p.renderRecovers()
    }

    @Test(arguments: [("", "is empty"), (#"{"version":1,"acc"#, "is corrupt, truncated or of another version")])
    func anEmptyOrTruncatedCacheFile(contents: String, says: String) throws {
        let p = try Planted()
        try contents.write(toFile: p.paths.cacheFile, atomically: false, encoding: .utf8)
        #expect(try p.doctorCacheLine().hasPrefix("FAIL cache: \(p.paths.cacheFile) \(says) (treated as empty"))
        try p.renderRecovers()
    }

    @Test(.enabled(if: geteuid() == 0)) func aCacheFileOwnedByAnotherUserIsNotTrusted() throws {
        let p = try Planted()
        try p.e.seedCache(fiveHour: 99, age: 5)
        #expect(chown(p.paths.cacheFile, 65534, 65534) == 0)
        #expect(try p.doctorCacheLine().hasPrefix("FAIL cache: \(p.paths.cacheFile) is owned by uid 65534, not by you (uid 0)"))
        try p.renderRecovers()
    }
}
