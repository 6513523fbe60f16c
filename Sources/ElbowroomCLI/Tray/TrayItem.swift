import ElbowroomCore
import ElbowroomDBus
import ElbowroomAdapters

/// The StatusNotifierItem on the session bus: the object `/StatusNotifierItem`
/// (`org.kde.StatusNotifierItem`, its properties, `Activate` and the rest), the menu object
/// `/MenuBar` (`com.canonical.dbusmenu`), introspection of both, and the registration with
/// `org.kde.StatusNotifierWatcher`, made again whenever a watcher appears (a panel restarted).
///
/// It answers what it is asked and nothing else; the only data in it is `TrayView`'s.
final class TrayItem {
    let bus: DBusConnection
    /// The well-known name we own: `org.kde.StatusNotifierItem-PID-1`, as the specification suggests.
    let name: String
    private(set) var view: TrayView?
    private(set) var menu = TrayMenu()
    private var pixmaps: DBusValue = .array(element: "(iiay)", [])
    private var iconKey = ""
    /// The serial of our last RegisterStatusNotifierItem call, to report a refusal.
    private var registerSerial: UInt32?
    /// What the last registration attempt said went wrong, if it did.
    private(set) var registrationError: String?
    /// How many times we registered.
    private(set) var registrations = 0
    /// Whether `elbowroom serve` answers now (asked again when a menu is about to open).
    var dashboardCheck: () -> Bool = { false }

    static let itemPath = "/StatusNotifierItem"
    static let menuPath = "/MenuBar"
    static let itemInterface = "org.kde.StatusNotifierItem"
    static let menuInterface = "com.canonical.dbusmenu"
    static let watcherName = "org.kde.StatusNotifierWatcher"

    init(bus: DBusConnection, pid: Int32) throws(DBusError) {
        self.bus = bus
        name = "org.kde.StatusNotifierItem-\(pid)-1"
        guard try bus.requestName(name) else { throw .connection("the bus name \(name) is taken") }
        try bus.addMatch("type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
                         + "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(Self.watcherName)'")
    }

    /// Tells the watcher we are here (answered later; a missing watcher is no error: we register
    /// when one appears).
    func register() throws(DBusError) {
        registerSerial = try bus.send(.methodCall(destination: Self.watcherName, path: "/StatusNotifierWatcher",
                                                   interface: Self.watcherName, member: "RegisterStatusNotifierItem",
                                                   body: [.string(name)]))
        registrations += 1
    }

    /// Shows `new`: the properties change and a signal goes out for each part that differs.
    func update(_ new: TrayView, dashboard: Bool) throws(DBusError) {
        let changed = new.changes(from: view)
        view = new
        if new.icon.key != iconKey {
            iconKey = new.icon.key
            pixmaps = new.icon.pixmaps
        }
        func emit(_ member: String, _ body: [DBusValue] = []) throws(DBusError) {
            try bus.send(.signal(path: Self.itemPath, interface: Self.itemInterface, member: member, body: body))
        }
        if changed.title { try emit("NewTitle") }
        if changed.icon { try emit("NewIcon") }
        if changed.tooltip { try emit("NewToolTip") }
        if changed.status { try emit("NewStatus", [.string(new.status)]) }
        if changed.rows || dashboard != menu.dashboard {
            try showMenu(rows: new.rows, dashboard: dashboard)
        }
    }

    /// Changes the menu: the same entries with other labels are `ItemsPropertiesUpdated`; rows
    /// added or gone, or the dashboard shown or hidden, are a new layout (`LayoutUpdated`).
    func showMenu(rows: [String], dashboard: Bool) throws(DBusError) {
        let before = menu
        menu.rows = rows
        menu.dashboard = dashboard
        if before.rows.count == rows.count && before.dashboard == dashboard {
            var updated: [DBusValue] = []
            for (i, row) in rows.enumerated() where row != before.rows[i] {
                updated.append(.structure([.int32(TrayMenu.firstRowID + Int32(i)), .dictionary([("label", .string(TrayMenu.label(row)))])]))
            }
            guard !updated.isEmpty else { return }
            try bus.send(.signal(path: Self.menuPath, interface: Self.menuInterface, member: "ItemsPropertiesUpdated",
                                 body: [.array(element: "(ia{sv})", updated), .array(element: "(ias)", [])]))
        } else {
            menu.revision += 1
            try bus.send(.signal(path: Self.menuPath, interface: Self.menuInterface, member: "LayoutUpdated",
                                 body: [.uint32(menu.revision), .int32(0)]))
        }
    }

