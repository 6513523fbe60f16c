# ~/.config/fish/functions/fish_right_prompt.fish: elbowroom on the right of the prompt
# (nothing once it is uninstalled)
function fish_right_prompt
    command -q elbowroom; and elbowroom -a fish
end
