/// Parses a style as written in a template's `[…](style)` or in `[colors]`:
/// space-separated words, any order.
///
/// | word | meaning |
/// |---|---|
/// | `ok` `warn` `critical` `stale` `dim` | semantic style (colour from `[colors]`) |
/// | `level` | the severity of the window(s) inside the group (templates only) |
/// | `red` `green` … `bright_blue` `grey` | foreground colour (16 terminal colours) |
/// | `#ff8800` | foreground colour, RGB |
/// | `208` | foreground colour, 256-colour index |
/// | `fg:COLOUR` `bg:COLOUR` | foreground / background explicitly |
/// | `bold` `italic` `underline` | attributes |
public enum StyleSpec {
    public struct ParseError: Error, Equatable, Sendable {
        /// Offset of the bad word within the spec (0-based, in characters).
        public var offset: Int
        public var message: String
    }

    /// A parsed spec: the style, and whether it asked for `level`.
    public struct Parsed: Equatable, Sendable {
        public var style: Style
        public var usesLevel: Bool

        /// (Public for the shipped templates compiled at build time.)
        public init(style: Style, usesLevel: Bool) {
            self.style = style
            self.usesLevel = usesLevel
        }
    }

    public static let attributeWords = ["bold", "italic", "underline"]
    public static var allWords: [String] {
        ["level"] + SemanticStyle.allCases.map(\.rawValue) + attributeWords
            + NamedColor.allCases.map(\.rawValue) + ["grey", "gray"]
    }

    public static func parse(_ spec: String, allowLevel: Bool = false) throws(ParseError) -> Parsed {
        var parsed = Parsed(style: Style(), usesLevel: false)
        var offset = 0
        for word in spec.split(separator: " ", omittingEmptySubsequences: false) {
            defer { offset += word.count + 1 }
            let w = String(word).lowercased()
            if w.isEmpty { continue }
            switch w {
            case "level" where allowLevel: parsed.usesLevel = true
            case "bold": parsed.style.bold = true
            case "italic": parsed.style.italic = true
            case "underline": parsed.style.underline = true
            default:
                if let semantic = SemanticStyle(rawValue: w) {
                    parsed.style.semantic = semantic
                    parsed.style.foreground = nil
                } else if w.hasPrefix("bg:") {
                    guard let c = color(String(w.dropFirst(3))) else {
                        throw ParseError(offset: offset + 3, message: "unknown colour '\(w.dropFirst(3))'")
                    }
                    parsed.style.background = c
                } else if let c = color(w.hasPrefix("fg:") ? String(w.dropFirst(3)) : w) {
                    parsed.style.foreground = c
                    parsed.style.semantic = nil
                } else {
                    let candidates = allowLevel ? allWords : allWords.filter { $0 != "level" }
                    throw ParseError(offset: offset, message: "unknown style '\(word)'\(Suggest.hint(for: w, in: candidates))")
                }
            }
        }
        return parsed
    }

    /// A colour word: a name, `#rrggbb` (or `#rgb`), or 0…255.
    public static func color(_ word: String) -> Color? {
        if word == "grey" || word == "gray" { return .named(.brightBlack) }
        if let named = NamedColor(rawValue: word.replacingDashes) { return .named(named) }
        if word.hasPrefix("#") {
            var hex = String(word.dropFirst())
            if hex.count == 3 { hex = hex.map { "\($0)\($0)" }.joined() }
            guard hex.count == 6, let v = UInt32(hex, radix: 16) else { return nil }
            return .rgb(UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff))
        }
        if let index = UInt8(word) { return .palette(index) }
        return nil
    }
}

extension String {
    fileprivate var replacingDashes: String { String(map { $0 == "-" ? "_" : $0 }) }
}
