import Foundation
import Testing
import ElbowroomTestSupport

/// The release program takes its arguments from the C library (Sources/CSystem/arguments.c: a
/// constructor keeps argc and argv, and `_swift_stdlib_getUnsafeArgvArgc` hands them to the
/// standard library) instead of the Swift runtime's search of /proc/self/maps. A static program
/// linked the same way (`elbowroom-arguments-probe`, static in every configuration) is started
/// with odd argv: `CommandLine.unsafeArgv` must be those very bytes, `CommandLine.arguments`
/// their strings, and the runtime's own search must not be in the program at all.
@Suite struct ArgumentsProbeTests {
    static var probe: String? { BuiltExecutable.path("elbowroom-arguments-probe") }

    /// Whether the program at `path` is linked statically (no program interpreter): only then
    /// does it use arguments.c's definition rather than the shared runtime's.
    static func isStatic(_ path: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: path), data.count > 64,
              data.prefix(4) == Data([0x7F, 0x45, 0x4C, 0x46]), data[4] == 2 else { return false }  // ELF, 64-bit
        let bytes = [UInt8](data.prefix(1 << 16))
        func integer(_ at: Int, _ size: Int) -> Int {
            (0..<size).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
        }
        let offset = integer(0x20, 8), size = integer(0x36, 2), count = integer(0x38, 2)
        guard offset + size * count <= bytes.count else { return false }
        // No PT_INTERP (3): nothing loads a shared runtime for it.
        return !(0..<count).contains { integer(offset + $0 * size, 4) == 3 }
    }

    /// Runs `program` with exactly `arguments` (argv[0] included) as raw bytes; its stdout.
    static func run(_ program: String, arguments: [[UInt8]]) throws -> String {
        var pipe: [Int32] = [0, 0]
        #expect(Foundation.pipe(&pipe) == 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipe[0])
        let strings = arguments.map { bytes -> UnsafeMutablePointer<CChar> in
            let p = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (i, b) in bytes.enumerated() { p[i] = CChar(bitPattern: b) }
            p[bytes.count] = 0
            return p
        }
        defer { strings.forEach { $0.deallocate() } }
        var argv: [UnsafeMutablePointer<CChar>?] = strings + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = [strdup("PATH=/usr/bin:/bin"), nil]
        defer { free(envp[0]) }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, program, &actions, nil, &argv, &envp)
        close(pipe[1])
        guard status == 0 else {
            close(pipe[0])
            throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EIO)
        }
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(pipe[0], &buffer, buffer.count)
            if n <= 0 { break }
            output.append(contentsOf: buffer[0..<n])
        }
        close(pipe[0])
        var waited: Int32 = 0
        waitpid(pid, &waited, 0)
        return String(decoding: output, as: UTF8.self)
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.isEmpty ? "-" : bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// What the probe should print for `arguments`.
    static func expected(_ arguments: [[UInt8]]) -> String {
        var lines = ["argc \(arguments.count) \(arguments.count) \(arguments.count)"]
        for (i, bytes) in arguments.enumerated() {
            // `arguments` decodes each as UTF-8, an ill-formed sequence becoming U+FFFD.
            let decoded = Array(String(decoding: bytes, as: UTF8.self).utf8)
            lines.append("\(i) \(hex(bytes)) \(hex(decoded)) \(hex(bytes))")
        }
        lines.append("end null")
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func commandLineArgumentsAreTheArgvTheProgramWasStartedWith() throws {
        guard let probe = Self.probe else {
            Issue.record("elbowroom-arguments-probe is not built (swift build --build-tests)")
            return
        }
        let cases: [[[UInt8]]] = [
            [Array(probe.utf8)],
            [Array(probe.utf8), []],
            [Array(probe.utf8), [], [], Array("x".utf8), []],
            [Array(probe.utf8), [0xFF, 0xFE], [0xC3], [0xE2, 0x82], [0x61, 0x80, 0x62], Array("é·↻👩‍👩‍👧".utf8)],
            [Array(probe.utf8), Array("-t".utf8), Array("{5h.left}%".utf8), Array(" spaces \t and\nnewlines ".utf8)],
            [Array("not-its-path".utf8), Array("--".utf8)],
            [Array(probe.utf8)] + (0..<3000).map { Array("argument-\($0)".utf8) },
            [Array(probe.utf8), [UInt8](repeating: 0x41, count: 100_000)],
        ]
        for arguments in cases {
            let output = try Self.run(probe, arguments: arguments)
            #expect(output == Self.expected(arguments), "argv of \(arguments.count): \(output.prefix(400))")
        }
    }

    /// Linked statically, the program has arguments.c's answer instead of the runtime's file
    /// (CommandLine.cpp and its `argvGrabber`, which read /proc/self/maps at every start).
    @Test func theRuntimesSearchIsNotLinkedIntoAStaticProgram() throws {
        guard let probe = Self.probe else {
            Issue.record("elbowroom-arguments-probe is not built (swift build --build-tests)")
            return
        }
        guard Self.isStatic(probe) else {
            print("SKIP: \(probe) is not a static program here; the shared runtime keeps its own search")
            return
        }
        let data = try #require(FileManager.default.contents(atPath: probe))
        #expect(data.range(of: Data("argvGrabber".utf8)) == nil, "the runtime's CommandLine.cpp is linked in")
        #expect(data.range(of: Data("elbowroom_keep_arguments".utf8)) != nil, "arguments.c is not linked in")
    }
}
