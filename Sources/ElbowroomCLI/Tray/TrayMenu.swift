import ElbowroomDBus

/// The item's menu over `com.canonical.dbusmenu` (the protocol KDE, GNOME's AppIndicator
/// extension, XFCE, LXQt and waybar read): one informational row per window, then "Refresh
/// now", "Open dashboard" (only while `elbowroom serve` answers), "Quit".
struct TrayMenu {
    /// What a click on an entry asks for.
    enum Action { case refresh, openDashboard, quit }

    var rows: [String] = []
    var dashboard = false
    /// Goes up by one whenever the layout changes (`LayoutUpdated`).
    var revision: UInt32 = 1

    static let refreshID: Int32 = 1
    static let dashboardID: Int32 = 2
    static let quitID: Int32 = 3
    static let separatorID: Int32 = 4
    /// Window rows are 100, 101, …
    static let firstRowID: Int32 = 100

    /// A label as dbusmenu reads it: an underscore marks the access key, so data's own are doubled.
    static func label(_ text: String) -> String {
        String(text.flatMap { $0 == "_" ? ["_", "_"] : [$0] })
    }

    /// Every entry but the root, in order: id and properties.
    var entries: [(id: Int32, properties: [(String, DBusValue)])] {
        var out: [(Int32, [(String, DBusValue)])] = []
        for (i, row) in rows.enumerated() {
            out.append((Self.firstRowID + Int32(i), [("label", .string(Self.label(row))), ("enabled", .boolean(false))]))
        }
        out.append((Self.separatorID, [("type", .string("separator"))]))
        out.append((Self.refreshID, [("label", .string("Refresh now"))]))
        out.append((Self.dashboardID, [("label", .string("Open dashboard")), ("visible", .boolean(dashboard))]))
        out.append((Self.quitID, [("label", .string("Quit"))]))
        return out.map { (id: $0.0, properties: $0.1) }
    }

    /// An entry's properties, only those in `names` (all when empty).
    static func properties(_ all: [(String, DBusValue)], only names: [String]) -> DBusValue {
        .dictionary(names.isEmpty ? all : all.filter { names.contains($0.0) })
    }

    static let rootProperties: [(String, DBusValue)] = [("children-display", .string("submenu"))]

    /// `GetLayout(parentId, recursionDepth, propertyNames)`: `(u(ia{sv}av))`.
    func layout(parent: Int32, depth: Int, names: [String]) -> [DBusValue]? {
        func node(_ id: Int32, _ properties: [(String, DBusValue)], children: [DBusValue]) -> DBusValue {
            .structure([.int32(id), Self.properties(properties, only: names), .array(element: "v", children)])
        }
        if parent == 0 {
            let children = depth == 0 ? [] : entries.map { DBusValue.variant(node($0.id, $0.properties, children: [])) }
            return [.uint32(revision), node(0, Self.rootProperties, children: children)]
        }
        guard let entry = entries.first(where: { $0.id == parent }) else { return nil }
        return [.uint32(revision), node(entry.id, entry.properties, children: [])]
    }

    /// `GetGroupProperties(ids, propertyNames)`: `a(ia{sv})` for the ids that exist (every
    /// entry when `ids` is empty).
    func groupProperties(ids: [Int32], names: [String]) -> DBusValue {
        let all = [(id: Int32(0), properties: Self.rootProperties)] + entries
        let chosen = ids.isEmpty ? all : all.filter { ids.contains($0.id) }
        return .array(element: "(ia{sv})", chosen.map { .structure([.int32($0.id), Self.properties($0.properties, only: names)]) })
    }

    /// What a click on `id` asks for.
    static func action(for id: Int32) -> Action? {
        switch id {
        case refreshID: .refresh
        case dashboardID: .openDashboard
        case quitID: .quit
        default: nil
        }
    }
}
