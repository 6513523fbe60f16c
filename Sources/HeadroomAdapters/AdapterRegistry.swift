import HeadroomCore

/// The one list of built-in adapters. Plugins (`headroom-adapter-NAME`) are found at run time.
public enum AdapterRegistry {
    public static let builtIn: [any OutputAdapter] = [
        PlainAdapter(),
    ]

    public static func builtIn(named name: String) -> (any OutputAdapter)? {
        builtIn.first { $0.name == name }
    }
}

// TEMPORARY (lead): replaced by the adapters branch at merge.
extension AdapterRegistry {
    public static func resolve(name: String, paths: Paths, environment: HeadroomEnvironment) -> (any OutputAdapter)? {
        builtIn(named: name)
    }
    public static func all(paths: Paths, environment: HeadroomEnvironment) -> [any OutputAdapter] {
        builtIn
    }
}
public struct ClickEvent: Sendable { public var name: String?; public var instance: String?; public var button: Int }
public enum ClickEventParser { public static func parse(line: String) -> ClickEvent? { nil } }
