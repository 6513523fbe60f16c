import ElbowroomCore
import ElbowroomTemplate

/// `elbowroom guard [--min-left PCT] [--window NAME]… [--account NAME] [--wait]`: for scripts and agents
/// (`elbowroom guard --min-left 20 && claude -p "…"`). Decides from the cache, as a render
/// shows it: exit 0 when every named window (default: every window the data has) has at least
/// PCT left (default: the warn threshold), 1 when one has less, 69 (`EX_UNAVAILABLE`) when there
/// is nothing to decide on, 2 for a usage or config error. One line on stderr names the window
/// that decided and why. Never waits on the network unless `--wait`; a fetch that is due starts
/// in the background, as a render starts it.
///
/// With `[accounts.NAME]` tables, `--account NAME` decides on that account alone; without it
/// every account is checked and the worst answer wins: one below the line (1) over one without
/// data (69) over enough left (0), the line naming the account.
///
/// `--until` waits for headroom instead (`GuardUntil`).
///
/// On the render path's rules (a script may run it as often as a prompt): FoundationEssentials
/// only, no dictionaries or sets.
enum GuardCommand {
    /// `EX_UNAVAILABLE` (sysexits.h): no data to decide on.
    static let noData: Int32 = 69

    struct Verdict: Equatable {
        var status: Int32
        var line: String
    }

    static func run(_ options: Invocation.GuardOptions, invocation: Invocation, context: CLIContext) -> Int32 {
        let config: Config
        do {
            config = try Config.load(paths: context.paths)
        } catch {
            context.stderr.write("elbowroom: \(error.description)\n")
            return 2
        }
        guard let selection = AccountSelection.made(invocation, config: config, context: context) else { return 2 }
        if options.until {
            return GuardUntil.run(options, invocation: invocation, config: config, selection: selection, context: context)
        }
        var worst: (rank: Int, verdict: Verdict)?
        for part in selection.parts {
            var verdict = check(options, invocation: invocation, config: config, context: part.context)
            if selection.isSeveral, let account = part.account {
                verdict.line = "\(SafeText.clean(account.name, lines: .join)): " + verdict.line
            }
            let rank = verdict.status == 1 ? 2 : verdict.status == noData ? 1 : 0
            if worst.map({ rank > $0.rank }) ?? true { worst = (rank, verdict) }
        }
        let verdict = worst?.verdict ?? Verdict(status: noData, line: "no account to decide on")
        context.stderr.write("elbowroom: guard: \(verdict.line)\n")
        return verdict.status
    }

    /// One account's verdict, from its cache (and a due fetch started, or waited for).
    static func check(_ options: Invocation.GuardOptions, invocation: Invocation, config: Config,
                      context: CLIContext) -> Verdict {
        let store = CacheStore(paths: context.paths)
        var cache: CacheFile?
        switch store.read() {
        case .loaded(let found): cache = found
        case .missing, .unusable: break
        case .refused(let why):
            return Verdict(status: noData, line: "no data: \(why)")
        }
        var trigger: FetchTrigger? = invocation.offline ? nil : FetchTrigger(context: context, store: store, config: config)
        if invocation.wait, let waiting = trigger {
            if waiting.startIfDue(cache: cache) {
                cache = waiting.waitForAttempt(after: cache, timeout: FetchTrigger.waitTimeout(config))
            }
            trigger = nil
        }
        let view = UsageView(cache: cache, now: context.now(), config: config, provider: context.paths.provider)
        let verdict = decide(view, options: options, minLeft: options.minLeft ?? config.thresholds.warn)
        _ = trigger?.startIfDue(cache: cache)
        return verdict
    }

    static func decide(_ view: UsageView, options: Invocation.GuardOptions, minLeft: Double,
                       localTime: LocalTime = .system) -> Verdict {
        guard view.age != nil else {
            return Verdict(status: noData, line: "no usage data yet (\(view.status.rawValue)\(view.error.map { ": " + SafeText.clean($0, lines: .join) } ?? ""))")
        }
        var chosen: [WindowView] = []
        if options.windows.isEmpty {
            chosen = view.windows
            if chosen.isEmpty { return Verdict(status: noData, line: "the data has no usage windows") }
        } else {
            for name in options.windows {
                guard let window = view.window(named: name) else {
                    let known = view.windows.map { WindowCatalog.shortName(forKey: $0.key) }
                    return Verdict(status: noData, line: "no window '\(SafeText.clean(name, lines: .join))' in the data (it has: \(known.isEmpty ? "none" : known.joined(separator: ", ")))")
                }
                chosen.append(window)
            }
        }
        var least = chosen[0]
        for window in chosen.dropFirst() where window.left < least.left { least = window }
        let name = WindowCatalog.shortName(forKey: least.key)
        let left = "\(PercentText.whole(least.left))% left"
        let limit = "\(formatted(minLeft))%"
        let stale = view.isStale ? ", data \(DurationText.short(view.age ?? 0)) old" : ""
        if least.left < minLeft {
            let reset = least.resetsAt.map { ", resets \(localTime.format($0, "%a %H:%M"))" } ?? ""
            return Verdict(status: 1, line: "\(SafeText.clean(name, lines: .join)) has \(left), below \(limit)\(reset)\(stale)")
        }
        let of = chosen.count == 1 ? "" : ", the least of \(chosen.count) windows"
        return Verdict(status: 0, line: "\(SafeText.clean(name, lines: .join)) has \(left), at least \(limit)\(of)\(stale)")
    }

    /// `20`, or `12.5`.
    static func formatted(_ percent: Double) -> String {
        percent == percent.rounded() ? "\(Int(percent))" : "\(percent)"
    }
}
