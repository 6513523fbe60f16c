import Foundation
import Testing
@testable import ElbowroomCLI

/// `tray` and `guard --until` sleep on one watch of the cache directories (`CacheDirectoryWatch`):
/// a real directory, real files, real inotify.
@Suite struct CacheDirectoryWatchTests {
    private func directory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cachewatch-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func save(_ path: String) throws {
        try Data("{}".utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    @Test func aCacheFileWakesItAndAnotherFileDoesNot() throws {
        #if os(Linux)
        let dir = try directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let watch = CacheDirectoryWatch(directories: [dir, dir], names: ["cache.json"])
        #expect(watch.isWatching)
        try save(dir + "/cache.lock")
        #expect(watch.wait(seconds: 0.2) == .timeout)
        try save(dir + "/cache.json")
        #expect(watch.wait(seconds: 5) == .cacheChanged)
        // Everything was read: nothing is left to wake it.
        #expect(watch.wait(seconds: 0.05) == .timeout)
        #endif
    }

    @Test func withoutNamesEveryFileWakesIt() throws {
        #if os(Linux)
        let dir = try directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let watch = CacheDirectoryWatch(directories: [dir])
        try save(dir + "/anything")
        #expect(watch.wait(seconds: 5) == .cacheChanged)
        #endif
    }

    @Test func theOtherDescriptorWakesItFirst() throws {
        #if os(Linux)
        let dir = try directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let watch = CacheDirectoryWatch(directories: [dir], names: ["cache.json"])
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        #expect(watch.wait(seconds: 0.05, alsoOn: fds[0]) == .timeout)
        var byte: UInt8 = 1
        #expect(write(fds[1], &byte, 1) == 1)
        #expect(watch.wait(seconds: 5, alsoOn: fds[0]) == .other)
        #endif
    }

    @Test func aDirectoryMadeLaterIsWatchedOnceItExists() throws {
        #if os(Linux)
        let parent = try directory()
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let dir = parent + "/later"
        let watch = CacheDirectoryWatch(directories: [dir], names: ["cache.json"])
        #expect(watch.fd != nil)
        #expect(!watch.isWatching)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        // The next look (a drain, or a wait that timed out) adds it.
        #expect(watch.wait(seconds: 0.01) == .timeout)
        #expect(watch.isWatching)
        try save(dir + "/cache.json")
        #expect(watch.wait(seconds: 5) == .cacheChanged)
        #endif
    }
}
