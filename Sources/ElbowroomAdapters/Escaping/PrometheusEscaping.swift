/// The Prometheus text exposition format: label values escape `\` `"` and newline
/// (`\\` `\"` `\n`); `# HELP` text escapes `\` and newline only.
public enum PrometheusEscaping {
    public static func labelValue(_ text: String) -> String {
        var out = ""
        for ch in text {
            switch ch {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.append(ch)
            }
        }
        return out
    }

    public static func help(_ text: String) -> String {
        var out = ""
        for ch in text {
            switch ch {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.append(ch)
            }
        }
        return out
    }
}
