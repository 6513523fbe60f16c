// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
/// Severity of a window, from the headroom left: `ok`, `warn`, `critical`.
public enum Level: String, Codable, Sendable, Comparable, CaseIterable {
    case ok, warn, critical

    public static func < (a: Level, b: Level) -> Bool { a.rank < b.rank }
    private var rank: Int {
        switch self {
        case .ok: 0
        case .warn: 1
        case .critical: 2
        }
    }

    /// The level for `left` percent of headroom: critical at or below `critical`, warn at or below
    /// `warn`, else ok; raised to the API's own severity when that is worse.
    public static func forLeft(_ left: Double, thresholds: Thresholds, apiSeverity: String? = nil) -> Level {
        let own: Level = left <= thresholds.critical ? .critical : (left <= thresholds.warn ? .warn : .ok)
        return max(own, Level(apiSeverity: apiSeverity))
    }

    /// Reads the API's severity words loosely; anything unrecognised counts as ok.
    init(apiSeverity: String?) {
        guard let apiSeverity, !apiSeverity.isEmpty else {
            self = .ok
            return
        }
        let word = apiSeverity.lowercased()
        if word.contains("crit") || word.contains("exceed") || word.contains("block") || word.contains("error") {
            self = .critical
        } else if word.contains("warn") || word.contains("high") {
            self = .warn
        } else {
            self = .ok
        }
    }
}

/// Headroom left, in percent, at or below which a window is warn / critical.
public struct Thresholds: Sendable, Equatable {
    public var warn: Double
    public var critical: Double
    public init(warn: Double = 25, critical: Double = 10) {
        self.warn = warn
        self.critical = critical
    }
}
