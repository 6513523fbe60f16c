// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CSystem

/// `posix_spawn`, and for detached children a session of their own (fork + exec on Linux,
/// `POSIX_SPAWN_SETSID` elsewhere): the fetcher survives the prompt that started it and no
/// terminal signal reaches it. Long-running callers (`watch`) reap finished
/// children with `reapFinishedChildren()`.
public struct PosixSpawner: ProcessSpawner {
    public init() {}

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public func spawnDetached(path: String, arguments: [String], environment: [String: String]) throws {
        try spawnDetached(path: path, arguments: arguments, environmentEntries: environment.map { $0.key + "=" + $0.value })
    }

    /// The same, with the environment as `NAME=value` entries.
    public func spawnDetached(path: String, arguments: [String], environmentEntries: [String]) throws {
        try CStringArray.with(environmentEntries) { try startDetached(path: path, arguments: arguments, environment: $0) }
    }

    public func spawnDetached(path: String, arguments: [String], childOf environment: ElbowroomEnvironment) throws {
        try environment.withChildEnvironment { try startDetached(path: path, arguments: arguments, environment: $0) }
    }

    /// Linux: `forkDetached`. Elsewhere: `posix_spawn` with `POSIX_SPAWN_SETSID`.
    private func startDetached(path: String, arguments: [String],
                               environment envp: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) throws {
        #if os(Linux)
        try forkDetached(path: path, arguments: arguments, environment: envp)
        #else
        _ = try spawn(path: path, arguments: arguments, environment: envp, detached: true, stdinFD: nil, stdoutFD: nil)
        #endif
    }

    #if os(Linux)
    /// A detached start that does not wait for the child's `execve`: `posix_spawn` is a vfork,
    /// and the caller stays suspended until the kernel has loaded the new program (0.4–0.5 ms of
    /// a render with a refresh due, on this project's build machine). A plain fork of this
    /// single-threaded process returns as soon as the child exists; the child then does what
    /// `spawn(detached:)` asks of posix_spawn — its own session, stdio on /dev/null, no other
    /// inherited descriptor, an empty signal mask, every signal at its default — with C calls
    /// only, and execs. The parent prepares only argv and a few constants: the child finds the
    /// descriptors to close itself, so that work is off the prompt's path. An exec that fails ends the
    /// child with 127 (the caller checked the file is executable; the next render tries again).
    private func forkDetached(path: String, arguments: [String],
                              environment envp: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) throws {
        // Everything the child uses is made here, before the fork: between fork and exec the
        // child may only make C calls. A Swift allocation, or metadata the runtime builds on
        // first use (a debug build does for generic calls), could wait forever on a lock another
        // thread of the parent held at the fork (the renderer has one thread; tests have many).
        let devNull = Self.cPath("/dev/null")
        let root = Self.cPath("/")
        let fdDirectory = Self.cPath("/proc/self/fd")
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        try CStringArray.with([path] + arguments) { argv in
            let pid = fork()
            if pid < 0 {
                throw Failure(description: "cannot start \(path): \(String(cString: strerror(errno)))")
            }
            if pid > 0 { return }
            // The child. It starts from `/`: it holds no directory of the caller's busy (an
            // unmount, a deleted checkout), and nothing it might leave lands in a prompt's directory.
            _ = Glibc.setsid()
            _ = chdir(root)
            let input = open(devNull, O_RDONLY)
            let output = open(devNull, O_WRONLY)
            if input >= 0 { _ = dup2(input, 0) }
            if output >= 0 {
                _ = dup2(output, 1)
                _ = dup2(output, 2)
            }
            // Closed here too, for when there is no /proc to list them.
            if input > 2 { _ = close(input) }
            if output > 2 { _ = close(output) }
            Self.closeDescriptorsAbove2(listedIn: fdDirectory, nameOffset: nameOffset)
            var sig: Int32 = 1  // (a while loop: a range's iterator is generic)
            while sig < 65 {
                if sig != SIGKILL && sig != SIGSTOP { _ = signal(sig, SIG_DFL) }
                sig += 1
            }
            var none = sigset_t()
            sigemptyset(&none)
            _ = sigprocmask(SIG_SETMASK, &none, nil)
            execve(argv[0]!, argv, envp)
            _exit(127)
        }
    }

