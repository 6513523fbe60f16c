import ElbowroomCore
import ElbowroomAdapters

/// `elbowroom adapters`: every adapter, built-in and plugin, with one line each.
enum AdaptersCommand {
    static func run(context: CLIContext) -> Int32 {
        let adapters = AdapterRegistry.all(paths: context.paths, environment: context.environment)
        let width = adapters.map(\.name.count).max() ?? 0
        for adapter in adapters {
            context.stdout.write("\(adapter.name)\(String(repeating: " ", count: width - adapter.name.count))  \(adapter.summary)\n")
        }
        return 0
    }
}
