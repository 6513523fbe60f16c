/// Ready-to-paste snippets for `elbowroom init NAME`: the source of the files in `integrations/`,
/// which `scripts/generate` writes from these (the installed binary has no integrations/ dir).
public enum IntegrationSnippets {
    /// One snippet: everything `init`, the README's table, completions and `--write` know of it.
    public struct Snippet: Sendable {
        public let name: String
        /// The file in `integrations/` that holds `text`.
        public let file: String
        /// What it sets up, for the README's table and `init`'s word on an alias.
        public let summary: String
        /// For a systemd snippet (`init NAME --write` puts its units in place), the unit
        /// `systemctl --user enable --now` starts; what `init systemd` lists.
        public let enable: String?
        /// Whether it shows the numbers (not Prometheus gauges or notifications): `init` then
        /// says what they mean.
        public let showsNumbers: Bool
        public let text: String

        init(_ name: String, file: String, summary: String, enable: String? = nil, showsNumbers: Bool = true, text: String) {
            self.name = name
            self.file = file
            self.summary = summary
            self.enable = enable
            self.showsNumbers = showsNumbers
            self.text = text
        }

        /// A systemd service `unit`.service and the timer that starts it every minute: the
        /// two-unit head, the service (its text after its path line), the timer.
        static func everyMinute(_ name: String, unit: String, summary: String, timer: String, service: String) -> Snippet {
            Snippet(name, file: name + ".systemd", summary: summary, enable: unit + ".timer", showsNumbers: false, text: """
                # Two systemd user units: put each file below in ~/.config/systemd/user/ (or let
                # `elbowroom init \(name) --write` put them there), then:
                \(enableLine(unit + ".timer"))

                \(unitMarker)\(unit).service
                \(service)

                \(unitMarker)\(unit).timer
                [Unit]
                Description=elbowroom: \(timer)

                [Timer]
                OnBootSec=1min
                OnUnitActiveSec=1min

                [Install]
                WantedBy=timers.target
                """)
        }

        /// One systemd service `unit`.service, started at login: the one-unit head, then the
        /// service (its text after its path line).
        static func service(_ name: String, unit: String, summary: String, service: String) -> Snippet {
            Snippet(name, file: name + ".service", summary: summary, enable: unit + ".service", showsNumbers: false, text: """
                # One systemd user unit: put the file below in ~/.config/systemd/user/ (or let
                # `elbowroom init \(name) --write` put it there), then:
                \(enableLine(unit + ".service"))

                \(unitMarker)\(unit).service
                \(service)
                """)
        }
    }

    /// The line of a systemd snippet that starts `unit`.
    static func enableLine(_ unit: String) -> String {
        "#   systemctl --user daemon-reload && systemctl --user enable --now \(unit)"
    }

