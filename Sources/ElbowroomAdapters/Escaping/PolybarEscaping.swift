/// polybar has no escape for its `%{…}` tags, so a `%` directly followed by `{` in data gets a
/// ZERO WIDTH SPACE (U+200B) between them: `%{F#f00}` in data prints as text, one invisible
/// character longer. polybar shows the first line only, so newlines become spaces.
public enum PolybarEscaping {
    public static let breaker: Character = "\u{200B}"

    public static func escape(_ text: String) -> String {
        var out = ""
        var previous: Character?
        for ch in ControlCharacters.strip(text, keepNewlines: false) {
            if ch == "{" && previous == "%" { out.append(breaker) }
            out.append(ch)
            previous = ch
        }
        return out
    }
}
