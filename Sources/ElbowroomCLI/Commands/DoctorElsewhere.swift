import ElbowroomCore

extension DoctorCommand {
    /// What the last 7 days' attribution log says about usage from elsewhere (`AttributionState`):
    /// how much, per window, and when it last happened. Nothing when the log is empty.
    static func elsewhere(paths: Paths, now: Date) -> [Line] {
        let log = AttributionLog(historyFile: paths.historyFile).load()
        guard !log.rises.isEmpty else { return [] }
        let since = Int64(now.timeIntervalSince1970) - 7 * 86400
        let found = AttributionReport.elsewhere(since: since, log: log)
        guard !found.isEmpty else {
            return [Line(ok: true, text: "attribution: no usage from elsewhere in the last 7 days")]
        }
        let parts = found.map { e in
            "\(WindowCatalog.shortName(forKey: e.key)) \(AttributionState.points(e.points)) point\(e.points == 1 ? "" : "s")"
                + " (last \(ISO8601.format(Date(timeIntervalSince1970: Double(e.last)))))"
        }
        return [Line(ok: true, text: "attribution: usage from elsewhere in the last 7 days: " + parts.joined(separator: ", ")
            + " — another machine, claude.ai or the desktop app; `elbowroom history --by session --since 7d` shows it")]
    }
}
