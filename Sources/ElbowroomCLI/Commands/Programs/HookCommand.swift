import ElbowroomCore
import ElbowroomTemplate
import ElbowroomAdapters

/// `elbowroom hook`: a Claude Code hook (`SessionStart`, `UserPromptSubmit`; `elbowroom init
/// claude-hook` prints the settings). When a window needs attention (warn or critical) it prints
/// the hook output that adds one short line of context, `Weekly limit: 12% left, resets Thu
/// 09:00.`; otherwise nothing. Reads the cache only (a due fetch starts in the background, as a
/// render starts it), and always exits 0: a hook that fails would get in the prompt's way.
enum HookCommand {
    /// The events whose JSON output carries `additionalContext`.
    static let contextEvents = ["SessionStart", "UserPromptSubmit"]

    static func run(offline: Bool, context: CLIContext) -> Int32 {
        let event = eventName(context.readStdin())
        guard let config = try? Config.load(paths: context.paths) else { return 0 }
        let store = CacheStore(paths: context.paths)
        guard case .loaded(let cache) = store.read() else { return 0 }
        let view = UsageView(cache: cache, now: context.now(), config: config, provider: context.paths.provider)
        if let line = attentionLine(view) {
            context.stdout.write(output(line, event: event))
        }
        if !offline { _ = FetchTrigger(context: context, store: store, config: config).startIfDue(cache: cache) }
        return 0
    }

    /// The line for the window with the least left among those at warn or critical; `nil` when
    /// all is well.
    static func attentionLine(_ view: UsageView, localTime: LocalTime = .system) -> String? {
        guard view.age != nil else { return nil }
        var least: WindowView?
        for window in view.windows where window.level != .ok && window.left < (least?.left ?? .infinity) {
            least = window
        }
        guard let least else { return nil }
        let label = SafeText.prefix(SafeText.clean(least.label, lines: .join), maxBytes: 64)
        let reset = least.resetsAt.map { ", resets \(localTime.format($0, "%a %H:%M"))" } ?? ""
        return "\(label) limit: \(PercentText.whole(least.left))% left\(reset)."
    }

    /// The hook's stdout: JSON with `additionalContext` for the events that take it, the plain
    /// line (which Claude Code also adds as context) otherwise.
    static func output(_ line: String, event: String?) -> String {
        guard let event, contextEvents.contains(event) else { return line + "\n" }
        let specific = JSONValue.object([("hookEventName", .string(event)), ("additionalContext", .string(line))])
        return JSONValue.object([("hookSpecificOutput", specific)]).encoded + "\n"
    }

    /// `hook_event_name` from the hook's JSON input, if it has one.
    static func eventName(_ input: Data?) -> String? {
        guard let input, !input.isEmpty else { return nil }
        var reader = JSONReader(input)
        var name: String?
        do {
            try reader.object { reader, key throws(JSONReader.Failure) in
                if key == "hook_event_name", reader.atString() { name = try reader.string() } else { try reader.skipValue() }
            }
        } catch {
            return nil
        }
        return name
    }
}
