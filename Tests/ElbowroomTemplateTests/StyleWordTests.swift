import Testing
import ElbowroomCore
@testable import ElbowroomTemplate

/// A group's style as one word (`StyleWord`) and back: the same style, for every semantic
/// style, every kind of colour (each of the sixteen names, RGB at its extremes, every palette
/// index) in the foreground and the background, every attribute and `level`.
struct StyleWordTests {
    static var colors: [Color?] {
        var colors: [Color?] = [nil]
        colors += NamedColor.allCases.map { .named($0) }
        colors += [.rgb(0, 0, 0), .rgb(255, 255, 255), .rgb(1, 128, 254), .rgb(255, 0, 1)]
        colors += (0...255).map { .palette(UInt8($0)) }
        return colors
    }

    @Test func everyStyleComesBackFromItsWord() {
        var styles: [StyleSpec.Parsed] = []
        for semantic in [nil] + SemanticStyle.allCases.map(Optional.some) {
            for usesLevel in [false, true] {
                styles.append(.init(style: Style(semantic: semantic), usesLevel: usesLevel))
            }
        }
        for color in Self.colors {
            styles.append(.init(style: Style(foreground: color), usesLevel: false))
            styles.append(.init(style: Style(background: color, bold: true), usesLevel: true))
        }
        for bits in 0..<8 {
            styles.append(.init(style: Style(semantic: .warn, foreground: .rgb(9, 8, 7), background: .named(.brightCyan),
                                             bold: bits & 1 != 0, italic: bits & 2 != 0, underline: bits & 4 != 0),
                                usesLevel: bits == 7))
        }
        for style in styles {
            #expect(StyleWord.parsed(StyleWord.word(style)) == style, "\(style)")
        }
        // Different styles are different words (the ops' table keeps one a group).
        #expect(Set(styles.map(StyleWord.word)).count == Set(styles.map { "\($0)" }).count)
    }

    /// A program's ops read back as they were laid out, styles included, in a table of numbers.
    @Test func opsComeBackFromTheirWords() {
        let bold = StyleSpec.Parsed(style: Style(bold: true), usesLevel: false)
        let level = StyleSpec.Parsed(style: Style(background: .rgb(1, 2, 3)), usesLevel: true)
        let ops: [Program.Op] = [
            .text(0), .styled(bold, end: 5), .placeholder(7), .conditional(end: 5, eachWindow: true, eachAccount: false),
            .styled(level, end: 5), .conditional(end: 1 << 20, eachWindow: false, eachAccount: true), .text(1 << 29),
        ]
        var table = OpTable()
        for op in ops { table.append(op) }
        #expect(Array(table) == ops)
        table[0] = .styled(level, end: 9)
        #expect(table[0] == .styled(level, end: 9) && table.styles.count == 3)
    }
}
