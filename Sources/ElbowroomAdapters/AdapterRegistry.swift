// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// The one list of built-in adapters, and the lookup that adds plugins
/// (`elbowroom-adapter-NAME` executables, see `PluginDiscovery`).
public enum AdapterRegistry {
    public static let builtIn: [any OutputAdapter] = [
        PlainAdapter(),
        ANSIAdapter(),
        BashAdapter(),
        ZshAdapter(),
        FishAdapter(),
        TmuxAdapter(),
        WaybarAdapter(),
        I3barAdapter(),
        I3blocksAdapter(),
        I3blocksJSONAdapter(),
        PolybarAdapter(),
        SwiftBarAdapter(),
        ClaudeAdapter(),
        JSONAdapter(),
        PrometheusAdapter(),
    ]

    /// The built-in adapter `name` (or an alias of it) names. A switch, not a search of
    /// `builtIn`: that array's first use costs every render the runtime's metadata for
    /// `[any OutputAdapter]` (~8 k instructions); `AdapterRegistryTests` holds the two equal.
    public static func builtIn(named name: String) -> (any OutputAdapter)? {
        switch canonicalName(name) {
        case "plain": PlainAdapter()
        case "ansi": ANSIAdapter()
        case "bash": BashAdapter()
        case "zsh": ZshAdapter()
        case "fish": FishAdapter()
        case "tmux": TmuxAdapter()
        case "waybar": WaybarAdapter()
        case "i3bar": I3barAdapter()
        case "i3blocks": I3blocksAdapter()
        case "i3blocks-json": I3blocksJSONAdapter()
        case "polybar": PolybarAdapter()
        case "swiftbar": SwiftBarAdapter()
        case "claude": ClaudeAdapter()
        case "json": JSONAdapter()
        case "prometheus": PrometheusAdapter()
        default: nil
        }
    }

    /// The names `canonicalName` takes for another, for did-you-mean and `--help` (a test holds
    /// the two equal).
    public static let aliasNames = ["i3", "sway", "swaybar"]

    /// The names people type from memory for an adapter of another name: the window manager's
    /// or the bar's (`-a sway` is the i3bar protocol swaybar speaks). A switch: it runs on every
    /// render.
    public static func canonicalName(_ name: String) -> String {
        switch name {
        case "i3", "sway", "swaybar": "i3bar"
        default: name
        }
    }

    /// A built-in adapter by name, else the first plugin `elbowroom-adapter-NAME` in the user's
    /// adapters dir, then in `PATH`. Built-ins cannot be shadowed. A plugin another user could
    /// change (`ExecutableTrust`) is found but not run: its output says why.
    public static func resolve(name: String, paths: Paths, environment: ElbowroomEnvironment,
                               spawner: any ProcessSpawner = PosixSpawner()) -> (any OutputAdapter)? {
        if let adapter = builtIn(named: name) { return adapter }
        guard let path = PluginDiscovery.find(name: name, paths: paths, environment: environment) else { return nil }
        return ExternalAdapter(name: name, path: path, environment: environment, spawner: spawner,
                               refusal: ExecutableTrust.refusal(path))
    }

    /// Every adapter for `elbowroom adapters`: the built-ins in registry order, then plugins by name.
    public static func all(paths: Paths, environment: ElbowroomEnvironment,
                           spawner: any ProcessSpawner = PosixSpawner()) -> [any OutputAdapter] {
        let plugins = PluginDiscovery.all(paths: paths, environment: environment)
            .filter { builtIn(named: $0.name) == nil }
            .map { ExternalAdapter(name: $0.name, path: $0.path, environment: environment, spawner: spawner,
                                   refusal: ExecutableTrust.refusal($0.path)) }
        return builtIn + plugins
    }
}
