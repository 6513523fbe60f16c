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

    public static func < (a: NotifyKind, b: NotifyKind) -> Bool {
        (allCases.firstIndex(of: a) ?? 0) < (allCases.firstIndex(of: b) ?? 0)
    }

    /// `critical` and `exhausted` are urgent (notify-send `-u critical`); the rest are normal.
    public var isUrgent: Bool { self == .critical || self == .exhausted }
}

/// Which events notify (`[notify]`): every one but `reset` by default.
public struct NotifySettings: Sendable, Equatable {
    public var enabled: [NotifyKind] = [.warn, .critical, .exhausted, .runsOut]

    public init() {}

    public func isEnabled(_ kind: NotifyKind) -> Bool { enabled.contains(kind) }

    public mutating func set(_ kind: NotifyKind, _ on: Bool) {
        enabled.removeAll { $0 == kind }
        if on { enabled.append(kind) }
        enabled.sort()
    }
}
