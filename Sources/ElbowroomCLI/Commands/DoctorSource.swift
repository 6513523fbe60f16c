import ElbowroomCore

extension DoctorCommand {
    /// Which `source` is on, in one line that fits 80 columns with its mark (what each means is
    /// in docs/configuration.md).
    static func sourceLine(config: Config) -> Line {
        switch config.usageSource {
        case .api:
            return Line(ok: true, text: "source: api (Claude Code's login asks Anthropic; no statusline)")
        case .statusLine:
            return Line(ok: true, text: "source: statusline (no login read, no network; 5h and 7d only)")
        }
    }

    /// In statusline mode, whether this account's Claude Code settings run elbowroom as the
    /// status line (the only way data arrives then). Reads Claude Code's `settings.json`, never
    /// the credentials.
    static func statusLineSetting(config: Config, paths: Paths) -> [Line] {
        guard config.usageSource == .statusLine else { return [] }
        let settings = paths.claudeConfigDir + "/settings.json"
        let command = statusLineCommand(settingsFile: settings)
        if let command, command.contains("elbowroom") {
            return [Line(ok: true, text: "status line: \(settings) runs '\(command)'")]
        }
        return [Line(ok: false, text: "status line: \(settings) \(command.map { "runs '\($0)', not elbowroom" } ?? "has no statusLine command"): without it no data arrives; `elbowroom init claude` prints the snippet")]
    }

    /// `statusLine.command` from Claude Code's settings, or `nil`.
    static func statusLineCommand(settingsFile: String) -> String? {
        struct Settings: Decodable {
            struct StatusLine: Decodable { var command: String? }
            var statusLine: StatusLine?
        }
        guard let data = FileSystem.read(settingsFile, limit: 1 << 20) else { return nil }
        return (try? JSONDecoder().decode(Settings.self, from: data))?.statusLine?.command
    }
}
