import ElbowroomCore

// Set from signal handlers; read by the loop. Plain integers: all a handler may safely touch.
nonisolated(unsafe) var watchStopRequested: sig_atomic_t = 0
nonisolated(unsafe) var watchRefreshRequested: sig_atomic_t = 0
nonisolated(unsafe) var watchPaused: sig_atomic_t = 0
nonisolated(unsafe) var watchResumed: sig_atomic_t = 0

/// `watch`'s signals: SIGTERM, SIGINT and SIGHUP stop it, SIGUSR1 refreshes now, and i3bar's stop
/// and continue signals (announced in the header) pause and resume rendering.
extension WatchCommand {
    static let stopSignal = SIGUSR2
    static let continueSignal = SIGCONT

    static func installSignalHandlers() {
        signal(SIGPIPE, SIG_IGN)
        for sig in [SIGTERM, SIGINT, SIGHUP] {
            handle(sig) { _ in watchStopRequested = 1 }
        }
        handle(SIGUSR1) { _ in watchRefreshRequested = 1 }
        handle(stopSignal) { _ in watchPaused = 1 }
        // Only a continue after a stop repaints: a storm of SIGCONTs is not a storm of writes.
        handle(continueSignal) { _ in if watchPaused != 0 { watchPaused = 0; watchResumed = 1 } }
        // A parent may start us with these blocked (a process spawned from a thread pool inherits
        // its mask): then SIGTERM would never end us and clicks-by-signal would never arrive.
        var handled = sigset_t()
        sigemptyset(&handled)
        for sig in [SIGTERM, SIGINT, SIGHUP, SIGUSR1, stopSignal, continueSignal] { sigaddset(&handled, sig) }
        sigprocmask(SIG_UNBLOCK, &handled, nil)
    }

    /// Installs `handler` without `SA_RESTART`: a signal interrupts a blocked write, so SIGTERM
    /// ends us even while a bar that stopped reading keeps our stdout full.
    static func handle(_ sig: Int32, _ handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        #if canImport(Darwin)
        action.__sigaction_u.__sa_handler = handler
        #else
        action.__sigaction_handler.sa_handler = handler
        #endif
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(sig, &action, nil)
    }
}
