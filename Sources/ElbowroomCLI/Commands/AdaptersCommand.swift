import ElbowroomCore
import ElbowroomAdapters

/// `elbowroom adapters`: every adapter, built-in and plugin, with one line each. A plugin's
/// summary holds its path (from `PATH` or the config dir): printed without controls, on one line.
enum AdaptersCommand {
    static func run(context: CLIContext) -> Int32 {
        let adapters = AdapterRegistry.all(paths: context.paths, environment: context.environment)
        let width = adapters.map(\.name.count).max() ?? 0
        for adapter in adapters {
            let line = "\(adapter.name)\(String(repeating: " ", count: width - adapter.name.count))  \(adapter.summary)"
            context.stdout.write(SafeText.clean(line, lines: .join) + "\n")
        }
        return 0
    }
}
