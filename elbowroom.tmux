#!/usr/bin/env bash
# elbowroom for tmux (TPM-compatible): put #{elbowroom} in status-right or status-left, e.g.
#     set -g status-right '#{elbowroom} %H:%M'
#     set -g @plugin '<this repository>'          # with TPM, or without it:
#     run-shell /path/to/elbowroom.tmux
# and this replaces it with #(elbowroom -a tmux). Options (set before the plugin loads):
#     @elbowroom-command   the whole command (default: elbowroom, found now, with -a tmux)
#     @elbowroom-template  a template name or inline text for -t
set -euo pipefail
shopt -u patsub_replacement 2>/dev/null || true  # bash 5.2: '&' in a replacement is literal

option() {
    tmux show-option -gqv "$1"
}

# The tmux server's #() jobs run through /bin/sh with the server's PATH: name the binary by its
# full path when it can be found now (PATH as tmux has it, or beside this file after a build).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
command=$(option @elbowroom-command)
if [[ -z $command ]]; then
    binary=$(command -v elbowroom || true)
    [[ -z $binary && -x $here/.build/release/elbowroom ]] && binary=$here/.build/release/elbowroom
    command="${binary:-elbowroom} -a tmux"
    template=$(option @elbowroom-template)
    if [[ -n $template ]]; then
        command+=" -t '${template//\'/\'\\\'\'}'"
    fi
fi

placeholder='#{elbowroom}'
for side in status-right status-left; do
    value=$(option "$side")
    if [[ $value == *"$placeholder"* ]]; then
        tmux set-option -gq "$side" "${value//"$placeholder"/"#($command)"}"
    fi
done
