// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// The clock of one process. `ELBOWROOM_NOW=<epoch seconds>` sets it for that process (tests,
/// reproducible screenshots and docs); nothing else changes behaviour with it. The clock starts at
/// that time and moves on in whole seconds, so a render in its first second is exact and waits
/// (`--wait`, `watch`) still end.
public enum ProcessClock {
    /// The clock, and a warning when `ELBOWROOM_NOW` is set but is not epoch seconds (the real
    /// clock is used then).
    public static func make(environment: ElbowroomEnvironment) -> (now: @Sendable () -> Date, warning: String?) {
        guard let text = environment["ELBOWROOM_NOW"] else { return ({ Date() }, nil) }
        guard let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds < 3.2e9 else {
            return ({ Date() }, "ELBOWROOM_NOW must be Unix epoch seconds, such as 1800000000, not '\(text)'; using the real clock")
        }
        let started = Date()
        return ({ Date(timeIntervalSince1970: seconds + Date().timeIntervalSince(started).rounded(.down)) }, nil)
    }
}
