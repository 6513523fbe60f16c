/// Data printed to a terminal or a bar must not carry its own escape sequences (an API label
/// with an ESC in it could recolour or retitle the user's terminal). C0 controls and DEL are
/// dropped; newline and tab are kept where the consumer allows several lines.
public enum ControlCharacters {
    public static func strip(_ text: String, keepNewlines: Bool = true) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += keepNewlines ? "\n" : " "
            case "\t": out += "\t"
            case "\u{00}"..."\u{1F}", "\u{7F}": continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
