# ~/.zshrc: headroom on the right of the prompt
setopt prompt_subst
RPROMPT='$(headroom -a zsh)'
