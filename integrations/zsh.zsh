# ~/.zshrc: elbowroom on the right of the prompt (nothing once it is uninstalled)
setopt prompt_subst
RPROMPT='$(command -v elbowroom >/dev/null && elbowroom -a zsh)'
