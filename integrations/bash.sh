# ~/.bashrc: elbowroom at the start of the prompt (escapes are wrapped in \001…\002 so
# line editing keeps the right width; nothing once elbowroom is uninstalled)
PS1='$(command -v elbowroom >/dev/null && elbowroom -a bash) '"$PS1"
