import ElbowroomCore
import ElbowroomAdapters

/// `elbowroom history --by session|model|project [--window NAME] [--since DURATION] [--json|--csv]`:
/// the points one window (`5h` unless `--window`) rose in the range, per consumer
/// (`AttributionReport`): points, share of all, cost, last seen; a session with its project and
/// model. `elsewhere` is usage no local session made, `local` a Claude Code process without a
/// status line, `unknown` what the data cannot say (before any status line was seen).
///
/// - text: `session  points  share  cost  last_seen  project  model`, most points first.
/// - `--json`: `{"by":"session","window":"5h","key":"five_hour","since":…,"rows":[{"key","points",
///   "share","cost","last_seen","project","model"}]}` (`cost` in dollars, `null` for a row that is
///   not a session's spend; `project`, `model` `null` where unknown).
/// - `--csv`: `key,points,share,cost,last_seen,project,model`.
enum HistoryAttribution {
    static func run(_ options: Invocation.HistoryOptions, by: AttributionReport.By, context: CLIContext) -> Int32 {
        let store = CacheStore(paths: context.paths)
        let now = Int64(context.now().timeIntervalSince1970.rounded(.down))
        _ = try? store.maintainHistory(now: now)
        let log: AttributionLog.Contents
        let attribution = AttributionLog(historyFile: store.historyFile)
        do {
            log = try attribution.read()
        } catch {
            context.stderr.write("elbowroom: cannot read the attribution log: \(error)\n")
            return 1
        }
        let daily = DailyArchive(historyFile: store.historyFile).load()
        let key = WindowCatalog.key(forName: options.window ?? "5h")
        let since = now - Int64(options.since)
        let detailFrom = (DailySummary.day(of: now) - 7) * 86400
        let rows = AttributionReport.rows(by: by, key: key, since: since, log: log, daily: daily.days, dailyInfo: daily,
                                          detailFrom: detailFrom, home: context.environment.home)
        let name = WindowCatalog.shortName(forKey: key)
        switch options.format {
        case .json: context.stdout.write(json(rows, by: by, key: key, since: since))
        case .csv: context.stdout.write(csv(rows))
        case .chart:
            context.stderr.write("elbowroom: --chart draws used % over time; --by prints who used it (as text, --json or --csv)\n")
            return 2
        case .text:
            guard !rows.isEmpty else {
                context.stdout.write("no usage of \(name) attributed in the last \(DurationText.short(options.since)) (attribution: \(attribution.file))\n")
                return 0
            }
            context.stdout.write(text(rows, by: by, name: name, since: since))
        }
        return 0
    }

    static func dollars(_ micros: Int64) -> Double { Double(micros) / 1_000_000 }

    static func text(_ rows: [AttributionReport.Row], by: AttributionReport.By, name: String, since: Int64) -> String {
        func pad(_ s: String, _ n: Int) -> String { s + String(repeating: " ", count: max(0, n - s.count)) }
        func lpad(_ s: String, _ n: Int) -> String { String(repeating: " ", count: max(0, n - s.count)) + s }
        func shown(_ key: String) -> String {
            by == .session && !AttributionReport.isWord(key) ? String(key.prefix(8)) : NotifyMessage.text(key, lines: .join)
        }
        let width = max(9, rows.map { shown($0.key).count }.max() ?? 0)
        func project(_ r: AttributionReport.Row) -> String { NotifyMessage.text(r.project ?? "-", lines: .join) }
        let projectWidth = max(7, rows.filter { !AttributionReport.isWord($0.key) }.map { project($0).count }.max() ?? 0)
        var out = "\(name) since \(ISO8601.format(HistoryCommand.date(since))), by \(by.rawValue)\n"
        out += pad(by.rawValue, width + 2) + lpad("points", 7) + lpad("share", 7) + "  " + pad("cost", 9) + pad("last_seen", 22)
        out += by == .session ? pad("project", projectWidth + 2) + "model\n" : "\n"
        for r in rows {
            let cost = AttributionReport.isWord(r.key) ? "-" : NumberText.money(minor: Double(r.cost) / 10_000, currency: "USD", decimals: 2)
            out += pad(shown(r.key), width + 2) + lpad(AttributionState.points(r.points), 7)
                + lpad(NumberText.fixed(r.share, decimals: 0) + "%", 7) + "  " + pad(cost, 9)
                + pad(ISO8601.format(HistoryCommand.date(r.lastSeen)), 22)
            if by == .session && !AttributionReport.isWord(r.key) {
                out += pad(project(r), projectWidth + 2) + NotifyMessage.text(r.model.flatMap { $0.isEmpty ? nil : $0 } ?? "-", lines: .join)
            }
            out += "\n"
        }
        return out.replacingTrailingSpaces()
    }

    static func json(_ rows: [AttributionReport.Row], by: AttributionReport.By, key: String, since: Int64) -> String {
        let items: [JSONValue] = rows.map { r in
            let session = !AttributionReport.isWord(r.key)
            return .object([
                ("key", .string(NotifyMessage.text(r.key, lines: .keep))),
                ("points", .number(JSONNumber.rounded(r.points, places: 2))),
                ("share", .number(JSONNumber.rounded(r.share, places: 1))),
                ("cost", .number(session ? JSONNumber.rounded(dollars(r.cost), places: 4) : nil)),
                ("last_seen", .string(ISO8601.format(HistoryCommand.date(r.lastSeen)))),
                ("project", .string(r.project.map { NotifyMessage.text($0, lines: .keep) })),
                ("model", .string(r.model.flatMap { $0.isEmpty ? nil : NotifyMessage.text($0, lines: .keep) })),
            ])
        }
        return JSONValue.object([
            ("by", .string(by.rawValue)),
            ("window", .string(WindowCatalog.shortName(forKey: key))),
            ("key", .string(key)),
            ("since", .string(ISO8601.format(HistoryCommand.date(since)))),
            ("rows", .array(items)),
        ]).encoded + "\n"
    }

    static func csv(_ rows: [AttributionReport.Row]) -> String {
        func field(_ s: String) -> String { csvField(s) }
        var out = "key,points,share,cost,last_seen,project,model\n"
        for r in rows {
            let session = !AttributionReport.isWord(r.key)
            out += [field(NotifyMessage.text(r.key, lines: .join)), AttributionState.points(r.points),
                    NumberText.fixed(r.share, decimals: 1),
                    session ? NumberText.fixed(dollars(r.cost), decimals: 4) : "",
                    ISO8601.format(HistoryCommand.date(r.lastSeen)),
                    field(NotifyMessage.text(r.project ?? "", lines: .join)), field(NotifyMessage.text(r.model ?? "", lines: .join))]
                .joined(separator: ",") + "\n"
        }
        return out
    }
}

/// A CSV field, quoted when it has a comma, a quote or a line break.
func csvField(_ s: String) -> String {
    guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) else { return s }
    var out = "\""
    for c in s { out += c == "\"" ? "\"\"" : String(c) }
    return out + "\""
}

extension String {
    /// Each line without the spaces its padding left at its end.
    func replacingTrailingSpaces() -> String {
        split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in
                var l = Substring(line)
                while l.last == " " { l = l.dropLast() }
                return String(l)
            }
            .joined(separator: "\n")
    }
}
