# ~/.config/fish/functions/fish_right_prompt.fish: headroom on the right of the prompt
function fish_right_prompt
    headroom -a fish
end
