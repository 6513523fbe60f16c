import ElbowroomCore
import ElbowroomTemplate
import ElbowroomAdapters

/// `elbowroom history --chart [--window NAME] [--since DURATION]`: used % over time in the
/// terminal, one panel per window, as wide as the terminal.
///
/// ```
/// 5h used %, 2027-01-15 08:00 to 2027-01-16 08:00 UTC
/// 100┤                          ▂▄
///    ┤                        ▄███
///  75┤                     ▂▆█████
/// …
///    ┤▁▁▂▂▃▃▄▄▅▅▆▆▇▇██    ▁▂▃██████
///   0└────────────────↻───────────
///     08:00         20:00    08:00
///    ↻ reset   blank: no data
/// ```
///
/// - Each column is a stretch of time (the range over the width) and shows the last sample in it
///   in eighths of a row (▁▂▃▄▅▆▇█); a column with no sample carries the one before it on, to 0
///   once that window instance's reset time has passed; before the first sample it is blank.
/// - A reset inside the range is marked `↻` on the time axis, under its column.
/// - Shapes carry the meaning, so it reads the same without colour; with colour (a terminal and
///   no `NO_COLOR`, or `--color always`; never with `--color never`) each column is green, yellow or red by the headroom it left,
///   against `[thresholds]`.
struct HistoryChart {
    var samples: [HistorySample]
    var start: Int64
    var end: Int64
    /// Columns in all, the axis included.
    var width: Int
    var color: Bool
    var thresholds = Thresholds()
    /// What the panels plot, after the window's name.
    var what = "used %"
    /// Reset times besides the samples' own (the daily summaries'), per window key.
    var resetMarks: [HistorySample] = []
    /// Rows of one panel.
    static let height = 8
    /// `100┤`: the label and the axis.
    static let margin = 4
    static let eighths: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// The terminal's width for the chart: `COLUMNS`, else stdout's terminal, else 80 (20 to 1,000).
    static func width(_ context: CLIContext) -> Int {
        if let text = context.environment["COLUMNS"], let n = Int(text), n > 0 { return min(max(n, 20), 1000) }
        var size = winsize()
        if context.stdoutIsTTY, ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return min(max(Int(size.ws_col), 20), 1000)
        }
        return 80
    }

    /// A chart of each day's peak over a range longer than the samples kept (`history --chart
    /// --since 90d`): the daily summaries, each day a step at its peak, its resets marked.
    static func daily(_ days: [DailySummary], start: Int64, end: Int64, color: ColorMode, context: CLIContext) -> String {
        let config = (try? Config.load(paths: context.paths)) ?? Config()
        var chart = HistoryChart(samples: days.map { HistorySample(at: max(start, $0.dayStart), key: $0.key, used: $0.peak, resetsAt: nil) }
                                    .sorted { $0.at < $1.at },
                                 start: start, end: end, width: width(context),
                                 color: color.allowsColor(environment: context.environment, isTTY: context.stdoutIsTTY),
                                 thresholds: config.thresholds)
        chart.what = "peak used % per day"
        chart.resetMarks = days.flatMap { day in day.resets.map { HistorySample(at: $0, key: day.key, used: 0, resetsAt: $0) } }
        return chart.render()
    }

    func render() -> String {
        var keys: [String] = []
        for s in samples where !keys.contains(s.key) { keys.append(s.key) }
        return keys.map { panel(key: $0) }.joined(separator: "\n")
    }

    /// One column's value: used %, or `nil` for no data.
    func columns(key: String) -> (values: [Double?], resets: [Bool]) {
        let plot = max(1, width - Self.margin)
        let span = Double(max(1, end - start))
        let mine = samples.filter { $0.key == key }
        var values = [Double?](repeating: nil, count: plot)
        var resets = [Bool](repeating: false, count: plot)
        func column(_ at: Int64) -> Int? {
            guard at >= start, at <= end else { return nil }
            return min(plot - 1, Int(Double(at - start) / span * Double(plot)))
        }
        var index = 0
        var last: HistorySample?
        for c in 0..<plot {
            let columnEnd = start + Int64((Double(c + 1) / Double(plot) * span).rounded(.down))
            while index < mine.count, mine[index].at <= columnEnd {
                last = mine[index]
                index += 1
            }
            guard let last else { continue }
            if let reset = last.resetsAt, reset <= columnEnd, last.at < reset {
                values[c] = 0
            } else {
                values[c] = min(max(last.used, 0), 100)
            }
        }
        // Each instance's reset time inside the range, once.
        var seen: [Int64] = []
        for s in mine + resetMarks.filter({ $0.key == key }) {
            guard let reset = s.resetsAt, !seen.contains(where: { HistorySample.sameInstance($0, reset) }) else { continue }
            seen.append(reset)
            if let c = column(reset), reset < end { resets[c] = true }
        }
        return (values, resets)
    }

    func panel(key: String) -> String {
        let utc = LocalTime.fixed(offsetSeconds: 0)
        let name = SafeText.clean(WindowCatalog.shortName(forKey: key), lines: .join)
        let from = Date(timeIntervalSince1970: TimeInterval(start)), to = Date(timeIntervalSince1970: TimeInterval(end))
        var out = "\(name) \(what), \(utc.format(from, "%Y-%m-%d %H:%M")) to \(utc.format(to, "%Y-%m-%d %H:%M")) UTC\n"
        let (values, resets) = columns(key: key)
        let h = Self.height
        for row in 0..<h {
            let top = 100 * Double(h - row) / Double(h)
            let bottom = 100 * Double(h - row - 1) / Double(h)
            let label = row % 2 == 0 ? String(Int(top)) : ""
            out += String(repeating: " ", count: max(0, 3 - label.count)) + label + "┤"
            var line = ""
            var current: String?
            for value in values {
                var cell: Character = " "
                if let value {
                    let fill = (value - bottom) / (top - bottom)
                    if fill >= 1 {
                        cell = "█"
                    } else if fill > 0 {
                        cell = Self.eighths[max(0, min(7, Int((fill * 8).rounded(.up)) - 1))]
                    } else if row == h - 1 {
                        cell = "▁"  // known, and (near) 0: still a mark, unlike no data
                    }
                }
                if color {
                    let want = cell == " " ? nil : colour(value ?? 0)
                    if want != current {
                        line += want ?? "\u{1B}[0m"
                        current = want
                    }
                }
                line.append(cell)
            }
            if color && current != nil { line += "\u{1B}[0m" }
            out += line + "\n"
        }
        out += "  0└" + String(resets.map { $0 ? "↻" : "─" }) + "\n"
        out += "    " + timeAxis(columns: values.count, utc: utc) + "\n"
        out += "   ↻ reset   blank: no data\n"
        return out
    }

    /// Times under the first, middle and last columns.
    func timeAxis(columns: Int, utc: LocalTime) -> String {
        let span = end - start
        let format = span <= 2 * 86400 ? "%H:%M" : "%b %d"
        func label(_ fraction: Double) -> String {
            utc.format(Date(timeIntervalSince1970: TimeInterval(start) + Double(span) * fraction), format)
        }
        var axis = [Character](repeating: " ", count: columns)
        func place(_ text: String, at column: Int) {
            let chars = Array(text)
            let from = max(0, min(columns - chars.count, column))
            for (i, ch) in chars.enumerated() where from + i < columns { axis[from + i] = ch }
        }
        place(label(0), at: 0)
        if columns >= 24 { place(label(0.5), at: columns / 2 - 2) }
        if columns >= 12 { place(label(1), at: columns - 5) }
        while axis.last == " " { axis.removeLast() }
        return String(axis)
    }

    func colour(_ used: Double) -> String {
        let left = 100 - used
        if left <= thresholds.critical { return "\u{1B}[31m" }
        if left <= thresholds.warn { return "\u{1B}[33m" }
        return "\u{1B}[32m"
    }
}
