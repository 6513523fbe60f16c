/// zsh with `setopt prompt_subst` prompt-expands command output after substituting it, so every
/// literal `%` is written `%%` (otherwise `10%` followed by `F` would start a colour).
/// Control characters are dropped: raw escapes would have to sit inside `%{…%}`.
public enum ZshEscaping {
    public static func escape(_ text: String) -> String {
        var out = ""
        for ch in ControlCharacters.strip(text) {
            if ch == "%" { out += "%%" } else { out.append(ch) }
        }
        return out
    }
}
