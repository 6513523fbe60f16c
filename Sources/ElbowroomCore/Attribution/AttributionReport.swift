#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// `history --by session|model|project`: the points one window rose in a time range, per
/// consumer — from the attribution log for its 8 days, from the daily summaries before that.
public enum AttributionReport {
    public enum By: String, Sendable, CaseIterable {
        case session, model, project
    }

    public struct Row: Sendable, Equatable {
        /// A session id, model, project, or `elsewhere`, `local`, `unknown`.
        public var key: String
        public var points: Double
        /// Percent of all the points in range.
        public var share: Double
        /// Micro-dollars of the consumer's spend those points used up.
        public var cost: Int64
        /// The last rise it had in range (a day's start for a day from the summaries).
        public var lastSeen: Int64
        /// A session's model and project (when known).
        public var model: String?
        public var project: String?
    }

    /// Whether `who` is one of the words that are not sessions.
    public static func isWord(_ who: String) -> Bool {
        who == AttributionState.elsewhere || who == AttributionState.local || who == AttributionState.unknown
    }

    /// A project as rows show it: the home directory as `~`, at most 48 bytes (the end kept).
    public static func projectName(_ path: String, home: String? = nil) -> String {
        guard !path.isEmpty else { return "-" }
        var p = path
        if let home, !home.isEmpty, p == home || p.hasPrefix(home + "/") { p = "~" + p.dropFirst(home.count) }
        guard p.utf8.count > 48 else { return p }
        var tail = Substring(p)
        while tail.utf8.count > 47 { tail = tail.dropFirst() }
        return "…" + tail
    }

    /// The rows for window `key` from `since` on, most points first (ties by key).
    /// - Parameter detailFrom: rises before this come from `daily`, from it on from `log`.
    public static func rows(by: By, key: String, since: Int64, log: AttributionLog.Contents,
                            daily: [DailySummary], dailyInfo: DailySummary.File, detailFrom: Int64,
                            home: String? = nil) -> [Row] {
        var rows: [Row] = []
        func add(_ name: String, _ points: Double, _ cost: Int64, _ at: Int64, model: String? = nil, project: String? = nil) {
            if let i = rows.firstIndex(where: { $0.key == name }) {
                rows[i].points += points
                rows[i].cost += cost
                if at >= rows[i].lastSeen {
                    rows[i].lastSeen = at
                    if let model { rows[i].model = model }
                    if let project { rows[i].project = project }
                }
            } else {
                rows.append(Row(key: name, points: points, share: 0, cost: cost, lastSeen: at, model: model, project: project))
            }
        }
        let fromDay = DailySummary.day(of: since)
        for d in daily where d.key == key && d.day >= fromDay && d.dayStart < detailFrom {
            for e in d.entries {
                switch (by, e.kind) {
                case (_, "x"): add(e.name, e.points, e.cost, d.dayStart)
                case (.session, "s"):
                    let info = dailyInfo.info(day: d.day, id: e.name)
                    add(e.name, e.points, e.cost, d.dayStart, model: info?.model,
                        project: info.map { projectName($0.project, home: home) })
                case (.model, "m"), (.project, "p"): add(e.name, e.points, e.cost, d.dayStart)
                default: break
                }
            }
        }
        for rise in log.rises where rise.key == key && rise.at >= max(since, detailFrom) {
            for share in rise.shares {
                if isWord(share.who) {
                    add(share.who, share.points, share.cost, rise.at)
                    continue
                }
                let info = log.info(share.who)
                switch by {
                case .session:
                    add(share.who, share.points, share.cost, rise.at, model: info?.model,
                        project: info.map { projectName($0.project, home: home) })
                case .model: add(info.map { $0.model.isEmpty ? "-" : $0.model } ?? "-", share.points, share.cost, rise.at)
                case .project: add(projectName(info?.project ?? "", home: home), share.points, share.cost, rise.at)
                }
            }
        }
        let total = rows.reduce(0) { $0 + $1.points }
        for i in rows.indices { rows[i].share = total > 0 ? rows[i].points / total * 100 : 0 }
        return rows.sorted { ($0.points, $1.key) > ($1.points, $0.key) }
    }

    /// Points that went `elsewhere` in window `key` (any window when `nil`) from `since` on, and
    /// the first and last such rise: for `doctor`.
    public static func elsewhere(since: Int64, log: AttributionLog.Contents) -> [(key: String, points: Double, first: Int64, last: Int64)] {
        var out: [(key: String, points: Double, first: Int64, last: Int64)] = []
        for rise in log.rises where rise.at >= since {
            for share in rise.shares where share.who == AttributionState.elsewhere {
                if let i = out.firstIndex(where: { $0.key == rise.key }) {
                    out[i].points += share.points
                    out[i].last = rise.at
                } else {
                    out.append((rise.key, share.points, rise.from, rise.at))
                }
            }
        }
        return out
    }
}
