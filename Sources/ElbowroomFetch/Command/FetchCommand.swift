#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
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
public enum FetchCommand {
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

    public static func parse(_ arguments: [String]) throws(UsageError) -> Options {
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
                    throw UsageError("--max-age needs a number of seconds from 1 to \(Int(Config.maxSeconds))")
                }
                options.maxAge = seconds
            case "--urgency":
                guard let value = rest.popFirst() else { throw UsageError("--urgency needs a value: when-due, now or force") }
                guard let urgency = FetchUrgency(rawValue: value) else {
                    throw UsageError("unknown urgency '\(value)': use when-due, now or force")
                }
                options.urgency = urgency
            case let other where other.hasPrefix("--urgency="):
                let value = String(other.dropFirst("--urgency=".count))
                guard let urgency = FetchUrgency(rawValue: value) else {
                    throw UsageError("unknown urgency '\(value)': use when-due, now or force")
                }
                options.urgency = urgency
            case "-h", "--help": throw UsageError(nil)
            default: throw UsageError("unknown argument '\(argument)'")
            }
        }
        return options
    }

    public struct UsageError: Error {
        public let message: String?
        init(_ message: String?) { self.message = message }
    }

    /// The whole program; `main.swift` calls this and exits with its result.
    public static func main(arguments: [String], environment: ElbowroomEnvironment = .snapshot,
                            stdout: @Sendable (String) -> Void = { print($0) },
                            stderr: @escaping @Sendable (String) -> Void = DebugLog.standardError) -> Int32 {
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
            stdout(FetchJSON.line(report))
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

/// `--probe`: is the usage api reachable? Sends the usual headers but no `Authorization`, so no
/// token leaves the machine; any HTTP answer (a 401 is expected) counts as reachable.
public enum Probe {
    public static func run(context: FetchContext) -> (ok: Bool, line: String) {
        let api: URL
        do {
            api = try EndpointURL.api(context.environment)
        } catch {
            return (false, "refused: \(error)")
        }
        let config = try? Config.load(paths: context.paths)
        if config?.usageSource.mayFetch == false { return (false, "not checked: " + UsageSource.statusLineRefusal) }
        let timeout = config?.timeout ?? 10
        let client = UsageClient(apiBase: api, transport: context.transport, timeout: timeout)
        let started = Date()
        do {
            let response = try context.transport.send(client.request(accessToken: nil))
            let ms = Int(Date().timeIntervalSince(started) * 1000)
            return (true, "reachable: \(client.usageURL.absoluteString) answered \(response.status) in \(ms) ms")
        } catch {
            return (false, "unreachable: \(client.usageURL.absoluteString): \(error)")
        }
    }
}

/// The `--json` line. Stable; `schema` changes only when a field changes meaning.
///
/// ```json
/// {"schema":1,"status":"fetched|skipped|failed","outcome":"ok|network|…|null","message":null,
///  "reason":null,"account":"/home/me/.claude/.credentials.json","plan":"max","source":"api",
///  "fetched_at":"2026-11-22T14:03:07Z","last_attempt":"…","cooldown_until":null,
///  "windows":[{"key":"five_hour","label":"Session","used":12.5,"left":87.5,
///              "resets_at":"2026-11-22T18:00:00Z","severity":null}],
///  "extra_usage":{"is_enabled":true,"monthly_limit":5000,"used_credits":120,"utilization":2.4,"currency":null}}
/// ```
/// `outcome` is this run's outcome, or for a skip the last recorded one. Dates are ISO-8601 UTC;
/// `used`/`left` are percent (0…100); money is in minor units (cents).
public enum FetchJSON {
    public static func line(_ report: FetchReport) -> String {
        // Keys in sorted order, as the line has always been written.
        var finite = true
        func number(_ value: Double?) -> JSONValue {
            guard let value else { return .null }
            guard let json = JSONValue.number(value) else {
                finite = false
                return .null
            }
            return json
        }
        let cache = report.cache
        let status: String, outcome: String?, message: String?, reason: String?
        switch report.result {
        case .fetched:
            (status, outcome, message, reason) = ("fetched", "ok", nil, nil)
        case .skipped(let why):
            (status, outcome, message, reason) = ("skipped", cache?.fetch.lastOutcome?.rawValue, text(cache?.fetch.message), text(why))
        case .failed(let error):
            (status, outcome, message, reason) = ("failed", error.outcome.rawValue, text(error.description), nil)
        }
        let reading = cache?.reading
        let windows = (reading?.windows ?? []).map { window -> JSONValue in
            .object([
                .init("key", .string(text(window.key))),
                .init("label", .string(text(WindowCatalog.label(forKey: window.key, apiLabel: window.label)))),
                .init("left", number(min(max(100 - window.used, 0), 100))),
                .init("resets_at", date(window.resetsAt)),
                .init("severity", .string(text(window.severity))),
                .init("used", number(window.used)),
            ])
        }
        var extraUsage = JSONValue.null
        if let extra = reading?.extra {
            extraUsage = .object([
                .init("currency", .string(text(extra.currency))),
                .init("is_enabled", extra.isEnabled.map(JSONValue.bool) ?? .null),
                .init("monthly_limit", number(extra.monthlyLimitMinor)),
                .init("used_credits", number(extra.usedMinor)),
                .init("utilization", number(extra.utilization)),
            ])
        }
        let document = JSONValue.object([
            .init("account", .string(text(cache?.account))),
            .init("cooldown_until", date(cache?.fetch.cooldownUntil)),
            .init("extra_usage", extraUsage),
            .init("fetched_at", date(reading?.fetchedAt)),
            .init("last_attempt", date(cache?.fetch.lastAttempt)),
            .init("message", .string(message)),
            .init("outcome", .string(outcome)),
            .init("plan", .string(text(reading?.plan))),
            .init("reason", .string(reason)),
            .init("schema", .number(1)),
            .init("source", .string(reading?.source.rawValue)),
            .init("status", .string(status)),
            .init("windows", .array(windows)),
        ])
        // NaN and infinities have no JSON: the line is then an empty object, as it always was.
        return finite ? document.serializedString() : "{}"
    }

    /// Text from the data or a server without controls or bidi controls (`SafeText`): the
    /// writer leaves C1 controls raw, and `jq -r` prints what `\u001b` decodes to.
    static func text(_ text: String?) -> String? {
        text.map { SafeText.clean($0, lines: .keep) }
    }

    static func date(_ date: Date?) -> JSONValue {
        .string(date.map(ISO8601.format))
    }
}
