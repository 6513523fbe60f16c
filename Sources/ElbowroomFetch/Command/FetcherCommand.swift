#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CSystem
import ElbowroomCore

/// `elbowroom-fetch [--urgency when-due|now|force] [--max-age SECONDS] [--json] [--verbose] [--probe]`
///
/// | exit | when |
/// |---|---|
/// | 0 | fetched, or legitimately skipped (not due, cooldown running, another fetch holds the lock); `--probe`: the api answered |
/// | 1 | the fetch failed (one lowercase line on stderr, never a token); `--probe`: unreachable |
/// | 2 | usage error |
///
/// `--json` prints one line on stdout, the shape documented in `FetchJSON`.
public enum FetcherCommand {
    public static let usage = """
        usage: elbowroom-fetch [--urgency when-due|now|force] [--max-age SECONDS] [--json] [--verbose] [--probe]
          --urgency   when-due (default): only when the cache is due and no cooldown runs
                      now: ignore max_age, obey cooldowns; force: ignore both
          --max-age   seconds before the cache is due (overrides max_age in the config)
          --json      print the resulting reading and fetch state as one json line
          --verbose   log each step to stderr (tokens redacted); also ELBOWROOM_DEBUG=1
          --probe     check that the usage api answers, sending no token
        """

    public struct Options: Equatable, Sendable {
        public var urgency: FetchUrgency = .whenDue
        public var json = false
        public var verbose = false
        public var probe = false
        /// `elbowroom --max-age` passed on, so both sides agree on "due".
        public var maxAge: TimeInterval?
    }

    public static func parse(_ arguments: [String]) throws(OptionError) -> Options {
        var options = Options()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--json": options.json = true
            case "--verbose", "-v": options.verbose = true
            case "--probe": options.probe = true
            case "--force": options.urgency = .force
            case "--max-age":
                guard let value = rest.popFirst(), let seconds = TimeInterval(value), seconds >= 1, seconds <= Config.maxSeconds else {
                    throw OptionError("--max-age needs a number of seconds from 1 to \(Int(Config.maxSeconds))")
                }
                options.maxAge = seconds
            case "--urgency":
                guard let value = rest.popFirst() else { throw OptionError("--urgency needs a value: when-due, now or force") }
                guard let urgency = FetchUrgency(rawValue: value) else {
                    throw OptionError("unknown urgency '\(value)': use when-due, now or force")
                }
                options.urgency = urgency
            case let other where other.hasPrefix("--urgency="):
                let value = String(other.dropFirst("--urgency=".count))
                guard let urgency = FetchUrgency(rawValue: value) else {
                    throw OptionError("unknown urgency '\(value)': use when-due, now or force")
                }
                options.urgency = urgency
            case "-h", "--help": throw OptionError(nil)
            default: throw OptionError("unknown argument '\(argument)'")
            }
        }
        return options
    }

    /// A wrong argument to the fetcher (`nil`: `--help` was asked for): the usage text follows.
    public struct OptionError: Error {
        public let message: String?
        init(_ message: String?) { self.message = message }
    }

    /// The whole program; `main.swift` calls this and exits with its result.
    public static func main(arguments: [String], environment: ElbowroomEnvironment = .snapshot,
                            stdout: @Sendable (String) -> Void = { print($0) },
                            stderr: @escaping @Sendable (String) -> Void = DebugLog.standardError) -> Int32 {
        // Foundation and the locks' semaphores use libdispatch, whose start-up the release
        // program defers to here (Sources/CSystem/dispatch.c).
        elbowroom_start_dispatch()
        let options: Options
        do {
            options = try parse(arguments)
        } catch {
            if let message = error.message {
                stderr("elbowroom-fetch: \(message)")
                stderr(usage)
                return 2
            }
            stdout(usage)
            return 0
        }
        let log = DebugLog(enabled: options.verbose || environment["ELBOWROOM_DEBUG"] == "1", sink: stderr)
        let clock = ProcessClock.make(environment: environment)
        if let warning = clock.warning { stderr("elbowroom-fetch: \(warning)") }
        let context = FetchContext(environment: environment, clock: clock.now, log: log)

        if options.probe {
            let (ok, line) = Probe.run(context: context)
            stdout(line)
            return ok ? 0 : 1
        }

        let report = FetchCoordinator(context: context).run(urgency: options.urgency, maxAge: options.maxAge)
        if options.json {
            stdout(FetchJSON.line(report, account: context.accountName))
        }
        switch report.result {
        case .failed(let error):
            stderr("elbowroom-fetch: " + log.redact(error.description))
        case .skipped(let reason) where options.urgency != .whenDue:
            stderr("elbowroom-fetch: skipped: \(reason)")
        default:
            break
        }
        return report.exitCode
    }
}
