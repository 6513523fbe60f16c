import ElbowroomCore
import ElbowroomTemplate

/// `elbowroom cache [show|path|clear]`.
/// - `show`: the status, the account type, the fetch state, every cached window with where its
///   number came from and how old it is, the spend, and the top-level keys of the last body
///   elbowroom has never heard of, one line each (no token is ever in the cache). Each line goes through `SafeText` (one line, no controls): window keys,
///   the plan and the last message come from the data.
/// - `path`: the cache file of this account (`CLAUDE_CONFIG_DIR` picks the account).
/// - `clear`: removes it; the next render fetches anew. With several accounts, every account's
///   (or the one `--account` names).
enum CacheCommand {
    static func run(_ action: Invocation.CacheAction, context: CLIContext) -> Int32 {
        let store = CacheStore(paths: context.paths)
        switch action {
        case .path:
            context.stdout.write(store.file + "\n")
        case .clear:
            do {
                try store.clear()
                context.stdout.write("cleared \(store.file)\n")
            } catch {
                context.stderr.write("elbowroom: \(error)\n")
                return 1
            }
        case .show:
            guard FileSystem.exists(store.file) else {
                context.stdout.write("no cache yet at \(store.file)\n")
                return 0
            }
            guard let cache = store.load() else {
                context.stdout.write("cache at \(store.file) is unreadable or of another version; it will be replaced on the next fetch\n")
                return 0
            }
            context.stdout.write(describe(cache, now: context.now(), config: (try? Config.load(paths: context.paths)) ?? Config(),
                                          account: context.accountName, provider: context.paths.provider))
        }
        return 0
    }

    /// `account:` is the `[accounts.NAME]` (when there is one), as everywhere; `login:` where its
    /// login is read from (the cache's identity); `account type:` what kind of account it is.
    static func describe(_ cache: CacheFile, now: Date, config: Config, account: String? = nil,
                         provider: Provider = .claude) -> String {
        let view = UsageView(cache: cache, now: now, config: config, provider: provider)
        var lines = (account.map { ["account: \($0)"] } ?? []) + ["login: \(cache.account)", "status: \(view.status.rawValue)"]
        if let reading = cache.reading {
            lines.append("data: \(reading.source.rawValue), \(DurationText.short(now.timeIntervalSince(reading.fetchedAt))) old (\(ISO8601.format(reading.fetchedAt)))")
            if let plan = reading.plan { lines.append("plan: \(plan)") }
            if let type = view.accountType { lines.append("account type: \(type)") }
            for w in view.windows {
                var line = "  \(w.key): \(PercentText.whole(w.used))% used, \(PercentText.whole(w.left))% left, \(w.level.rawValue)"
                if w.hasReset { line += ", reset since observed" }
                if let r = w.resetsAt { line += ", resets \(ISO8601.format(r)) (in \(DurationText.short(r.timeIntervalSince(now))))" }
                if let detail = w.detail { line += " (\(detail))" }
                line += ", from \(w.source.rawValue) \(DurationText.short(w.age(now: now))) ago"
                if !w.shown { line += provider == .claude ? ", not a /usage row" : ", shown when it needs attention" }
                lines.append(line)
            }
            if let spend = view.spend { lines.append(describe(spend)) }
            if let notice = view.notice { lines.append("note: \(notice)") }
            if !view.unknownKeys.isEmpty {
                lines.append("unknown keys in the last body: \(view.unknownKeys.joined(separator: ", "))")
            }
        } else {
            lines.append("data: none yet")
        }
        let f = cache.fetch
        lines.append("last attempt: \(f.lastAttempt.map(ISO8601.format) ?? "never")\(f.lastOutcome.map { ", \($0.rawValue)" } ?? "")\(f.message.map { " (\($0))" } ?? "")")
        lines.append("last success: \(f.lastSuccess.map(ISO8601.format) ?? "never")")
        if f.consecutiveFailures > 0 { lines.append("consecutive failures: \(f.consecutiveFailures)") }
        if let until = f.cooldownUntil, until > now {
            lines.append("cooldown: until \(ISO8601.format(until)) (\(DurationText.short(until.timeIntervalSince(now))) left)")
        }
        return lines.map { SafeText.clean($0, lines: .join) }.joined(separator: "\n") + "\n"
    }

    /// `spend: 9948 of 60000 minor units of USD (exponent 2), 16.58%, ok, from api` — raw
    /// numbers, as the cache holds them.
    static func describe(_ spend: SpendView) -> String {
        var line = "spend\(spend.organisation ? " (the organisation's pool)" : ""): "
        line += spend.usedMinor.map { number($0) } ?? "?"
        if let limit = spend.limitMinor { line += " of \(number(limit))" }
        line += " minor units of \(spend.currency.isEmpty ? "an unknown currency" : spend.currency) (exponent \(spend.exponent))"
        if let percent = spend.percent { line += ", \(number(percent))%" } else { line += ", uncapped" }
        line += ", \(spend.level.rawValue)"
        if spend.isLimit { line += ", the account's limit" }
        if let period = spend.period { line += ", \(period)" }
        if let r = spend.resetsAt { line += ", resets \(ISO8601.format(r))" }
        return line + ", from \(spend.source.rawValue)"
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String((value * 100).rounded() / 100)
    }
}
