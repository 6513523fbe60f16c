#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Holds SIGTERM, SIGINT and SIGHUP back while `body` runs: between the token request and the
/// save, the old refresh token is spent and the new one lives only in this process, so a logout
/// of the session, a Ctrl-C or a panel reload must wait until the new one is on disk. A signal
/// that arrives meanwhile stays pending and takes effect as soon as the mask is restored.
///
/// The mask is the calling thread's. That covers the process because every other thread the
/// fetcher has blocks these signals too: the refresh locks' toucher is started with them held,
/// and on macOS URLSession's threads are Dispatch workers, which block them. The kernel
/// delivers a process-directed signal only to a thread that does not block it. On Linux the
/// token request itself runs in `elbowroom-http`, which blocks them for its whole (bounded) life
/// and dies with the fetcher: a signal to every process of a service reaches it too.
enum TerminationSignals {
    /// SIGTERM, SIGINT and SIGHUP.
    static var signals: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&set, signal) }
        return set
    }

    static func held<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        var set = signals
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &set, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try body()
    }
}
