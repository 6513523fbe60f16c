#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import ElbowroomCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Claude Code's refresh locks, taken as Claude Code takes them (CLAUDE-CODE.md, "The lock
/// protocol"): `D/.oauth_refresh.lock`, then the legacy `realpath(D).lock` older versions take,
/// each a directory, stale after 60 s, touched every 5 s while held, released in the reverse
/// order. While elbowroom holds them a running Claude Code sends no token request of its own and
/// adopts the tokens we write; while Claude Code holds them, we send none.
public final class ClaudeCodeRefreshLock: @unchecked Sendable {
    public static let staleAfter = ClaudeCodeStorage.refreshLockStaleAfter
    public static let touchEvery: TimeInterval = 5

    public let locks: [DirectoryLock]
    private var held: [DirectoryLock] = []
    private var toucher: Toucher?
    private let stop = DispatchSemaphore(value: 0)

    public init(storage: ClaudeCodeStorage) {
        locks = [DirectoryLock(path: storage.refreshLock, staleAfter: Self.staleAfter),
                 DirectoryLock(path: storage.legacyLock(), staleAfter: Self.staleAfter)]
    }

    public enum Outcome: Equatable, Sendable {
        case acquired
        /// `path` is held by someone else, last touched at `since`.
        case busy(path: String, since: Date?)
        case unavailable(String)
        /// `path` is stale but cannot be taken over (`DirectoryLock.Attempt.stuck`): `why`.
        case stuck(path: String, why: String)
    }

    /// Takes both locks or neither.
    public func acquire(now: Date) -> Outcome {
        precondition(held.isEmpty, "acquire twice")
        for lock in locks {
            switch lock.tryAcquire(now: now) {
            case .acquired:
                held.append(lock)
            case .busy(let since):
                release()
                return .busy(path: lock.path, since: since)
            case .unavailable(let why):
                release()
                return .unavailable(why)
            case .stuck(let why):
                release()
                return .stuck(path: lock.path, why: why)
            }
        }
        startTouching()
        return .acquired
    }

    /// Releases in Claude Code's order: the legacy lock, then the refresh lock.
    public func release() {
        if let toucher {
            if toucher.started { stop.signal() }
            toucher.join()
            self.toucher = nil
        }
        for lock in held.reversed() { lock.release() }
        held = []
    }

    deinit { release() }

    /// A thread that touches the held locks every 5 s. It is born with termination signals
    /// blocked (a thread inherits its creator's mask, and it is created inside
    /// `TerminationSignals.held`): they belong to the thread that refreshes, which holds them
    /// back until the tokens are saved, and a thread that did not block them would take them
    /// instead, even in the moment before it could block them itself.
    private func startTouching() {
        let locks = held
        let stop = self.stop
        toucher = TerminationSignals.held { Toucher {
            var set = TerminationSignals.signals
            pthread_sigmask(SIG_BLOCK, &set, nil)
            while stop.wait(timeout: .now() + ClaudeCodeRefreshLock.touchEvery) == .timedOut {
                for lock in locks { lock.touch() }
            }
        } }
    }

    /// One POSIX thread running `body`, joined when it is over (Foundation's `Thread` without
    /// Foundation). If no thread can be started, `body` does not run: the locks then go
    /// untouched, and are stale after 60 s, as they would be had we died.
    private final class Toucher {
        #if canImport(Glibc)
        private var thread = pthread_t()
        #else
        private var thread: pthread_t?
        #endif
        let started: Bool

        init(_ body: @escaping @Sendable () -> Void) {
            let box = Unmanaged.passRetained(Box(body)).toOpaque()
            started = pthread_create(&thread, nil, { context in
                #if canImport(Glibc)
                let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
                #else
                let box = Unmanaged<Box>.fromOpaque(context).takeRetainedValue()
                #endif
                box.body()
                return nil
            }, box) == 0
            if !started { Unmanaged<Box>.fromOpaque(box).release() }
        }

        func join() {
            guard started else { return }
            #if canImport(Glibc)
            pthread_join(thread, nil)
            #else
            if let thread { pthread_join(thread, nil) }
            #endif
        }

        private final class Box {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
    }
}

/// Claude Code's write lock, `D/.storage-write.lock`, held around the compare-and-swap write of
/// the credentials: stale after 15 s, retried up to 10 times 0.1–1 s apart.
public enum StorageWriteLock {
    public static let staleAfter: TimeInterval = 15

    /// Runs `body` with the lock held. When it stays busy past its retries the write goes ahead
    /// anyway: the refresh token was already spent, and not saving the new one would sign the
    /// user out; the compare-and-swap inside still keeps another writer's newer tokens.
    public static func with<T>(storage: ClaudeCodeStorage, log: (String) -> Void,
                               _ body: () throws -> T) rethrows -> T {
        let lock = DirectoryLock(path: storage.writeLock, staleAfter: staleAfter)
        var taken = false
        for attempt in 0..<10 {
            switch lock.tryAcquire(now: Date()) {
            case .acquired:
                taken = true
            case .busy:
                usleep(useconds_t(min(100_000 * (attempt + 1), 1_000_000)))
                continue
            case .unavailable(let why):
                log("cannot take the write lock (\(why)); writing without it")
            case .stuck(let why):
                log("the write lock \(storage.writeLock) is stuck (stale, but \(why)); writing with the compare-and-swap alone")
            }
            break
        }
        if !taken { log("the write lock \(storage.writeLock) stayed busy; writing with the compare-and-swap alone") }
        defer { if taken { lock.release() } }
        return try body()
    }
}
