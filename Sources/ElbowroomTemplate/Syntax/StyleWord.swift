// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// A group's style (`[…](style)`, parsed) as one word, for `OpTable`: the style table a template
/// keeps is then an array of plain numbers, which the standard library lays out in the binary,
/// where an array of `StyleSpec.Parsed` (or of ops holding one) had the runtime build its
/// metadata on every render, and a shipped template's table was built by code at start-up.
///
/// | bits | what |
/// |---|---|
/// | 0–2 | the semantic style: 0 none, 1 `ok`, 2 `warn`, 3 `critical`, 4 `stale`, 5 `dim` |
/// | 3–28 | the foreground (`color`) |
/// | 29–54 | the background |
/// | 55, 56, 57 | bold, italic, underline |
/// | 58 | `level` |
///
/// A colour is 26 bits: its kind in the low two (0 none, 1 named, 2 RGB, 3 256-colour index),
/// then the name's ANSI index, `0xRRGGBB` or the index.
enum StyleWord {
    static func word(_ parsed: StyleSpec.Parsed) -> UInt {
        let style = parsed.style
        var word = semantic(style.semantic)
        word |= color(style.foreground) << 3
        word |= color(style.background) << 29
        if style.bold { word |= 1 << 55 }
        if style.italic { word |= 1 << 56 }
        if style.underline { word |= 1 << 57 }
        if parsed.usesLevel { word |= 1 << 58 }
        return word
    }

    static func parsed(_ word: UInt) -> StyleSpec.Parsed {
        StyleSpec.Parsed(
            style: Style(semantic: semantic(word & 7), foreground: color(word >> 3 & 0x3FF_FFFF),
                         background: color(word >> 29 & 0x3FF_FFFF), bold: word >> 55 & 1 != 0,
                         italic: word >> 56 & 1 != 0, underline: word >> 57 & 1 != 0),
            usesLevel: word >> 58 & 1 != 0)
    }

    /// `parsed` as a template would write it (`bold fg:#ff8800 level`): for the comments beside
    /// a shipped template's words. Not on the render path.
    static func spec(_ parsed: StyleSpec.Parsed) -> String {
        func color(_ color: Color) -> String {
            switch color {
            case .named(let name): name.rawValue
            case .rgb: color.hex
            case .palette(let index): String(index)
            }
        }
        let style = parsed.style
        var words: [String] = []
        if let semantic = style.semantic { words.append(semantic.rawValue) }
        if let foreground = style.foreground { words.append(color(foreground)) }
        if let background = style.background { words.append("bg:" + color(background)) }
        if style.bold { words.append("bold") }
        if style.italic { words.append("italic") }
        if style.underline { words.append("underline") }
        if parsed.usesLevel { words.append("level") }
        return words.isEmpty ? "plain" : words.joined(separator: " ")
    }

    // (Switches, not positions in `allCases`: an array of either enum would cost a render the
    // metadata this type is here to spare it.)

    private static func semantic(_ semantic: SemanticStyle?) -> UInt {
        switch semantic {
        case nil: 0
        case .ok: 1
        case .warn: 2
        case .critical: 3
        case .stale: 4
        case .dim: 5
        }
    }

    private static func semantic(_ bits: UInt) -> SemanticStyle? {
        switch bits {
        case 1: .ok
        case 2: .warn
        case 3: .critical
        case 4: .stale
        case 5: .dim
        default: nil
        }
    }

    private static func color(_ color: Color?) -> UInt {
        switch color {
        case nil: 0
        case .named(let name): 1 | UInt(name.index) << 2
        case .rgb(let r, let g, let b): 2 | (UInt(r) << 16 | UInt(g) << 8 | UInt(b)) << 2
        case .palette(let index): 3 | UInt(index) << 2
        }
    }

    private static func color(_ bits: UInt) -> Color? {
        let value = bits >> 2
        switch bits & 3 {
        case 1: return .named(named(value))
        case 2: return .rgb(UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
                            UInt8(truncatingIfNeeded: value))
        case 3: return .palette(UInt8(truncatingIfNeeded: value))
        default: return nil
        }
    }

    /// The colour with ANSI index `index` (`NamedColor.index` the other way).
    private static func named(_ index: UInt) -> NamedColor {
        switch index {
        case 0: .black
        case 1: .red
        case 2: .green
        case 3: .yellow
        case 4: .blue
        case 5: .magenta
        case 6: .cyan
        case 7: .white
        case 8: .brightBlack
        case 9: .brightRed
        case 10: .brightGreen
        case 11: .brightYellow
        case 12: .brightBlue
        case 13: .brightMagenta
        case 14: .brightCyan
        default: .brightWhite
        }
    }
}
