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
