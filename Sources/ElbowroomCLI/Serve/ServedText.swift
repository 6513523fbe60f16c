/// What `serve` answers carries no path: where a login, a plugin or a config lives names the user
/// and their files to anything that can read the port (a page through DNS rebinding, another local
/// user). Paths belong to `doctor`. Every body `serve` renders passes through `withoutPaths`:
/// the home directory anywhere, and any absolute or `~/` path (a `/` at the start or after a
/// space, a quote, `(`, `[`, `=` or a backtick, then no space) becomes `(a path: see elbowroom doctor)`.
/// A URL's path is left alone (its `/` follows `:` or a host name).
enum ServedText {
    static let replacement = "(a path: see elbowroom doctor)"

    static func withoutPaths(_ text: String, home: String) -> String {
        var text = text
        if home.utf8.count > 1 {
            let trimmed = home.hasSuffix("/") ? String(home.dropLast()) : home
            if !trimmed.isEmpty, text.contains(trimmed) { text = text.replacing(trimmed, with: "~") }
        }
        let bytes = Array(text.utf8)
        guard bytes.contains(UInt8(ascii: "/")) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            let before: UInt8? = i > 0 ? bytes[i - 1] : nil
            let startsPath = (b == UInt8(ascii: "/") || (b == UInt8(ascii: "~") && i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "/")))
                && (before == nil || boundary(before!))
            if startsPath {
                var j = i + (b == UInt8(ascii: "~") ? 2 : 1)
                while j < bytes.count && !stop(bytes[j]) { j += 1 }
                // Trailing punctuation is the sentence's, not the path's.
                while j > i + 1, [UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: ";")].contains(bytes[j - 1]) { j -= 1 }
                let length = j - i
                if length > (b == UInt8(ascii: "~") ? 2 : 1) {
                    out += Array(replacement.utf8)
                    i = j
                    continue
                }
            }
            out.append(b)
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// What may stand before a path: the start of a word.
    static func boundary(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") || b == UInt8(ascii: "(")
            || b == UInt8(ascii: "[") || b == UInt8(ascii: "=") || b == UInt8(ascii: "`") || b == UInt8(ascii: "{")
    }

    /// What ends a path in a sentence, a JSON string or a label value.
    static func stop(_ b: UInt8) -> Bool {
        b <= 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") || b == UInt8(ascii: "`") || b == UInt8(ascii: ")")
            || b == UInt8(ascii: "]") || b == UInt8(ascii: "}") || b == UInt8(ascii: "\\") || b == 0x7F
    }
}