    /// Every snippet, in the order `init`'s usage, the README and completions list them.
    public static let snippets: [Snippet] = [
        Snippet("waybar", file: "waybar.jsonc",
                summary: "a waybar module, re-run every 30 s, coloured by level through style.css",
                text: #"""
// ~/.config/waybar/config: add "custom/elbowroom" to "modules-right", then:
"custom/elbowroom": {
    "exec": "elbowroom -a waybar",
    "return-type": "json",
    "interval": 30,
    "on-click": "elbowroom fetch >/dev/null 2>&1",
    "tooltip": true
}
// Or one long-running process instead of one every 30 s (drop "interval"):
//     "exec": "elbowroom watch -a waybar --interval 5",
//
// ~/.config/waybar/style.css: the class is the level (ok / warn / critical), plus "stale":
//     #custom-elbowroom.warn     { color: #e5e510; }
//     #custom-elbowroom.critical { color: #f14c4c; }
//     #custom-elbowroom.stale    { opacity: 0.6; }
"""#),
        Snippet("i3", file: "i3.conf",
                summary: "i3bar's status line (replaces i3status), clickable",
                text: #"""
# ~/.config/i3/config: elbowroom as the whole status line (left click: refresh now,
# right click: next template; SIGUSR1 also refreshes: pkill -USR1 -f 'elbowroom watch').
# This replaces i3status: a bar has one status_command. To keep i3status's blocks
# beside it, use i3blocks instead: elbowroom init i3blocks
bar {
    status_command elbowroom watch -a i3bar
}
"""#),
        Snippet("sway", file: "sway.conf",
                summary: "swaybar's status line, clickable",
                text: #"""
# ~/.config/sway/config: elbowroom as swaybar's status command (left click: refresh now,
# right click: next template). This replaces the bar's other status_command.
bar {
    status_command elbowroom watch -a i3bar
}
# Using waybar instead? elbowroom init waybar
"""#),
        Snippet("i3blocks", file: "i3blocks.conf",
                summary: "an i3blocks block, re-run every 30 s (urgent when critical)",
                text: #"""
# ~/.config/i3blocks/config: re-run every 30 s (exit 33 marks the block urgent when critical)
[elbowroom]
command=elbowroom -a i3blocks
interval=30

# Or one long-running process with JSON output:
# [elbowroom]
# command=elbowroom watch -a i3blocks --interval 5
# interval=persist
# format=json
"""#),
        Snippet("tmux", file: "tmux.conf",
                summary: "the right of tmux's status line",
                text: #"""
# ~/.tmux.conf: elbowroom in the status line (tmux runs it in the background, at most once
# a second, and shows the last output; styles are tmux #[fg=…] markup). The length fits
# three [accounts.NAME] side by side and the clock.
set -g status-interval 15
set -g status-right-length 240
set -g status-right '#(elbowroom -a tmux) %H:%M'
"""#),
        Snippet("bash", file: "bash.sh",
                summary: "the start of the bash prompt",
                text: #"""
# ~/.bashrc: elbowroom at the start of the prompt (escapes are wrapped in \001…\002 so
# line editing keeps the right width; nothing once elbowroom is uninstalled)
PS1='$(command -v elbowroom >/dev/null && elbowroom -a bash) '"$PS1"
"""#),
        Snippet("zsh", file: "zsh.zsh",
                summary: "zsh's right prompt",
                text: #"""
# ~/.zshrc: elbowroom on the right of the prompt (nothing once it is uninstalled)
setopt prompt_subst
RPROMPT='$(command -v elbowroom >/dev/null && elbowroom -a zsh)'
"""#),
        Snippet("fish", file: "fish.fish",
                summary: "fish's right prompt",
                text: #"""
# ~/.config/fish/functions/fish_right_prompt.fish: elbowroom on the right of the prompt
# (nothing once it is uninstalled)
function fish_right_prompt
    command -q elbowroom; and elbowroom -a fish
end
"""#),
        Snippet("starship", file: "starship.toml",
                summary: "a starship custom module",
                text: #"""
# ~/.config/starship.toml: elbowroom as a custom module (starship styles it; plain text in;
# bold in the terminal's own colour reads on light and dark themes, where yellow does not)
[custom.elbowroom]
command = "elbowroom -a plain -t minimal"
when = true
shell = ["sh"]
format = "[$output]($style) "
style = "bold"
"""#),
        Snippet("claude", file: "claude.json",
                summary: "Claude Code's own status line (and free fresh numbers for the rest)",
                text: #"""
{
  "statusLine": {
    "type": "command",
    "command": "elbowroom -a claude",
    "padding": 0,
    "refreshInterval": 30
  }
}
"""#),
        Snippet("polybar", file: "polybar.ini",
                summary: "a polybar module, long-running, click to refresh",
                text: #"""
; ~/.config/polybar/config.ini: add "elbowroom" to modules-right, then:
[module/elbowroom]
type = custom/script
exec = elbowroom watch -a polybar --interval 5
tail = true
click-left = elbowroom fetch >/dev/null 2>&1
"""#),
        Snippet("swiftbar", file: "swiftbar.sh",
                summary: "a SwiftBar / xbar menu bar item (macOS)",
                text: #"""
#!/bin/sh
# Save as elbowroom.30s.sh in your SwiftBar plugin folder and make it executable
# (chmod +x). SwiftBar's PATH is short: `elbowroom init swiftbar` names elbowroom by
# its full path when it is not in /usr/local/bin.
# <swiftbar.hideRunInTerminal>true</swiftbar.hideRunInTerminal>
exec elbowroom -a swiftbar
"""#),
        .everyMinute("prometheus", unit: "elbowroom-prometheus",
                     summary: "a systemd timer writing gauges for node_exporter's textfile collector (alias node-exporter)",
                     timer: "refresh the Claude usage gauges every minute", service: #"""
# The textfile-collector route, without a listening port of our own: the timer writes what
# `elbowroom -a prometheus` prints into node_exporter's textfile directory (start node_exporter
# with --collector.textfile.directory=DIR, the DIR below), to a temporary file there first, then
# renamed, so node_exporter never reads half a file. (For a port instead: elbowroom init serve.)
[Unit]
Description=elbowroom: Claude usage gauges for node_exporter's textfile collector

[Service]
Type=oneshot
Environment=DIR=%h/.local/share/node_exporter
ExecStart=/bin/sh -c 'mkdir -p "$DIR" && t=$(mktemp "$DIR/.elbowroom.XXXXXX") && elbowroom -a prometheus --wait > "$t" && chmod 644 "$t" && mv -f "$t" "$DIR/elbowroom.prom" || { rm -f "$t"; exit 1; }'
"""#),
        .everyMinute("systemd-notify", unit: "elbowroom-notify",
                     summary: "a systemd timer sending desktop notifications on warn, critical, used up",
                     timer: "check Claude usage for notifications every minute", service: #"""
# A desktop notification when a Claude usage window crosses into warn or critical, reaches
# 100 %, will run out before it resets at the current rate (and, if [notify] reset = true, when
# it resets) — once per crossing, however many bars and timers run. For setups without a
# long-running bar (`elbowroom watch --notify` does the same inside one). Needs notify-send
# (libnotify-bin) and a notification daemon, or notify_command in the config; try the route
# with `elbowroom notify --test`.
[Unit]
Description=elbowroom: notify about Claude usage crossings

[Service]
Type=oneshot
ExecStart=elbowroom notify
"""#),
        Snippet("claude-hook", file: "claude-hook.json",
                summary: "a Claude Code hook: one line of context when a window is low",
                text: #"""
{
  "hooks": {
    "SessionStart": [
      { "hooks": [{ "type": "command", "command": "elbowroom hook", "timeout": 5 }] }
    ],
    "UserPromptSubmit": [
      { "hooks": [{ "type": "command", "command": "elbowroom hook", "timeout": 5 }] }
    ]
  }
}
"""#),
        .service("serve", unit: "elbowroom-serve",
                 summary: "a systemd service answering GET /metrics and /v1/usage on loopback", service: #"""
# Claude usage over HTTP on loopback, for Prometheus (GET /metrics) and programs (GET /v1/usage,
# /healthz). Any number of scrapers cause no extra requests to Anthropic: serve reads the cache
# and fetches as a render would. Prometheus (prometheus.yml):
#   scrape_configs:
#     - job_name: elbowroom
#       static_configs: [{ targets: ["127.0.0.1:9478"] }]
[Unit]
Description=elbowroom: Claude usage for Prometheus and programs (GET /metrics, /v1/usage)

[Service]
ExecStart=elbowroom serve --listen 127.0.0.1:9478
Restart=on-failure
NoNewPrivileges=yes
PrivateTmp=yes

[Install]
WantedBy=default.target
"""#),
        Snippet("mcp", file: "mcp.sh",
                summary: "an MCP server for Claude Code, Codex and other agents: the tool get_headroom",
                showsNumbers: false,
                text: #"""
# elbowroom as an MCP server: any agent that speaks MCP gets the tool get_headroom (each usage
# window's percent left, reset, burn rate, and a one-line advice). Read-only, from the cache.
#
# Claude Code, for every project (user scope):
claude mcp add --scope user elbowroom -- elbowroom mcp
#   and to let it call the tool without asking, in ~/.claude/settings.json:
#   { "permissions": { "allow": ["mcp__elbowroom__get_headroom"] } }
#
# Or one project's .mcp.json (or a file for claude --mcp-config):
# { "mcpServers": { "elbowroom": { "command": "elbowroom", "args": ["mcp"] } } }
#
# Codex, in ~/.codex/config.toml:
# [mcp_servers.elbowroom]
# command = "elbowroom"
# args = ["mcp"]
#
# Any other client (OpenCode, Cursor, Gemini CLI, …): a stdio server, command elbowroom, args ["mcp"].
"""#),
        Snippet("tray", file: "tray.service",
                summary: "a tray icon for Linux desktops: systemd user unit or XDG autostart entry",
                enable: "elbowroom-tray.service",
                text: #"""
# A tray icon with Claude usage headroom (a StatusNotifierItem) in KDE Plasma, GNOME (with the
# AppIndicator extension), XFCE, Cinnamon, LXQt or waybar's tray. Menu: every window, Refresh
# now, Open dashboard (while elbowroom serve runs), Quit.
#
# GNOME and KDE Plasma (they start graphical-session.target): one systemd user unit. Put the
# file below in ~/.config/systemd/user/ (or let `elbowroom init tray --write` put it there), then:
#   systemctl --user daemon-reload && systemctl --user enable --now elbowroom-tray.service
#
# Elsewhere (XFCE, LXQt, a window manager with waybar): instead, an XDG autostart entry, saved as
# ~/.config/autostart/elbowroom-tray.desktop (without the "# "). One or the other, not both.
# [Desktop Entry]
# Type=Application
# Name=elbowroom
# Comment=Claude usage headroom in the tray
# Exec=elbowroom tray
# NoDisplay=true
# X-GNOME-Autostart-enabled=true

# ~/.config/systemd/user/elbowroom-tray.service
# elbowroom's tray icon, started with the graphical session.
[Unit]
Description=elbowroom: Claude usage headroom in the tray
PartOf=graphical-session.target
After=graphical-session.target

[Service]
ExecStart=elbowroom tray
Restart=on-failure
RestartSec=5
NoNewPrivileges=yes

[Install]
WantedBy=graphical-session.target
"""#),
    ]

    public static var names: [String] { snippets.map(\.name) }

    /// Names typed from memory, and the snippet each means: the bar's name for the window
    /// manager's, and node_exporter's name for the textfile route (`prometheus`: one route, one
    /// pair of units). `systemd` is none of them: `init systemd` lists the systemd snippets.
    public static let aliases: [(alias: String, name: String)] = [
        ("i3bar", "i3"), ("swaybar", "sway"), ("node-exporter", "prometheus"),
    ]

    /// The snippets that are systemd user units (`init NAME --write` puts them in place), with
    /// the unit `systemctl --user enable --now` starts; what `init systemd` lists.
    public static var systemdUnits: [(name: String, enable: String)] {
        snippets.compactMap { snippet in snippet.enable.map { (snippet.name, $0) } }
    }

    /// Where a unit's block starts in a systemd snippet: a line naming its file.
    public static let unitMarker = "# ~/.config/systemd/user/"

    /// The unit files in a systemd snippet, in order: each block from its marker line (kept, as
    /// the file's first line) to the next; blank lines at a block's end dropped.
    public static func units(in text: String) -> [(file: String, text: String)] {
        var units: [(file: String, text: String)] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(unitMarker) {
                units.append((String(line.dropFirst(unitMarker.count)), ""))
            }
            guard !units.isEmpty else { continue }
            units[units.count - 1].text += line + "\n"
        }
        return units.map { unit in
            var text = Substring(unit.text)
            while text.hasSuffix("\n\n") { text = text.dropLast() }
            return (unit.file, String(text))
        }
    }

    /// The snippet's line (every snippet has one; a test holds them so).
    public static func summary(of name: String) -> String {
        snippets.first { $0.name == name }?.summary ?? ""
    }

    /// Whether the snippet shows the numbers (not Prometheus gauges or notifications): `init`
    /// then says what they mean.
    static func showsNumbers(_ name: String) -> Bool { snippets.first { $0.name == name }?.showsNumbers ?? true }

    /// `name`, or the snippet an alias of it means.
    public static func canonicalName(_ name: String) -> String {
        aliases.first { $0.alias == name }?.name ?? name
    }

    public static func snippet(named name: String) -> String? {
        let name = canonicalName(name)
        return snippets.first { $0.name == name }.map { $0.text + "\n" }
    }
}
