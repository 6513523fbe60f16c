# ~/.config/fish/functions/fish_right_prompt.fish: elbowroom on the right of the prompt
function fish_right_prompt
    elbowroom -a fish
end
