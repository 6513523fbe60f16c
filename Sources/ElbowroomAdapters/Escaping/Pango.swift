/// Pango markup (waybar `text`/`tooltip`, i3bar with `"markup":"pango"`).
///
/// The five XML specials become entities (`&amp; &lt; &gt; &quot; &#39;`), as
/// `g_markup_escape_text` writes them; a single bare `&` would otherwise make Pango reject the
/// whole string and the bar show nothing. Control characters other than newline and tab are
/// dropped: GMarkup refuses them even as character references.
public enum Pango {
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\n", "\t": out.unicodeScalars.append(scalar)
            case "\u{00}"..."\u{1F}", "\u{7F}": continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
