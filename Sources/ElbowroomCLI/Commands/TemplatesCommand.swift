import ElbowroomCore
import ElbowroomTemplate

/// `elbowroom templates [list | show NAME | check FILE|TEXT]`.
/// `check` parses a file (when the argument names one) or inline text, prints errors with line,
/// column, caret and did-you-mean (exit 2), or renders it against the demo reading (exit 0).
enum TemplatesCommand {
    static func run(_ action: Invocation.TemplatesAction, context: CLIContext) -> Int32 {
        let paths = context.paths
        switch action {
        case .list:
            let rows = TemplateLibrary.list(paths: paths)
            let width = rows.map(\.name.count).max() ?? 0
            for row in rows {
                let pad = String(repeating: " ", count: width - row.name.count)
                context.stdout.write("\(row.name)\(pad)  \(row.summary)\(row.origin == "shipped" ? "" : "  (\(row.origin))")\n")
            }
            return 0
        case .show(let name):
            let found: String?
            do {
                found = try TemplateLibrary.source(named: name, paths: paths)
            } catch {
                context.stderr.write(error.description + "\n")
                return 2
            }
            guard let source = found else {
                let names = TemplateLibrary.list(paths: paths).map(\.name)
                context.stderr.write("elbowroom: unknown template '\(name)'\(Suggest.hint(for: name, in: names))\n")
                return 2
            }
            context.stdout.write(source.hasSuffix("\n") ? source : source + "\n")
            return 0
        case .check(let argument):
            var name = "template"
            var source = argument
            if FileSystem.exists(argument) {
                guard let data = FileSystem.read(argument, limit: 1 << 20), let text = String(data: data, encoding: .utf8) else {
                    context.stderr.write("elbowroom: cannot read \(argument)\n")
                    return 2
                }
                name = argument
                source = text.hasSuffix("\n") ? String(text.dropLast()) : text
            }
            do {
                let template = try Template.parse(source, name: name)
                let now = context.now()
                let view = UsageView(cache: DemoReading.cache(now: now), now: now, config: Config(), history: DemoReading.history(now: now))
                context.stdout.write("ok: \(name) renders against the demo reading as:\n")
                context.stdout.write(template.render(view).plainText + "\n")
                return 0
            } catch {
                context.stderr.write(error.description + "\n")
                return 2
            }
        }
    }
}