    /// A menu is about to open: whether `serve` answers is looked at again. Returns whether
    /// the layout changed.
    func menuAboutToShow() throws(DBusError) -> Bool {
        let dashboard = dashboardCheck()
        guard dashboard != menu.dashboard else { return false }
        try showMenu(rows: menu.rows, dashboard: dashboard)
        return true
    }

    /// The item's properties, by name.
    func itemProperties() -> [(String, DBusValue)] {
        let v = view
        let tooltip = DBusValue.structure([
            .string(""), .array(element: "(iiay)", []),
            .string(Pango.escape(v?.title ?? "")), .string(Pango.escape(v?.tooltip ?? "")),
        ])
        return [
            ("Category", .string("ApplicationStatus")),
            ("Id", .string(TrayView.id)),
            ("Title", .string(v?.title ?? TrayView.id)),
            ("Status", .string(v?.status ?? "Active")),
            ("WindowId", .int32(0)),
            ("IconName", .string("")),
            ("IconPixmap", pixmaps),
            ("IconThemePath", .string("")),
            ("OverlayIconName", .string("")),
            ("OverlayIconPixmap", .array(element: "(iiay)", [])),
            ("AttentionIconName", .string("")),
            ("AttentionIconPixmap", .array(element: "(iiay)", [])),
            ("AttentionMovieName", .string("")),
            ("ToolTip", tooltip),
            ("ItemIsMenu", .boolean(false)),
            ("Menu", .objectPath(Self.menuPath)),
        ]
    }

    static let menuProperties: [(String, DBusValue)] = [
        ("Version", .uint32(3)),
        ("TextDirection", .string("ltr")),
        ("Status", .string("normal")),
        ("IconThemePath", .array(element: "s", [])),
    ]

    /// Answers one message; returns what the user asked for, if anything.
    func handle(_ m: DBusMessage) throws(DBusError) -> TrayMenu.Action? {
        switch m.kind {
        case .signal:
            // A watcher appeared (a panel started or restarted): register with it.
            if m.member == "NameOwnerChanged", m.body.count == 3, m.body[0].string == Self.watcherName,
               m.body[2].string?.isEmpty == false {
                try register()
            }
            return nil
        case .error:
            if m.replySerial == registerSerial { registrationError = m.errorDescription.description }
            return nil
        case .methodReturn:
            if m.replySerial == registerSerial { registrationError = nil }
            return nil
        case .methodCall:
            break
        }
        var action: TrayMenu.Action?
        let reply: DBusMessage
        switch (m.path ?? "", m.interface ?? "", m.member ?? "") {
        case (_, "org.freedesktop.DBus.Peer", "Ping"):
            reply = .methodReturn(to: m)
        case (let path, "org.freedesktop.DBus.Introspectable", "Introspect"):
            reply = .methodReturn(to: m, body: [.string(TrayIntrospection.xml(for: path))])
        case (Self.itemPath, "org.freedesktop.DBus.Properties", let member), (Self.menuPath, "org.freedesktop.DBus.Properties", let member):
            let (interface, all) = m.path == Self.itemPath
                ? (Self.itemInterface, itemProperties()) : (Self.menuInterface, Self.menuProperties)
            let asked = m.body.first?.string ?? ""
            guard asked.isEmpty || asked == interface else {
                reply = .error(to: m, name: "org.freedesktop.DBus.Error.UnknownInterface", message: "no interface \(asked)")
                break
            }
            switch member {
            case "GetAll":
                reply = .methodReturn(to: m, body: [.dictionary(all)])
            case "Get":
                let property = m.body.count > 1 ? m.body[1].string ?? "" : ""
                if let value = all.first(where: { $0.0 == property })?.1 {
                    reply = .methodReturn(to: m, body: [.variant(value)])
                } else {
                    reply = .error(to: m, name: "org.freedesktop.DBus.Error.UnknownProperty", message: "no property \(property)")
                }
            case "Set":
                reply = .error(to: m, name: "org.freedesktop.DBus.Error.PropertyReadOnly", message: "read-only")
            default:
                reply = Self.unknown(m)
            }
        case (Self.itemPath, Self.itemInterface, let member), (Self.itemPath, "", let member):
            switch member {
            case "Activate":
                // A left click: what "Refresh now" does (as a click on `watch`'s bar does).
                action = .refresh
                reply = .methodReturn(to: m)
            case "ContextMenu", "SecondaryActivate", "Scroll", "ProvideXdgActivationToken":
                reply = .methodReturn(to: m)
            default:
                reply = Self.unknown(m)
            }
        case (Self.menuPath, Self.menuInterface, "AboutToShow"), (Self.menuPath, "", "AboutToShow"):
            let changed = try menuAboutToShow()
            reply = .methodReturn(to: m, body: [.boolean(changed)])
        case (Self.menuPath, Self.menuInterface, "AboutToShowGroup"), (Self.menuPath, "", "AboutToShowGroup"):
            let changed = try menuAboutToShow()
            reply = .methodReturn(to: m, body: [.array(element: "i", changed ? [.int32(0)] : []), .array(element: "i", [])])
        case (Self.menuPath, Self.menuInterface, let member), (Self.menuPath, "", let member):
            (reply, action) = handleMenu(m, member: member)
        default:
            reply = Self.unknown(m)
        }
        if m.wantsReply { try bus.send(reply) }
        return action
    }

