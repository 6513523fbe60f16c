import ElbowroomCore
import ElbowroomAdapters

/// `elbowroom history --daily [--window NAME] [--since DURATION] [--json|--csv]`, and any
/// `history` whose `--since` reaches past the 8 days of samples: one row per window per day, from
/// the daily summaries (`DailySummary`, 450 days) and, for today and days not summed up yet, from
/// the detail.
///
/// - text: `day  window  peak  points  resets  top` (`top`: who used most of that day's points, and
///   their share).
/// - `--json`: `{"version":1,"days":[{"day","key","name","peak","points","resets":[…],"elsewhere",
///   "by":{"session":[{"key","points","cost","model","project"}],"model":[…],"project":[…]}}]}`;
///   `elsewhere`, `local` and `unknown` appear in each of the three lists.
/// - `--csv`: `day,key,name,peak,points,resets,top,top_points,elsewhere`.
enum HistoryDaily {
    static func run(_ options: Invocation.HistoryOptions, context: CLIContext) -> Int32 {
        let store = CacheStore(paths: context.paths)
        let now = Int64(context.now().timeIntervalSince1970.rounded(.down))
        _ = try? store.maintainHistory(now: now)
        let archive = DailyArchive(historyFile: store.historyFile)
        let stored: DailySummary.File
        let samples: [HistorySample]
        do {
            stored = try archive.read()
            samples = try HistoryStore(file: store.historyFile).read().samples
        } catch {
            context.stderr.write("elbowroom: cannot read the usage history: \(error)\n")
            return 1
        }
        let log = AttributionLog(historyFile: store.historyFile).load()
        let fromDay = DailySummary.day(of: now - Int64(options.since))
        var file = archive.days(from: fromDay, now: now, stored: stored, samples: samples, log: log)
        if let name = options.window {
            let key = WindowCatalog.key(forName: name)
            file.days = file.days.filter { $0.key == key }
        }
        let home = context.environment.home
        switch options.format {
        case .json: context.stdout.write(json(file, home: home))
        case .csv: context.stdout.write(csv(file))
        case .chart where !file.days.isEmpty:
            context.stdout.write(HistoryChart.daily(file.days, start: now - Int64(options.since), end: now, color: options.color, context: context))
        case .text, .chart:
            guard !file.days.isEmpty else {
                context.stdout.write("no usage in the last \(DurationText.short(options.since)) (daily summaries: \(archive.file))\n")
                return 0
            }
            context.stdout.write(text(file))
        }
        return 0
    }

    /// Who used most of a day's points: a session (by its project's last directory, else its id),
    /// `elsewhere`, `local` or `unknown`; with its share.
    static func top(_ d: DailySummary, file: DailySummary.File) -> (String, Double)? {
        let candidates = d.entries.filter { ($0.kind == "s" && $0.name != "other") || $0.kind == "x" }
        guard d.points > 0, let best = candidates.max(by: { $0.points < $1.points }) else { return nil }
        var label = best.name
        if best.kind == "s", let info = file.info(day: d.day, id: best.name),
           let base = info.project.split(separator: "/").last, !base.isEmpty {
            label = String(base)
        }
        return (NotifyMessage.text(label, lines: .join), best.points)
    }

    static func resets(_ d: DailySummary) -> String {
        d.resets.isEmpty ? "-" : d.resets.map { String(ISO8601.format(HistoryCommand.date($0)).dropFirst(11).prefix(5)) }.joined(separator: ",")
    }

    static func text(_ file: DailySummary.File) -> String {
        func pad(_ s: String, _ n: Int) -> String { s + String(repeating: " ", count: max(0, n - s.count)) }
        let width = max(6, file.days.map { WindowCatalog.shortName(forKey: $0.key).count }.max() ?? 0)
        var out = pad("day", 12) + pad("window", width + 2) + pad("peak", 7) + pad("points", 8) + pad("resets", 14) + "top\n"
        for d in file.days {
            let top = top(d, file: file).map { "\($0.0) \(NumberText.fixed($0.1 / d.points * 100, decimals: 0))%" } ?? "-"
            out += pad(DailySummary.date(d.day), 12) + pad(WindowCatalog.shortName(forKey: d.key), width + 2)
                + pad(HistoryFile.percent(d.peak), 7) + pad(AttributionState.points(d.points), 8) + pad(resets(d), 14) + top + "\n"
        }
        return out
    }

    static func json(_ file: DailySummary.File, home: String) -> String {
        let days: [JSONValue] = file.days.map { d in
            func list(_ kind: Character) -> JSONValue {
                .array(d.entries.filter { $0.kind == kind || $0.kind == "x" }.map { e in
                    var pairs: [(String, JSONValue)] = [
                        ("key", .string(NotifyMessage.text(e.name, lines: .keep))),
                        ("points", .number(JSONNumber.rounded(e.points, places: 2))),
                        ("cost", .number(e.kind == "x" ? nil : JSONNumber.rounded(Double(e.cost) / 1_000_000, places: 4))),
                    ]
                    if kind == "s" && e.kind == "s" {
                        let info = file.info(day: d.day, id: e.name)
                        pairs.append(("model", .string(info.flatMap { $0.model.isEmpty ? nil : NotifyMessage.text($0.model, lines: .keep) })))
                        pairs.append(("project", .string(info.map { NotifyMessage.text($0.project, lines: .keep) })))
                    }
                    return .object(pairs)
                })
            }
            return .object([
                ("day", .string(DailySummary.date(d.day))),
                ("key", .string(d.key)),
                ("name", .string(WindowCatalog.shortName(forKey: d.key))),
                ("peak", .number(d.peak)),
                ("points", .number(JSONNumber.rounded(d.points, places: 2))),
                ("resets", .array(d.resets.map { .string(ISO8601.format(HistoryCommand.date($0))) })),
                ("elsewhere", .number(JSONNumber.rounded(d.entries.filter { $0.name == AttributionState.elsewhere && $0.kind == "x" }
                    .reduce(0) { $0 + $1.points }, places: 2))),
                ("by", .object([("session", list("s")), ("model", list("m")), ("project", list("p"))])),
            ])
        }
        return JSONValue.object([("version", .number(1)), ("days", .array(days))]).encoded + "\n"
    }

    static func csv(_ file: DailySummary.File) -> String {
        var out = "day,key,name,peak,points,resets,top,top_points,elsewhere\n"
        for d in file.days {
            let top = top(d, file: file)
            let elsewhere = d.entries.filter { $0.name == AttributionState.elsewhere && $0.kind == "x" }.reduce(0) { $0 + $1.points }
            let name = top.map { csvField($0.0) } ?? ""
            out += [DailySummary.date(d.day), d.key, WindowCatalog.shortName(forKey: d.key), HistoryFile.percent(d.peak),
                    AttributionState.points(d.points), d.resets.map { ISO8601.format(HistoryCommand.date($0)) }.joined(separator: " "),
                    name, top.map { AttributionState.points($0.1) } ?? "", AttributionState.points(elsewhere)]
                .joined(separator: ",") + "\n"
        }
        return out
    }
}
