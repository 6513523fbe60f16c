/// What a notification is about (the keys of `[notify]` in the config).
public enum NotifyKind: String, Sendable, CaseIterable, Comparable {
    /// Headroom fell to `[thresholds] warn` or below.
    case warn
    /// Headroom fell to `[thresholds] critical` or below.
    case critical
    /// The window is used up (100 %).
    case exhausted
    /// At the current rate the window runs out before it resets (`eta` has a value).
    case runsOut = "runs_out"
    /// The window reset.
    case reset
    /// The window resets within `unused_before` with at least `unused_left` % still left: use it or lose it.
    case unused
    /// The window rose by `[notify] elsewhere_points` or more while no local Claude Code session
    /// spent anything (`AttributionState`: another machine, claude.ai, the desktop app).
    case elsewhere

    public static func < (a: NotifyKind, b: NotifyKind) -> Bool {
        (allCases.firstIndex(of: a) ?? 0) < (allCases.firstIndex(of: b) ?? 0)
    }

    /// `critical` and `exhausted` are urgent (notify-send `-u critical`); the rest are normal.
    public var isUrgent: Bool { self == .critical || self == .exhausted }
}

/// Which events notify (`[notify]`): every one but `reset` by default.
public struct NotifySettings: Sendable, Equatable {
    /// One bit per kind (`bit(_:)`). Every render builds the config, and an array of kinds would
    /// cost its first use of `[NotifyKind]` (~11 k instructions of runtime metadata) each time.
    private var bits: UInt8
    /// `unused_before`: how close to its reset a window must be for `unused`, seconds.
    public var unusedBefore: Double = 3600
    /// `unused_left`: the least headroom left (%) that `unused` calls thrown away.
    public var unusedLeft: Double = 50

    /// `[notify] elsewhere_points`: how many points a window must rise with no local spending
    /// before `elsewhere` notifies.
    public var elsewherePoints: Double = 5

    public init() {
        bits = Self.bit(.warn) | Self.bit(.critical) | Self.bit(.exhausted) | Self.bit(.runsOut) | Self.bit(.unused) | Self.bit(.elsewhere)
    }

    /// The enabled kinds, in `NotifyKind` order.
    public var enabled: [NotifyKind] { NotifyKind.allCases.filter(isEnabled) }

    public func isEnabled(_ kind: NotifyKind) -> Bool { bits & Self.bit(kind) != 0 }

    public mutating func set(_ kind: NotifyKind, _ on: Bool) {
        if on { bits |= Self.bit(kind) } else { bits &= ~Self.bit(kind) }
    }

    private static func bit(_ kind: NotifyKind) -> UInt8 {
        switch kind {
        case .warn: 1
        case .critical: 2
        case .exhausted: 4
        case .runsOut: 8
        case .reset: 16
        case .unused: 32
        case .elsewhere: 64
        }
    }
}
