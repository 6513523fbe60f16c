# ~/.zshrc: elbowroom on the right of the prompt
setopt prompt_subst
RPROMPT='$(elbowroom -a zsh)'
