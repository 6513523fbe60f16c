// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// SwiftBar / xbar read `text | key=value …` per line: a `|` in data would start the parameters
/// (`bash=…` runs a command on click), so it becomes `│` (U+2502, BOX DRAWINGS LIGHT VERTICAL). A
/// line whose first scalar after any spaces and tabs is `-` or `~` (`---` separator, `--` submenu,
/// `~~~` frame separator) gets a ZERO WIDTH SPACE before that scalar, so it stays text even where
/// the line is trimmed first. Line breaks become spaces; controls are dropped (`SafeText`).
public enum SwiftBarEscaping {
    public static let guardMark = "\u{200B}"

    public static func line(_ text: String) -> String {
        var leading = true
        return SafeText.map(text, lines: .join) { scalar in
            if scalar == "|" { leading = false; return "│" }
            guard leading, scalar != " ", scalar != "\t" else { return nil }
            leading = false
            return scalar == "-" || scalar == "~" ? guardMark + String(scalar) : nil
        }
    }
}
