// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// The Prometheus text exposition format: label values escape `\` `"` and newline
/// (`\\` `\"` `\n`); `# HELP` text escapes `\` and newline only. Every line break (CR, CRLF,
/// U+2028 …) is a newline here, and controls are dropped (`SafeText`), so a sample stays one line.
public enum PrometheusEscaping {
    public static func labelValue(_ text: String) -> String {
        SafeText.map(text, lines: .keep) { scalar in
            switch scalar {
            case "\\": "\\\\"
            case "\"": "\\\""
            case "\n": "\\n"
            default: nil
            }
        }
    }

    public static func help(_ text: String) -> String {
        SafeText.map(text, lines: .keep) { scalar in
            switch scalar {
            case "\\": "\\\\"
            case "\n": "\\n"
            default: nil
            }
        }
    }
}
