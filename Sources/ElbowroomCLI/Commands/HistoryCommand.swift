import ElbowroomCore
import ElbowroomTemplate
import ElbowroomAdapters

/// `elbowroom history [--window NAME] [--since DURATION] [--json|--csv|--chart]`: the usage history kept
/// with the cache (see `HistoryFile`, `HistoryRetention`), oldest first, for plotting or export.
///
/// - `--window`: one window, by template name (`5h`, `7d`, `opus`) or API key; default every window.
/// - `--since`: how far back, `24h` by default (`90m`, `7d`, `1h30m`, or seconds); samples are kept
///   for 8 days: a longer range prints one row per day (`HistoryDaily`, as `--daily` does).
/// - `--by session|model|project`: who used a window (`HistoryAttribution`).
/// - text (default): `time  window  used  left  resets_at`, times ISO-8601 UTC (left is what
///   every other line shows: 100 − used).
/// - `--csv`: `time,epoch,key,name,used,resets_at` with a header line.
/// - `--chart`: used % over time in the terminal (`HistoryChart`).
/// - `--json`: `{"version":1,"samples":[{"time","epoch","key","name","used","resets_at"}]}`
///   (`resets_at` is `null` when unknown; `used` is percent used, 0…100).
/// - exit 1, saying why, when the history file is not one elbowroom may read (a symlink, a FIFO,
///   another user's file); 2 for an unknown window.
enum HistoryCommand {
    static func run(_ options: Invocation.HistoryOptions, context: CLIContext) -> Int32 {
        // Who used a window, and a year of days: their own files (HistoryAttribution, HistoryDaily).
        if let by = options.by { return HistoryAttribution.run(options, by: by, context: context) }
        if options.daily || options.since > Double(HistoryRetention.horizon) { return HistoryDaily.run(options, context: context) }
        let store = HistoryStore(paths: context.paths)
        let history: UsageHistory
        do {
            history = try store.read()
        } catch {
            // A symlink, FIFO or someone else's file where the history belongs: say so, touch nothing.
            context.stderr.write("elbowroom: cannot read the usage history: \(error)\n")
            return 1
        }
        var key: String?
        if let name = options.window {
            let wanted = WindowCatalog.key(forName: name)
            var present: [String] = []
            for sample in history.samples where !present.contains(sample.key) { present.append(sample.key) }
            let known = present + WindowCatalog.aliases.map(\.key)
            guard known.contains(wanted) else {
                let names = present.map(WindowCatalog.shortName(forKey:))
                let candidates = names + WindowCatalog.aliases.map(\.alias)
                context.stderr.write("elbowroom: no window '\(name)' in the history\(Suggest.hint(for: name, in: candidates))"
                    + (names.isEmpty ? "; it is empty so far\n" : "; it has \(names.joined(separator: ", "))\n"))
                return 2
            }
            key = wanted
        }
        let since = Int64((context.now().timeIntervalSince1970 - options.since).rounded(.down))
        let samples = history.samples.filter { $0.at >= since && (key == nil || $0.key == key) }
        switch options.format {
        case .text: context.stdout.write(text(samples, file: store.file, since: options.since))
        case .csv: context.stdout.write(csv(samples))
        case .json: context.stdout.write(json(samples))
        case .chart:
            guard !samples.isEmpty else {
                context.stdout.write(text(samples, file: store.file, since: options.since))
                break
            }
            let config = (try? Config.load(paths: context.paths)) ?? Config()
            let now = Int64(context.now().timeIntervalSince1970.rounded(.down))
            context.stdout.write(HistoryChart(samples: samples, start: since, end: now, width: HistoryChart.width(context),
                                              color: options.color.allowsColor(environment: context.environment, isTTY: context.stdoutIsTTY),
                                              thresholds: config.thresholds).render())
        }
        return 0
    }

    static func text(_ samples: [HistorySample], file: String, since: TimeInterval) -> String {
        guard !samples.isEmpty else {
            return "no usage samples in the last \(DurationText.short(since)) (history: \(file))\n"
        }
        let width = max(6, samples.map { WindowCatalog.shortName(forKey: $0.key).count }.max() ?? 0)
        func pad(_ s: String, _ n: Int) -> String { s + String(repeating: " ", count: max(0, n - s.count)) }
        var out = pad("time", 22) + pad("window", width + 2) + pad("used", 7) + pad("left", 7) + "resets_at\n"
        for s in samples {
            out += pad(ISO8601.format(date(s.at)), 22) + pad(WindowCatalog.shortName(forKey: s.key), width + 2)
                + pad(HistoryFile.percent(s.used), 7) + pad(HistoryFile.percent(min(max(100 - s.used, 0), 100)), 7)
                + (s.resetsAt.map { ISO8601.format(date($0)) } ?? "-") + "\n"
        }
        return out
    }

    static func csv(_ samples: [HistorySample]) -> String {
        // Keys are plain (see `HistoryFile.isStorableKey`): no field needs quoting.
        var out = "time,epoch,key,name,used,resets_at\n"
        for s in samples {
            out += [ISO8601.format(date(s.at)), String(s.at), s.key, WindowCatalog.shortName(forKey: s.key),
                    HistoryFile.percent(s.used), s.resetsAt.map { ISO8601.format(date($0)) } ?? ""].joined(separator: ",") + "\n"
        }
        return out
    }

    static func json(_ samples: [HistorySample]) -> String {
        let items: [JSONValue] = samples.map { s in
            .object([
                ("time", .string(ISO8601.format(date(s.at)))),
                ("epoch", .number(Double(s.at))),
                ("key", .string(s.key)),
                ("name", .string(WindowCatalog.shortName(forKey: s.key))),
                ("used", .number(s.used)),
                ("resets_at", .string(s.resetsAt.map { ISO8601.format(date($0)) })),
            ])
        }
        return JSONValue.object([("version", .number(1)), ("samples", .array(items))]).encoded + "\n"
    }

    static func date(_ seconds: Int64) -> Date { Date(timeIntervalSince1970: Double(seconds)) }
}
