/// SwiftBar / xbar read `text | key=value …` per line: a `|` in data would start the parameters,
/// so it becomes `│` (U+2502, BOX DRAWINGS LIGHT VERTICAL). A line that begins with `-` or `~`
/// (`---` separator, `--` submenu, `~~~` frame separator) gets a leading ZERO WIDTH SPACE so it
/// stays text.
public enum SwiftBarEscaping {
    public static func line(_ text: String) -> String {
        var out = ""
        for ch in ControlCharacters.strip(text, keepNewlines: false) {
            out.append(ch == "|" ? "│" : ch)
        }
        if out.hasPrefix("-") || out.hasPrefix("~") { out = "\u{200B}" + out }
        return out
    }
}
