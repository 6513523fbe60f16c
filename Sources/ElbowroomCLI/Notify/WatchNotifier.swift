import ElbowroomCore

/// `watch --notify`: what `elbowroom notify` does, checked every tick against the cache `watch`
/// already holds (the lock is taken only when something may be due), and claimed and sent on a
/// thread of its own: a notifier may take `NotificationSender.timeout` per event, and neither a
/// frame nor a signal waits for it. One run at a time; a tick during a run checks nothing.
final class WatchNotifier: @unchecked Sendable {
    let notifier: Notifier
    private let lock = ThreadLock()
    private var running = false

    init?(_ invocation: Invocation, setup: RenderSetup, context: CLIContext, store: CacheStore) {
        guard invocation.notify, !invocation.demo else { return nil }
        notifier = Notifier(context: context, config: setup.config, store: store)
    }

    /// Whether a run is under way: its notifier is a child of ours, so `watch` must not reap
    /// children meanwhile (the sender waits for that one's status itself).
    var isSending: Bool { lock.withLock { running } }

    /// After a failed send (its claim given back), the next try waits this long: a bar ticks
    /// every second, and a missing notification daemon should not cost a process a second.
    static let retryAfterFailure: TimeInterval = 60
    private var quietUntil: Date?

    func tick(cache: CacheFile?, history: UsageHistory?, now: Date) {
        guard !isSending, now >= (quietUntilNow ?? now),
              notifier.mayBeDue(cache: cache, history: history, now: now) else { return }
        setRunning(true)
        let started = Self.start { [self] in
            let failures = notifier.run(now: now).failures
            for failure in failures {
                notifier.context.stderr.write("elbowroom: cannot notify: \(failure)\n")
            }
            lock.withLock { quietUntil = failures.isEmpty ? nil : now.addingTimeInterval(Self.retryAfterFailure) }
            setRunning(false)
        }
        if !started { setRunning(false) }
    }

    private var quietUntilNow: Date? { lock.withLock { quietUntil } }

    private func setRunning(_ value: Bool) { lock.withLock { running = value } }

    /// Runs `body` on a new detached thread; `false` when none could be started.
    private static func start(_ body: @escaping () -> Void) -> Bool {
        final class Box { let body: () -> Void; init(_ body: @escaping () -> Void) { self.body = body } }
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        let status = pthread_create(&thread, nil, { raw in
            Unmanaged<Box>.fromOpaque(raw).takeRetainedValue().body()
            return nil
        }, context)
        #else
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { raw in
            Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, context)
        #endif
        guard status == 0 else {
            Unmanaged<Box>.fromOpaque(context).release()
            return false
        }
        #if canImport(Darwin)
        if let thread { pthread_detach(thread) }
        #else
        pthread_detach(thread)
        #endif
        return true
    }
}
