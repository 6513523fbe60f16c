import ElbowroomCore
@testable import ElbowroomAdapters

// The slow, obvious forms the byte-level escapers are held equal to (ByteEscapingTests): test
// support, not shipped code.

extension JSONString {
    /// `quote` as it was first written, scalar by scalar: the reference `quote` is held equal to.
    static func quoteByScalars(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\u{00}"..."\u{1F}":
                out += unicodeEscape(scalar)
            default:
                if scalar.value >= 0x7F && (SafeText.isDropped(scalar) || SafeText.isLineBreak(scalar)) {
                    out += unicodeEscape(scalar)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// `\u` and four lowercase hex digits (every scalar escaped this way is below U+10000).
    static func unicodeEscape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}

extension Pango {
    /// `escape` as it was first written, scalar by scalar through `SafeText.map`: the reference
    /// `escape` is held equal to.
    static func escapeByScalars(_ text: String) -> String {
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
