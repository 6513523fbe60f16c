import ElbowroomCore
import ElbowroomAdapters

/// `elbowroom init claude --keep`: the settings that keep the status line you have and add
/// elbowroom's. It reads `statusLine` from Claude Code's settings.json (`$CLAUDE_CONFIG_DIR`, else
/// `~/.claude`) and prints a `statusLine` whose command is
/// `elbowroom -a claude --then '<your command>'`: your command quoted for `sh` (inside single
/// quotes, a `'` as `'\''`) and the whole for JSON. Your other statusLine keys (`padding`,
/// `refreshInterval`, …) are kept; `refreshInterval` is 30 when you had none. Nothing is written:
/// paste it over the old `statusLine`.
enum KeepStatusLine {
    static func run(context: CLIContext) -> Int32 {
        let file = context.paths.claudeConfigDir + "/settings.json"
        guard let data = FileSystem.read(file) else {
            context.stderr.write("elbowroom: no \(file) to read a status line from; 'elbowroom init claude' prints one of elbowroom's own\n")
            return 1
        }
        let settings: JSONDocument
        do {
            settings = try JSONDocument.parse(bytes: [UInt8](data), grammar: .rfc8259)
        } catch {
            context.stderr.write("elbowroom: \(file) is not JSON elbowroom can read (at byte \(error.offset))\n")
            return 1
        }
        guard let statusLine = settings["statusLine"], case .object(let members) = statusLine,
              let command = statusLine["command"]?.stringValue,
              !command.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\n" }) else {
            context.stderr.write("elbowroom: \(file) has no statusLine command to keep; 'elbowroom init claude' prints one of elbowroom's own\n")
            return 1
        }
        if isElbowroom(command) {
            context.stderr.write("elbowroom: the statusLine in \(file) already runs elbowroom: \(SafeText.firstLine(command))\n")
            return 1
        }
        var program = "elbowroom"
        if case .fullPath(let path) = InitCommand.programName(context: context) { program = path }
        var kept: [(String, JSONDocument)] = [
            ("type", .string("command")),
            ("command", .string(wrapped(command, program: program))),
        ]
        for member in members where member.key != "type" && member.key != "command" { kept.append((member.key, member.value)) }
        if !kept.contains(where: { $0.0 == "padding" }) { kept.append(("padding", .number(0))) }
        if !kept.contains(where: { $0.0 == "refreshInterval" }) { kept.append(("refreshInterval", .number(30))) }
        context.stdout.write(JSONDocument.fields([("statusLine", .fields(kept))]).pretty() + "\n")
        context.stderr.write("""
            elbowroom: put this in place of the statusLine in \(file). Your command still runs, on \
            the same input, and shows first; elbowroom's line follows it (--then-position before \
            puts it first, none leaves it out and only takes in the numbers). A command that fails \
            or takes over \(Int(StatusLineChain.timeout)) s shows a short reason instead.

            """)
        return 0
    }

    /// `program -a claude --then '<command>'`.
    static func wrapped(_ command: String, program: String) -> String {
        program + " -a claude --then " + shellQuoted(command)
    }

    /// In single quotes for `sh`: nothing inside is special but `'`, written `'\''`.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacing("'", with: #"'\''"#) + "'"
    }

    /// Whether the command is elbowroom's status line already (wrapping it again would run
    /// elbowroom twice).
    static func isElbowroom(_ command: String) -> Bool {
        let words = command.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let first = words.first else { return false }
        let name = first.split(separator: "/").last.map(String.init) ?? ""
        return name == "elbowroom" && words.contains("claude")
    }
}