    func handleMenu(_ m: DBusMessage, member: String) -> (DBusMessage, TrayMenu.Action?) {
        let body = m.body
        func ints(_ value: DBusValue?) -> [Int32] { (value?.elements ?? []).compactMap { $0.int.map(Int32.init) } }
        func strings(_ value: DBusValue?) -> [String] { (value?.elements ?? []).compactMap(\.string) }
        switch member {
        case "GetLayout":
            let parent = Int32(body.first?.int ?? 0)
            let depth = body.count > 1 ? body[1].int ?? -1 : -1
            guard let layout = menu.layout(parent: parent, depth: depth, names: strings(body.count > 2 ? body[2] : nil)) else {
                return (.error(to: m, name: "org.freedesktop.DBus.Error.InvalidArgs", message: "no menu entry \(parent)"), nil)
            }
            return (.methodReturn(to: m, body: layout), nil)
        case "GetGroupProperties":
            return (.methodReturn(to: m, body: [menu.groupProperties(ids: ints(body.first),
                                                                     names: strings(body.count > 1 ? body[1] : nil))]), nil)
        case "GetProperty":
            let id = Int32(body.first?.int ?? -1)
            let name = body.count > 1 ? body[1].string ?? "" : ""
            let all = id == 0 ? TrayMenu.rootProperties : menu.entries.first { $0.id == id }?.properties ?? []
            guard let value = all.first(where: { $0.0 == name })?.1 else {
                return (.error(to: m, name: "org.freedesktop.DBus.Error.InvalidArgs", message: "no property \(name) on \(id)"), nil)
            }
            return (.methodReturn(to: m, body: [.variant(value)]), nil)
        case "Event":
            let id = Int32(body.first?.int ?? -1)
            let event = body.count > 1 ? body[1].string ?? "" : ""
            return (.methodReturn(to: m), event == "clicked" ? TrayMenu.action(for: id) : nil)
        case "EventGroup":
            var action: TrayMenu.Action?
            var missing: [DBusValue] = []
            for e in body.first?.elements ?? [] {
                let fields = e.elements
                guard fields.count >= 2, let id = fields[0].int.map(Int32.init) else { continue }
                if id != 0 && !menu.entries.contains(where: { $0.id == id }) { missing.append(.int32(id)) }
                if fields[1].string == "clicked", let a = TrayMenu.action(for: id) { action = a }
            }
            return (.methodReturn(to: m, body: [.array(element: "i", missing)]), action)
        default:
            return (Self.unknown(m), nil)
        }
    }

    static func unknown(_ m: DBusMessage) -> DBusMessage {
        .error(to: m, name: "org.freedesktop.DBus.Error.UnknownMethod",
               message: "no method \(m.member ?? "") on \(m.interface ?? "") at \(m.path ?? "")")
    }
}
