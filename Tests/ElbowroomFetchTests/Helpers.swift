import Foundation
import Testing
import ElbowroomCore
@testable import ElbowroomFetch
import ElbowroomTestSupport

/// Tokens used across the tests; long and distinctive so "never appears" checks mean something.
enum Tokens {
    static let access = "sk-ant-oat01-stored-access-token-AAAAAAAAAAAAAAAA"
    static let refresh = "sk-ant-ort01-stored-refresh-token-RRRRRRRRRRRRRRRR"
}

/// A transport that records every request it is asked to send and can run a hook first.
final class SpyTransport: HTTPTransport, @unchecked Sendable {
    let inner: any HTTPTransport
    private let lock = NSLock()
    private var sent: [HTTPRequest] = []
    var beforeSend: (@Sendable (HTTPRequest) -> Void)?

    init(inner: any HTTPTransport = PlatformTransport.make()) {
        self.inner = inner
    }

    var requests: [HTTPRequest] {
        lock.lock()
        defer { lock.unlock() }
        return sent
    }

    func send(_ request: HTTPRequest) throws(TransportError) -> HTTPResponse {
        lock.lock()
        sent.append(request)
        let hook = beforeSend
        lock.unlock()
        hook?(request)
        return try inner.send(request)
    }
}

/// One sandbox + loopback server + fake endpoints, wired into a `FetchContext`.
final class FetchHarness: @unchecked Sendable {
    let sandbox: Sandbox
    let fake: FakeAnthropic
    let server: LoopbackHTTPServer
    let clock = FixedClock(Date())
    let transport = SpyTransport()
    var detector: any ClaudeProcessDetector = FixedClaudeProcessDetector(running: false)
    var logLines: [String] { logBox.lines }
    private let logBox = LogBox()

    init(validAccess: String = Tokens.access, validRefresh: String = Tokens.refresh) throws {
        sandbox = try Sandbox()
        fake = FakeAnthropic(validAccessToken: validAccess, validRefreshToken: validRefresh)
        server = try LoopbackHTTPServer(handler: fake.handler)
        sandbox.extra = ["ELBOWROOM_API_URL": server.baseURL,
                         "ELBOWROOM_TOKEN_URL": server.baseURL + FakeAnthropic.tokenPath]
    }

    deinit {
        server.stop()
        sandbox.cleanup()
    }

    var context: FetchContext {
        let box = logBox
        return FetchContext(environment: sandbox.elbowroomEnvironment, transport: transport,
                            credentialSourceKind: .file, detector: detector, clock: clock.function,
                            log: DebugLog(enabled: true, sink: { box.append($0) }))
    }

    func run(_ urgency: FetchUrgency = .now) -> FetchReport {
        FetchCoordinator(context: context).run(urgency: urgency)
    }

    var usageRequests: [RecordedRequest] { server.requests(path: FakeAnthropic.usagePath) }
    var tokenRequests: [RecordedRequest] { server.requests(path: FakeAnthropic.tokenPath) }

    /// Credentials that expired a minute ago / expire in eight hours.
    var expired: Date { clock.now.addingTimeInterval(-60) }
    var valid: Date { clock.now.addingTimeInterval(8 * 3600) }

    /// The sandbox's login with `Tokens`, expired a minute ago: where a refresh starts. Returns
    /// the file's bytes.
    @discardableResult
    func writeExpiredLogin() throws -> Data {
        try sandbox.writeCredentials(accessToken: Tokens.access, refreshToken: Tokens.refresh, expiresAt: expired)
    }

    /// That login as read: what a renewal is asked to renew.
    var staleLogin: OAuthCredentials {
        OAuthCredentials(accessToken: Tokens.access, refreshToken: Tokens.refresh, expiresAt: expired)
    }

    /// Claude Code's locks in the sandbox, with its refresh lock held (its directory made), as
    /// while Claude Code refreshes.
    func claudeCodeHoldsItsRefreshLock() throws -> ClaudeCodeStorage {
        let storage = ClaudeCodeStorage(environment: sandbox.elbowroomEnvironment)
        try FileManager.default.createDirectory(atPath: storage.refreshLock, withIntermediateDirectories: false)
        return storage
    }
}

final class LogBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func append(_ line: String) { lock.lock(); stored.append(line); lock.unlock() }
    var lines: [String] { lock.lock(); defer { lock.unlock() }; return stored }
}

extension FetchReport.Result {
    var failure: FetchError? {
        if case .failed(let error) = self { return error }
        return nil
    }
}

extension Sandbox {
    /// The `claudeAiOauth` object of the credentials file.
    var oauthObject: [String: Any]? { credentialsObject()?["claudeAiOauth"] as? [String: Any] }

    /// Every file and directory under the sandbox, relative to its root.
    func allPaths() -> Set<String> {
        var paths = Set<String>()
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String { paths.insert(path) }
        return paths
    }
}

/// Makes a directory refuse new entries — for root too, which ignores permission bits: `chattr +i`
/// as root, `chmod 0500` otherwise. Checks that it worked (a test that believes a directory is
/// read-only when it is not would prove nothing) and returns the undo.
enum UnwritableDirectory {
    /// Whether this machine can do it: root needs `chattr` and a file system with the immutable
    /// flag (ext4, xfs, btrfs; not tmpfs or overlayfs). Tests that need it are skipped otherwise.
    static let isAvailable: Bool = {
        guard let sandbox = try? Sandbox() else { return false }
        defer { sandbox.cleanup() }
        guard let undo = try? make(sandbox.home) else { return false }
        undo()
        return true
    }()

    static func make(_ dir: String) throws -> @Sendable () -> Void {
        let undo: @Sendable () -> Void
        if geteuid() == 0 {
            try chattr("+i", dir)
            undo = { try? chattr("-i", dir) }
        } else {
            chmod(dir, 0o500)
            undo = { chmod(dir, 0o700) }
        }
        let probe = dir + "/.unwritable-check"
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        if fd >= 0 {
            close(fd)
            unlink(probe)
            undo()
            throw Failure(description: "cannot make \(dir) unwritable here (no chattr +i on this file system?)")
        }
        return undo
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    static func chattr(_ flag: String, _ path: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        process.arguments = [flag, path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(description: "chattr \(flag) \(path) failed") }
    }
}

/// A value shared with a `@Sendable` hook.
final class LockedBox<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T
    init(_ value: T) { stored = value }
    var value: T {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
