# What a render reads, made up for a throw-away HOME: sourced by scripts/bench and
# scripts/gen-symbol-order (it defines functions only).

# statusline_json FIVE_HOUR SEVEN_DAY NOW: the JSON Claude Code hands its status line (model,
# workspace, cost, context, rate_limits), the windows FIVE_HOUR and SEVEN_DAY percent used,
# resetting 2 hours and about 3.5 days after NOW (epoch seconds).
statusline_json() {
    printf '{"session_id":"s","model":{"id":"claude-opus-4","display_name":"Opus 4"},"workspace":{"current_dir":"/tmp"},"cost":{"total_cost_usd":1.25},"context_window":{"used_percentage":23},"rate_limits":{"five_hour":{"used_percentage":%d,"resets_at":%d},"seven_day":{"used_percentage":%d,"resets_at":%d}}}\n' \
        "$1" $(($3 + 7200)) "$2" $(($3 + 300000))
}

# aged_cache FROM TO AGE: the cache file FROM written to TO as if its reading was observed and
# fetched AGE seconds ago, with the last fetch a success then (0: fresh, nothing due; 600: a
# refresh is due on every render).
aged_cache() {
    python3 - "$1" "$2" "$3" <<'PY'
import json, sys, time
c = json.load(open(sys.argv[1]))
at = time.time() - float(sys.argv[3])
c["reading"]["fetchedAt"] = at
for w in c["reading"]["windows"]:
    w["observedAt"] = at
c["fetch"] = {"consecutiveFailures": 0, "lastAttempt": at, "lastSuccess": at, "lastOutcome": "ok"}
json.dump(c, open(sys.argv[2], "w"), sort_keys=True, separators=(",", ":"))
PY
}

# three_accounts BINARY CONFIG FROM: writes CONFIG with three [accounts.NAME] side by side — two
# Claude config dirs (work: $HOME/claude-work; home: $CLAUDE_CONFIG_DIR, whose cache is FROM) and a
# Codex account — and gives work and codex each a copy of the cache FROM naming its own login, and
# of the history digest beside it when there is one (issue 21's renders).
three_accounts() {
    local bin=$1 config=$2 from=$3 account to
    mkdir -p "$HOME/claude-work" "$HOME/.codex" "$(dirname "$config")"
    cat >"$config" <<TOML
[accounts.work]
claude_config_dir = "$HOME/claude-work"
label = "W"
[accounts.home]
claude_config_dir = "$CLAUDE_CONFIG_DIR"
label = "H"
[accounts.codex]
provider = "codex"
label = "X"
TOML
    for account in work codex; do
        to=$(ELBOWROOM_CONFIG=$config "$bin" cache path --account $account)
        python3 - "$from" "$to" "$account" "$HOME" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["account"] = sys.argv[4] + ("/claude-work/.credentials.json" if sys.argv[3] == "work" else "/.codex/auth.json")
json.dump(c, open(sys.argv[2], "w"), sort_keys=True, separators=(",", ":"))
PY
        if [[ -f ${from%.json}.digest ]]; then cp "${from%.json}.digest" "${to%.json}.digest"; fi
    done
}
