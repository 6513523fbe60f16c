import ElbowroomCore

extension DoctorCommand {
    /// Which `source` is on and what it means; in statusline mode, whether Claude Code's settings
    /// run elbowroom as the status line (the only way data arrives then). Reads Claude Code's
    /// `settings.json`, never the credentials.
    static func source(config: Config, paths: Paths) -> [Line] {
        switch config.usageSource {
        case .api:
            return [Line(ok: true, text: "source: api — elbowroom-fetch reads Claude Code's login to ask Anthropic's usage endpoint (every window, extra usage); Claude Code's status line adds fresh 5-hour and weekly numbers for free. source = \"statusline\" never touches the login")]
        case .statusLine:
            var lines = [Line(ok: true, text: "source: statusline — elbowroom never reads the Claude login, never starts elbowroom-fetch, never uses the network; it shows what Claude Code's status line last saw: the 5-hour and weekly windows only, fresh only while Claude Code runs (no per-model windows, no extra usage)")]
            let settings = paths.claudeConfigDir + "/settings.json"
            let command = statusLineCommand(settingsFile: settings)
            if let command, command.contains("elbowroom") {
                lines.append(Line(ok: true, text: "status line: \(settings) runs '\(command)'"))
            } else {
                lines.append(Line(ok: false, text: "status line: \(settings) \(command.map { "runs '\($0)', not elbowroom" } ?? "has no statusLine command"): without it no data arrives; `elbowroom init claude` prints the snippet"))
            }
            return lines
        }
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
