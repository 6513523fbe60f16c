import ElbowroomCore

/// Pango markup (waybar `text`/`tooltip`, i3bar with `"markup":"pango"`).
///
/// The five XML specials become entities (`&amp; &lt; &gt; &quot; &#39;`), as
/// `g_markup_escape_text` writes them; a single bare `&` would otherwise make Pango reject the
/// whole string and the bar show nothing. Controls are dropped (`SafeText`; GMarkup refuses them
/// even as character references), and so are U+FFFE and U+FFFF, which XML does not allow; line
/// breaks are `\n`.
public enum Pango {
    public static func escape(_ text: String) -> String {
        SafeText.map(text, lines: .keep) { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"": "&quot;"
            case "'": "&#39;"
            case "\u{FFFE}", "\u{FFFF}": ""
            default: nil
            }
        }
    }
}
