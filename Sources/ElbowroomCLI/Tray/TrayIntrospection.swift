/// What `Introspect` answers for each object the tray exports.
enum TrayIntrospection {
    static let header = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">

        """

    static let common = """
          <interface name="org.freedesktop.DBus.Introspectable">
            <method name="Introspect"><arg name="xml" type="s" direction="out"/></method>
          </interface>
          <interface name="org.freedesktop.DBus.Peer">
            <method name="Ping"/>
          </interface>
          <interface name="org.freedesktop.DBus.Properties">
            <method name="Get"><arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="v" direction="out"/></method>
            <method name="GetAll"><arg type="s" direction="in"/><arg type="a{sv}" direction="out"/></method>
            <method name="Set"><arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="v" direction="in"/></method>
          </interface>

        """

    static let item = """
          <interface name="org.kde.StatusNotifierItem">
            <property name="Category" type="s" access="read"/>
            <property name="Id" type="s" access="read"/>
            <property name="Title" type="s" access="read"/>
            <property name="Status" type="s" access="read"/>
            <property name="WindowId" type="i" access="read"/>
            <property name="IconName" type="s" access="read"/>
            <property name="IconPixmap" type="a(iiay)" access="read"/>
            <property name="IconThemePath" type="s" access="read"/>
            <property name="OverlayIconName" type="s" access="read"/>
            <property name="OverlayIconPixmap" type="a(iiay)" access="read"/>
            <property name="AttentionIconName" type="s" access="read"/>
            <property name="AttentionIconPixmap" type="a(iiay)" access="read"/>
            <property name="AttentionMovieName" type="s" access="read"/>
            <property name="ToolTip" type="(sa(iiay)ss)" access="read"/>
            <property name="ItemIsMenu" type="b" access="read"/>
            <property name="Menu" type="o" access="read"/>
            <method name="ContextMenu"><arg name="x" type="i" direction="in"/><arg name="y" type="i" direction="in"/></method>
            <method name="Activate"><arg name="x" type="i" direction="in"/><arg name="y" type="i" direction="in"/></method>
            <method name="SecondaryActivate"><arg name="x" type="i" direction="in"/><arg name="y" type="i" direction="in"/></method>
            <method name="Scroll"><arg name="delta" type="i" direction="in"/><arg name="orientation" type="s" direction="in"/></method>
            <signal name="NewTitle"/>
            <signal name="NewIcon"/>
            <signal name="NewAttentionIcon"/>
            <signal name="NewOverlayIcon"/>
            <signal name="NewToolTip"/>
            <signal name="NewStatus"><arg name="status" type="s"/></signal>
          </interface>

        """

    static let menu = """
          <interface name="com.canonical.dbusmenu">
            <property name="Version" type="u" access="read"/>
            <property name="TextDirection" type="s" access="read"/>
            <property name="Status" type="s" access="read"/>
            <property name="IconThemePath" type="as" access="read"/>
            <method name="GetLayout">
              <arg name="parentId" type="i" direction="in"/><arg name="recursionDepth" type="i" direction="in"/>
              <arg name="propertyNames" type="as" direction="in"/>
              <arg name="revision" type="u" direction="out"/><arg name="layout" type="(ia{sv}av)" direction="out"/>
            </method>
            <method name="GetGroupProperties">
              <arg name="ids" type="ai" direction="in"/><arg name="propertyNames" type="as" direction="in"/>
              <arg name="properties" type="a(ia{sv})" direction="out"/>
            </method>
            <method name="GetProperty">
              <arg name="id" type="i" direction="in"/><arg name="name" type="s" direction="in"/><arg name="value" type="v" direction="out"/>
            </method>
            <method name="Event">
              <arg name="id" type="i" direction="in"/><arg name="eventId" type="s" direction="in"/>
              <arg name="data" type="v" direction="in"/><arg name="timestamp" type="u" direction="in"/>
            </method>
            <method name="EventGroup">
              <arg name="events" type="a(isvu)" direction="in"/><arg name="idErrors" type="ai" direction="out"/>
            </method>
            <method name="AboutToShow">
              <arg name="id" type="i" direction="in"/><arg name="needUpdate" type="b" direction="out"/>
            </method>
            <method name="AboutToShowGroup">
              <arg name="ids" type="ai" direction="in"/><arg name="updatesNeeded" type="ai" direction="out"/>
              <arg name="idErrors" type="ai" direction="out"/>
            </method>
            <signal name="ItemsPropertiesUpdated">
              <arg name="updatedProps" type="a(ia{sv})"/><arg name="removedProps" type="a(ias)"/>
            </signal>
            <signal name="LayoutUpdated"><arg name="revision" type="u"/><arg name="parent" type="i"/></signal>
            <signal name="ItemActivationRequested"><arg name="id" type="i"/><arg name="timestamp" type="u"/></signal>
          </interface>

        """

    static func xml(for path: String) -> String {
        switch path {
        case TrayItem.itemPath: return header + "<node>\n" + common + item + "</node>\n"
        case TrayItem.menuPath: return header + "<node>\n" + common + menu + "</node>\n"
        case "/": return header + "<node>\n" + common + "  <node name=\"StatusNotifierItem\"/>\n  <node name=\"MenuBar\"/>\n</node>\n"
        default: return header + "<node>\n" + common + "</node>\n"
        }
    }
}
