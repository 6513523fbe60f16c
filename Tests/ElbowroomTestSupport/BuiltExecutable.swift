import Foundation

/// Finds the package's built executables (`.build/debug/elbowroom`, …) from inside a test:
/// they sit next to the test bundle.
public enum BuiltExecutable {
    /// `elbowroom-fetch` is the built `elbowroom` started by that name (`fetcherLink`), as
    /// installed; any other name is a product of the build.
    public static func path(_ name: String) -> String? {
        name == "elbowroom-fetch" ? fetcherLink : product(name)
    }

    /// A link named `elbowroom-fetch` to the built `elbowroom`, as install.sh lays one beside it:
    /// made once per test process in `<build>/test-links/`. Not the build directory itself, where
    /// an `elbowroom-fetch` left by an older build (a program of its own then) would be found.
    public static let fetcherLink: String? = {
        guard let program = product("elbowroom") else { return nil }
        let directory = URL(fileURLWithPath: program).deletingLastPathComponent().appendingPathComponent("test-links")
        let link = directory.appendingPathComponent("elbowroom-fetch").path
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // Made under a name of its own and renamed over: test processes may run side by side.
        let temporary = link + ".\(getpid())"
        unlink(temporary)
        guard symlink("../elbowroom", temporary) == 0, rename(temporary, link) == 0 else { return nil }
        return link
    }()

    static func product(_ name: String) -> String? {
        var candidates: [String] = []
        // Linux: the test runner is `.build/<triple>/debug/<pkg>PackageTests.xctest` itself.
        let argv0 = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        candidates.append(argv0.deletingLastPathComponent().appendingPathComponent(name).path)
        // macOS: the bundle is `.build/debug/<pkg>PackageTests.xctest/Contents/MacOS/…`.
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(URL(fileURLWithPath: bundle.bundlePath).deletingLastPathComponent()
                .appendingPathComponent(name).path)
        }
        var dir = argv0.deletingLastPathComponent()
        for _ in 0..<5 {
            candidates.append(dir.appendingPathComponent(name).path)
            dir = dir.deletingLastPathComponent()
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The result of one run of a built executable.
    public struct Run: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Starts `path` with exactly `environment` (nothing inherited); returns the running process
    /// and a closure that waits and collects its output.
    public static func start(_ path: String, arguments: [String], environment: [String: String]) throws
        -> @Sendable () -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let box = UncheckedBox((process, out, err))
        return {
            let (process, out, err) = box.value
            let stdout = out.fileHandleForReading.readDataToEndOfFile()
            let stderr = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                       stderr: String(decoding: stderr, as: UTF8.self))
        }
    }

    public static func run(_ path: String, arguments: [String], environment: [String: String]) throws -> Run {
        try start(path, arguments: arguments, environment: environment)()
    }
}

final class UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
