# ~/.bashrc: elbowroom at the start of the prompt (escapes are wrapped in \001…\002 so
# line editing keeps the right width)
PS1='$(elbowroom -a bash) '"$PS1"
