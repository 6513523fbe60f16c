// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// Every seam between the renderer and the outside world, so each command is testable in-process
/// without the real HOME, clock, terminal or child processes.
public struct CLIContext: Sendable {
    public var environment: ElbowroomEnvironment {
        get { storedEnvironment }
        set {
            storedEnvironment = newValue
            paths = Paths(environment: newValue)
        }
    }
    private var storedEnvironment: ElbowroomEnvironment
    /// Derived from `environment` once (it hashes the Claude config dir), not on every use.
    public private(set) var paths: Paths
    /// The `[accounts.NAME]` this context is for (`ELBOWROOM_ACCOUNT`, read when asked: a
    /// render of one account never looks).
    public var accountName: String? { AccountIdentity.accountName(in: environment) }
    public var now: @Sendable () -> Date
    public var stdout: any OutputSink
    public var stderr: any OutputSink
    /// Reads all of stdin (bounded), or `nil` when stdin is a terminal or closed.
    public var readStdin: @Sendable () -> Data?
    /// The descriptor `watch` reads click events from as they come: stdin.
    public var stdinFD: Int32 = 0
    public var stdoutIsTTY: Bool
    public var spawner: any ProcessSpawner
    /// How to start the fetcher; `nil` when it cannot be found. Looked up when asked: a render
    /// that starts no fetch (`--offline`, or nothing due) never searches for it.
    public var fetcher: FetcherProgram? {
        get { locateFetcher() }
        set { locateFetcher = { newValue } }
    }
    /// (Internal, so tests can count look-ups.)
    var locateFetcher: @Sendable () -> FetcherProgram?
    /// Finds `elbowroom-http` (`HTTPHelper.locate`) for `doctor` to check; `nil` where the
    /// fetcher needs no helper (Apple platforms) and in tests that do not ask.
    public var locateHTTPHelper: (@Sendable () -> String?)? = nil
    /// This program's own path (`/proc/self/exe`), for `init` and `doctor`; `nil` when unknown.
    public var ownExecutable: @Sendable () -> String? = { nil }
    /// Sleeps (for the bounded first-run wait); tests pass one that only advances their clock.
    public var sleep: @Sendable (TimeInterval) -> Void
    /// Ends the process once a one-shot render has written its output: the real process exits
    /// there, leaving its templates, view and history to the kernel instead of freeing them one
    /// by one (~0.1 M instructions of a waybar render). `nil` in tests, which run in-process.
    public var endProcess: (@Sendable (Int32) -> Never)?

    public init(environment: ElbowroomEnvironment, now: @escaping @Sendable () -> Date,
                stdout: any OutputSink, stderr: any OutputSink,
                readStdin: @escaping @Sendable () -> Data? = { nil }, stdoutIsTTY: Bool = false,
                spawner: any ProcessSpawner = PosixSpawner(), fetcher: FetcherProgram? = nil,
                sleep: @escaping @Sendable (TimeInterval) -> Void = { usleep(UInt32($0 * 1_000_000)) }) {
        self.storedEnvironment = environment
        self.paths = Paths(environment: environment)
        self.now = now
        self.stdout = stdout
        self.stderr = stderr
        self.readStdin = readStdin
        self.stdoutIsTTY = stdoutIsTTY
        self.spawner = spawner
        self.locateFetcher = { fetcher }
        self.sleep = sleep
    }

    /// This context for one account: its variables laid over the environment, its paths
    /// derived from them (sharing this context's config and cache directories).
    func selecting(_ account: Account) -> CLIContext {
        var context = self
        context.storedEnvironment = account.environment(over: environment)
        context.paths = Paths(account: context.storedEnvironment, sharing: paths)
        return context
    }

    /// The real process: environment, clock (`ELBOWROOM_NOW` sets it), file descriptors 0/1/2.
    public static func live() -> CLIContext {
        let environment = ElbowroomEnvironment.current
        let clock = ProcessClock.make(environment: environment)
        if let warning = clock.warning { FileDescriptorSink(fd: 2).write("elbowroom: \(warning)\n") }
        var context = CLIContext(
            environment: environment, now: clock.now,
            stdout: FileDescriptorSink(fd: 1), stderr: FileDescriptorSink(fd: 2),
            readStdin: { isatty(0) == 1 ? nil : FileDescriptorSink.readAll(fd: 0, limit: 1 << 20) },
            stdoutIsTTY: isatty(1) == 1, spawner: PosixSpawner())
        context.locateFetcher = { FetcherLocator.locate(environment: environment) }
        context.ownExecutable = { FileSystem.ownExecutablePath() }
        #if os(Linux)
        context.locateHTTPHelper = { HTTPHelper.locate() }
        #endif
        context.endProcess = { exit($0) }
        return context
    }
}