    /// In a forked child: closes every descriptor but 0, 1 and 2, as `fdDirectory`
    /// (`/proc/self/fd`) lists them; without /proc, none is closed. C calls only: each entry's
    /// name is read at `nameOffset` (`dirent.d_name`, worked out before the fork).
    private static func closeDescriptorsAbove2(listedIn fdDirectory: UnsafePointer<CChar>, nameOffset: Int) {
        guard let directory = opendir(fdDirectory) else { return }
        let own = dirfd(directory)
        while let entry = readdir(directory) {
            let fd = atoi(UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: CChar.self))
            if fd > 2 && fd != own { _ = close(fd) }
        }
        closedir(directory)
    }

    /// A path literal as a C string in the binary's constant data: nothing allocated to use it.
    private static func cPath(_ path: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(path.utf8Start).assumingMemoryBound(to: CChar.self)
    }
    #endif

    /// The deadline covers the child's whole life, not just its stdout: a child that closes
    /// stdout and lingers, or leaves a descendant holding it open, is killed — with its whole
    /// process group (it runs in a group of its own) — when `timeout` passes, and `run` throws
    /// `TimedOut`.
    public func run(path: String, arguments: [String], environment: [String: String], stdin: Data,
                    timeout: TimeInterval) throws -> (status: Int32, stdout: Data) {
        try run(path: path, arguments: arguments, environment: environment, stdin: stdin, timeout: timeout, errorsToo: false)
    }

    /// `run`, with the child's stderr in the same pipe as its stdout.
    public func runCollectingErrors(path: String, arguments: [String], environment: [String: String], stdin: Data,
                                    timeout: TimeInterval) throws -> (status: Int32, output: Data) {
        let result = try run(path: path, arguments: arguments, environment: environment, stdin: stdin, timeout: timeout, errorsToo: true)
        return (result.status, result.stdout)
    }

    private func run(path: String, arguments: [String], environment: [String: String], stdin: Data,
                     timeout: TimeInterval, errorsToo: Bool) throws -> (status: Int32, stdout: Data) {
        var inPipe: [Int32] = [0, 0]
        var outPipe: [Int32] = [0, 0]
        guard Self.closeOnExecPipe(&inPipe), Self.closeOnExecPipe(&outPipe) else {
            throw Failure(description: "cannot create a pipe")
        }
        let pid: pid_t
        do {
            pid = try CStringArray.with(environment.map { $0.key + "=" + $0.value }) {
                try spawn(path: path, arguments: arguments, environment: $0, detached: false,
                          stdinFD: inPipe[0], stdoutFD: outPipe[1], errorsToStdout: errorsToo)
            }
        } catch {
            [inPipe[0], inPipe[1], outPipe[0], outPipe[1]].forEach { close($0) }
            throw error
        }
        close(inPipe[0])
        close(outPipe[1])
        // One poll loop feeds stdin and drains stdout, so a child that prints before it reads
        // cannot deadlock us; a child that ignores stdin just closes the pipe (SIGPIPE ignored).
        signal(SIGPIPE, SIG_IGN)
        var writeFD: Int32 = inPipe[1]
        var written = 0
        if stdin.isEmpty { close(writeFD); writeFD = -1 }
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: 8192)
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        while true {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 {
                timedOut = true
                break
            }
            var fds = [pollfd(fd: outPipe[0], events: Int16(POLLIN), revents: 0),
                       pollfd(fd: writeFD, events: Int16(POLLOUT), revents: 0)]
            let ready = poll(&fds, writeFD >= 0 ? 2 : 1, Int32(min(remaining, 1) * 1000) + 1)
            if ready < 0 && errno != EINTR { break }
            if ready <= 0 { continue }
            if writeFD >= 0 && fds[1].revents != 0 {
                let n = stdin.withUnsafeBytes { raw in
                    write(writeFD, raw.baseAddress! + written, min(raw.count - written, 4096))
                }
                if n > 0 { written += n }
                if n < 0 && errno != EINTR && errno != EAGAIN || written >= stdin.count {
                    close(writeFD)
                    writeFD = -1
                }
            }
            if fds[0].revents != 0 {
                let n = buffer.withUnsafeMutableBytes { read(outPipe[0], $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                if output.count < 4 << 20 { output.append(contentsOf: buffer[0..<n]) }
            }
        }
        if writeFD >= 0 { close(writeFD) }
        close(outPipe[0])
        // Stdout is done; the child may not be. Wait for its exit within what is left.
        var status: Int32 = 0
        if timedOut || !Self.waitForExit(pid, status: &status, until: deadline) {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            throw TimedOut(path: path, seconds: timeout)
        }
        let exited = (status & 0x7f) == 0
        return (exited ? (status >> 8) & 0xff : 128 + (status & 0x7f), output)
    }

    /// A child that was still running when its time was up (it and its group were killed).
    public struct TimedOut: Error, CustomStringConvertible {
        public let path: String
        public let seconds: TimeInterval
        /// The limit as text: `2s`, `0.5s`.
        public var limit: String {
            let whole = seconds.rounded()
            return (abs(seconds - whole) < 1e-9 && abs(whole) < 1e9 ? "\(Int(whole))" : "\(seconds)") + "s"
        }
        public var description: String { "\(path) did not finish within \(limit)" }
    }

    /// Reaps `pid` if it exits before `deadline`; polls (waitpid has no timeout), quickly at
    /// first: most children exit right after closing stdout.
    static func waitForExit(_ pid: pid_t, status: inout Int32, until deadline: Date) -> Bool {
        var pause: UInt32 = 100
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { return true }
            if result < 0 && errno != EINTR { return true }  // not our child any more: nothing to wait for
            if deadline.timeIntervalSinceNow <= 0 { return false }
            usleep(pause)
            pause = min(pause * 2, 10_000)
        }
    }

    /// A pipe whose ends do not leak into children: the child gets only the dup2'd copies on
    /// 0 and 1. Otherwise it would inherit the write end of its own stdin and never see EOF.
    static func closeOnExecPipe(_ fds: inout [Int32]) -> Bool {
        // (Glibc does not import pipe2.)
        guard pipe(&fds) == 0 else { return false }
        fds.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) }
        return true
    }

    /// Collects exit statuses of finished children so none stays a zombie.
    public static func reapFinishedChildren() {
        var status: Int32 = 0
        while waitpid(-1, &status, WNOHANG) > 0 {}
    }

    /// `detached` is for platforms without `forkDetached` (Linux never asks for it here).
    private func spawn(path: String, arguments: [String],
                       environment envp: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
                       detached: Bool, stdinFD: Int32?, stdoutFD: Int32?, errorsToStdout: Bool = false) throws -> pid_t {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        if let stdinFD {
            posix_spawn_file_actions_adddup2(&actions, stdinFD, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if let stdoutFD {
            posix_spawn_file_actions_adddup2(&actions, stdoutFD, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        if errorsToStdout, let stdoutFD {
            posix_spawn_file_actions_adddup2(&actions, stdoutFD, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        // The child gets stdio and nothing else: a detached fetcher must not hold its caller's
        // pipes open (a bar or test reading our stdout to EOF would wait for the fetch).
        var flags: Int16 = Int16(POSIX_SPAWN_SETSIGMASK) | Int16(POSIX_SPAWN_SETSIGDEF)
        if detached {
            #if canImport(Darwin)
            flags |= Int16(POSIX_SPAWN_CLOEXEC_DEFAULT) | Int16(POSIX_SPAWN_SETSID)
            posix_spawn_file_actions_addchdir_np(&actions, "/")
            #endif
        } else {
            // And nothing else of ours: a descriptor opened without `O_CLOEXEC` (by Foundation,
            // or a thread of a test) is not the child's, nor its plugin's or helper's. (A file
            // being written that a child holds open cannot be run: "Text file busy".)
            #if canImport(Darwin)
            flags |= Int16(POSIX_SPAWN_CLOEXEC_DEFAULT)
            #else
            _ = withUnsafeMutablePointer(to: &actions) { elbowroom_spawn_close_from($0, 3) }
            #endif
            // A group of its own, so a timeout kills what it started too.
            flags |= Int16(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        posix_spawnattr_setflags(&attributes, flags)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)

        return try CStringArray.with([path] + arguments) { argv in
            var pid: pid_t = 0
            var rc = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
            // "Text file busy": the program is being written (a plugin reinstalled, or another
            // process's child still holds it open between fork and exec). It passes in moments.
            for _ in 0..<5 where rc == ETXTBSY {
                usleep(20_000)
                rc = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
            }
            guard rc == 0 else {
                throw Failure(description: "cannot start \(path): \(String(cString: strerror(rc)))")
            }
            return pid
        }
    }
}
