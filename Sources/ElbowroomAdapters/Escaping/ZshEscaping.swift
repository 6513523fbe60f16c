// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// zsh with `setopt prompt_subst` prompt-expands command output after substituting it, so every
/// literal `%` is written `%%` (otherwise `10%` followed by `F` would start a colour, `%n` print
/// the user name). Controls are dropped (`SafeText`): raw escapes would have to sit inside `%{…%}`.
/// A tab becomes a space, as in the other prompts (see `SGR`).
public enum ZshEscaping {
    public static func escape(_ text: String) -> String {
        var out = ""
        escape(text, into: &out)
        return out
    }

    /// `escape(text)` appended to `out`.
    public static func escape(_ text: String, into out: inout String) {
        SafeText.map(text, lines: .keep, into: &out) { $0 == "%" ? "%%" : $0 == "\t" ? " " : nil }
    }
}
