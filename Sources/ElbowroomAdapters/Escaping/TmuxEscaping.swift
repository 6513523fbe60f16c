/// tmux `#(…)` output is format-expanded, so every literal `#` is written `##` (otherwise `#[`
/// starts a style and `#S` prints the session name). `%` needs nothing: job output is not passed
/// through strftime (checked against tmux 3.3). tmux shows one line, so newlines become spaces.
public enum TmuxEscaping {
    public static func escape(_ text: String) -> String {
        var out = ""
        for ch in ControlCharacters.strip(text, keepNewlines: false) {
            if ch == "#" { out += "##" } else { out.append(ch) }
        }
        return out
    }
}
