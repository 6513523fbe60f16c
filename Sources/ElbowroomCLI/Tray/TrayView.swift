import ElbowroomCore
import ElbowroomAdapters

/// Everything the tray shows, from one frame: the item's title, tooltip, status and icon, and
/// the menu's rows. Two views that compare equal show the same; the item sends a change signal
/// for each part that differs.
///
/// No token, path or other secret is ever in it: only the rendered templates (whose variables
/// are usage numbers, labels and times) and the windows' own numbers.
struct TrayView {
    /// The template's line (`-t`, `[templates] tray`, or the default), one line of plain text.
    var title: String
    /// The tooltip template's text (`--tooltip`, `[templates] tooltip`, or `tooltip`): plain text,
    /// escaped as markup where it is sent (hosts read a tooltip as a subset of HTML).
    var tooltip: String
    /// `NeedsAttention` when a window is critical, else `Active`.
    var status: String
    var icon: TrayIcon
    /// One row per window (several accounts: each window's row starts with its account's label).
    var rows: [String]

    /// The item's id and its name in hosts' lists.
    static let id = "elbowroom"

    /// The view of `frame` (one account, or several in `frame.accounts`).
    init(frame: RenderedFrame, palette: Palette, now: Date) {
        title = SafeText.clean(frame.spans.plainText, lines: .join)
        tooltip = SafeText.clean(frame.tooltip.plainText, lines: .keep)
        let views: [(label: String?, view: UsageView)] = frame.accounts.isEmpty
            ? [(nil, frame.view)] : frame.accounts.map { ($0.label, $0.view) }
        var level = Level.ok
        var binding: WindowView?
        var stale = false
        rows = []
        for (label, view) in views {
            level = max(level, view.level)
            if let worst = view.worst, binding.map({ worst.left < $0.left }) ?? true {
                binding = worst
                stale = view.isStale
            }
            let prefix = label.map { SafeText.clean($0, lines: .join) + " " } ?? ""
            for window in view.rows where window.shown {
                rows.append(prefix + Self.row(window, display: view.display))
            }
            if view.rows.isEmpty {
                rows.append(prefix + (view.notice ?? view.error.map { SafeText.clean($0, lines: .join) }
                                      ?? SafeText.map(view.status.rawValue, lines: .join) { $0 == "_" ? " " : nil }))
            }
        }
        status = level == .critical ? "NeedsAttention" : "Active"
        let colorLevel = binding?.level ?? level
        let rgb = (palette.colors[SemanticStyle(colorLevel)] ?? TrayIcon.colors[SemanticStyle(colorLevel)]!).rgbComponents
        icon = TrayIcon(left: binding?.left, color: rgb, stale: stale)
    }

    /// `5h: 42% left, resets in 2h13m`; `used` when the config's display counts used.
    static func row(_ window: WindowView, display: Display) -> String {
        let name = SafeText.clean(SafeText.prefix(window.title, maxBytes: ReadingLimits.maxTextBytes), lines: .join)
        let amount = display == .used ? "\(PercentText.whole(window.used))% used" : "\(PercentText.whole(window.left))% left"
        let resets = window.resetsIn.map { ", resets in " + DurationText.short($0) } ?? ""
        return "\(name): \(amount)\(resets)"
    }

    /// Which parts differ from `other`, for the change signals.
    func changes(from other: TrayView?) -> (title: Bool, tooltip: Bool, status: Bool, icon: Bool, rows: Bool) {
        guard let other else { return (true, true, true, true, true) }
        return (title != other.title, tooltip != other.tooltip || title != other.title, status != other.status,
                icon.key != other.icon.key, rows != other.rows)
    }
}
