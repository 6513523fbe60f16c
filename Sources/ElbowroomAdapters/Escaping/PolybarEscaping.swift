// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// polybar has no escape for its `%{…}` tags, so a `%` directly followed by `{` in data gets a
/// ZERO WIDTH SPACE (U+200B) between them: `%{F#f00}` or `%{A1:cmd:}` in data prints as text, one
/// invisible character longer. "Directly" is by scalar, after controls are dropped: polybar reads
/// bytes, so a control between them must not hide the pair. polybar shows the first line only, so
/// line breaks become spaces.
public enum PolybarEscaping {
    public static let breaker = "\u{200B}"

    public static func escape(_ text: String) -> String {
        var out = ""
        escape(text, into: &out)
        return out
    }

    /// `escape(text)` appended to `out`.
    public static func escape(_ text: String, into out: inout String) {
        var previous: Unicode.Scalar = " "
        SafeText.map(text, lines: .join, into: &out) { scalar in
            defer { previous = scalar }
            return scalar == "{" && previous == "%" ? breaker + "{" : nil
        }
    }
}
