// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// tmux `#(…)` output is format-expanded, so every literal `#` is written `##` (otherwise `#[`
/// starts a style, `#{…}` a format and `#S` prints the session name). `%` needs nothing: job
/// output is not passed through strftime (checked against tmux 3.3). tmux shows one line, so line
/// breaks become spaces; controls are dropped (`SafeText`).
public enum TmuxEscaping {
    public static func escape(_ text: String) -> String {
        var out = ""
        escape(text, into: &out)
        return out
    }

    /// `escape(text)` appended to `out`.
    public static func escape(_ text: String, into out: inout String) {
        SafeText.map(text, lines: .join, into: &out) { $0 == "#" ? "##" : nil }
    }
}
