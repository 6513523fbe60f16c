/// Ready-to-paste snippets for `elbowroom init NAME`: the source of the files in `integrations/`,
/// which `scripts/generate` writes from these (the installed binary has no integrations/ dir).
public enum IntegrationSnippets {
    public static let all: [(name: String, file: String, text: String)] = [
        ("waybar", "waybar.jsonc", #"""
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
        ("i3", "i3.conf", #"""
# ~/.config/i3/config: elbowroom as the whole status line (left click: refresh now,
# right click: next template; SIGUSR1 also refreshes: pkill -USR1 -f 'elbowroom watch')
bar {
    status_command elbowroom watch -a i3bar
}
# To keep i3status too, use i3blocks instead: elbowroom init i3blocks
"""#),
        ("sway", "sway.conf", #"""
# ~/.config/sway/config: elbowroom as swaybar's status command (left click: refresh now,
# right click: next template)
bar {
    status_command elbowroom watch -a i3bar
}
# Using waybar instead? elbowroom init waybar
"""#),
        ("i3blocks", "i3blocks.conf", #"""
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
        ("tmux", "tmux.conf", #"""
# ~/.tmux.conf: elbowroom in the status line (tmux runs it in the background, at most once
# a second, and shows the last output; styles are tmux #[fg=…] markup)
set -g status-interval 15
set -g status-right-length 80
set -g status-right '#(elbowroom -a tmux) %H:%M'
"""#),
        ("bash", "bash.sh", #"""
# ~/.bashrc: elbowroom at the start of the prompt (escapes are wrapped in \001…\002 so
# line editing keeps the right width)
PS1='$(elbowroom -a bash) '"$PS1"
"""#),
        ("zsh", "zsh.zsh", #"""
# ~/.zshrc: elbowroom on the right of the prompt
setopt prompt_subst
RPROMPT='$(elbowroom -a zsh)'
"""#),
        ("fish", "fish.fish", #"""
# ~/.config/fish/functions/fish_right_prompt.fish: elbowroom on the right of the prompt
function fish_right_prompt
    elbowroom -a fish
end
"""#),
        ("starship", "starship.toml", #"""
# ~/.config/starship.toml: elbowroom as a custom module (starship styles it; plain text in)
[custom.elbowroom]
command = "elbowroom -a plain -t minimal"
when = true
shell = ["sh"]
format = "[$output]($style) "
style = "yellow"
"""#),
        ("claude", "claude.json", #"""
{
  "statusLine": {
    "type": "command",
    "command": "elbowroom -a claude",
    "padding": 0,
    "refreshInterval": 30
  }
}
"""#),
        ("polybar", "polybar.ini", #"""
; ~/.config/polybar/config.ini: add "elbowroom" to modules-right, then:
[module/elbowroom]
type = custom/script
exec = elbowroom watch -a polybar --interval 5
tail = true
click-left = elbowroom fetch >/dev/null 2>&1
"""#),
        ("swiftbar", "swiftbar.sh", #"""
#!/bin/sh
# Save as elbowroom.30s.sh in your SwiftBar plugin folder and make it executable
# (chmod +x). SwiftBar's PATH is short: name elbowroom by its full path.
# <swiftbar.hideRunInTerminal>true</swiftbar.hideRunInTerminal>
exec "$HOME/.local/bin/elbowroom" -a swiftbar
"""#),
        ("systemd", "systemd.service", #"""
# ~/.config/systemd/user/elbowroom-prometheus.service: writes usage gauges for
# node_exporter's textfile collector (point --collector.textfile.directory at DIR).
# Enable with: systemctl --user enable --now elbowroom-prometheus.timer
[Unit]
Description=elbowroom: Claude usage gauges for the Prometheus textfile collector

[Service]
Type=oneshot
Environment=DIR=%h/.local/share/node_exporter
ExecStart=/bin/sh -c 'mkdir -p "$DIR" && elbowroom -a prometheus --wait > "$DIR/elbowroom.prom.tmp" && mv "$DIR/elbowroom.prom.tmp" "$DIR/elbowroom.prom"'

# ~/.config/systemd/user/elbowroom-prometheus.timer
# [Unit]
# Description=elbowroom: refresh Claude usage gauges every minute
#
# [Timer]
# OnBootSec=1min
# OnUnitActiveSec=1min
#
# [Install]
# WantedBy=timers.target
"""#),
        ("systemd-notify", "systemd-notify.service", #"""
# ~/.config/systemd/user/elbowroom-notify.service: a desktop notification when a Claude usage
# window crosses into warn or critical, reaches 100 %, will run out before it resets at the
# current rate (and, if [notify] reset = true, when it resets) — once per crossing, however
# many bars and timers run. For setups without a long-running bar (`elbowroom watch --notify`
# does the same inside one). Needs notify-send (libnotify-bin) and a notification daemon, or
# notify_command in the config. Set ExecStart to where elbowroom is (`command -v elbowroom`).
# Enable with: systemctl --user enable --now elbowroom-notify.timer
[Unit]
Description=elbowroom: notify about Claude usage crossings

[Service]
Type=oneshot
ExecStart=%h/.local/bin/elbowroom notify

# ~/.config/systemd/user/elbowroom-notify.timer
# [Unit]
# Description=elbowroom: check Claude usage for notifications every minute
#
# [Timer]
# OnBootSec=1min
# OnUnitActiveSec=1min
#
# [Install]
# WantedBy=timers.target
"""#),
        ("claude-hook", "claude-hook.json", #"""
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
        ("serve", "serve.service", #"""
# ~/.config/systemd/user/elbowroom-serve.service: Claude usage over HTTP on loopback, for
# Prometheus (GET /metrics) and programs (GET /v1/usage, /healthz). Any number of scrapers cause
# no extra requests to Anthropic: serve reads the cache and fetches as a render would.
# Set ExecStart to where elbowroom is (`command -v elbowroom`).
# Enable with: systemctl --user enable --now elbowroom-serve.service
# Prometheus (prometheus.yml):
#   scrape_configs:
#     - job_name: elbowroom
#       static_configs: [{ targets: ["127.0.0.1:9478"] }]
[Unit]
Description=elbowroom: Claude usage for Prometheus and programs (GET /metrics, /v1/usage)

[Service]
ExecStart=%h/.local/bin/elbowroom serve --listen 127.0.0.1:9478
Restart=on-failure
NoNewPrivileges=yes
PrivateTmp=yes

[Install]
WantedBy=default.target
"""#),
        ("node-exporter", "node-exporter.service", #"""
# ~/.config/systemd/user/elbowroom-textfile.service: the node_exporter textfile-collector
# route, without a listening port of our own. Every minute the timer writes what
# `elbowroom -a prometheus` prints into the collector's directory: to a temporary file there
# first, then renamed, so node_exporter never reads half a file. Start node_exporter with
# --collector.textfile.directory=DIR (the same DIR as below).
# Enable with: systemctl --user enable --now elbowroom-textfile.timer
[Unit]
Description=elbowroom: Claude usage gauges for node_exporter's textfile collector

[Service]
Type=oneshot
Environment=DIR=%h/.local/share/node_exporter
ExecStart=/bin/sh -c 'mkdir -p "$DIR" && t=$(mktemp "$DIR/.elbowroom.XXXXXX") && elbowroom -a prometheus --wait > "$t" && chmod 644 "$t" && mv -f "$t" "$DIR/elbowroom.prom" || { rm -f "$t"; exit 1; }'

# ~/.config/systemd/user/elbowroom-textfile.timer
# [Unit]
# Description=elbowroom: refresh the Claude usage gauges every minute
#
# [Timer]
# OnBootSec=1min
# OnUnitActiveSec=1min
#
# [Install]
# WantedBy=timers.target
"""#),
    ]

    public static var names: [String] { all.map(\.name) }

    public static func snippet(named name: String) -> String? {
        all.first { $0.name == name }.map { $0.text + "\n" }
    }
}
