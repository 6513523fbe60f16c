import Testing
import ElbowroomCore
@testable import ElbowroomTemplate

/// A template laid out flat (`Program`): every group followed by its contents up to its end,
/// with what the renderer would otherwise walk a group for worked out once.
struct ProgramTests {
    @Test func groupsAreFollowedByTheirContentsUpToTheirEnd() throws {
        let program = try Template.parse("a[{5h.left}(x{7d.left})](bold)b").program
        let bold = StyleSpec.Parsed(style: Style(bold: true), usesLevel: false)
        #expect(Array(program.ops) == [
            .text(0), .styled(bold, end: 6), .placeholder(0), .conditional(end: 6, eachWindow: false, eachAccount: false),
            .text(1), .placeholder(1), .text(2),
        ])
        #expect(program.texts == ["a", "x", "b"])
        #expect(program.slots.map(\.variable) == [.window("5h", .left), .window("7d", .left)])
    }

    /// Each placeholder's filters are a stretch of one table, in template order.
    @Test func filtersAreOneTable() throws {
        let program = try Template.parse("{5h.left|round|pad(3)}{7d.used|bar(4, \"x\")}{opus.left}").program
        #expect(program.filters == [.round, .pad(3), .bar(width: 4, fill: "x")])
        #expect(program.slots.map { [$0.firstFilter, $0.filterCount] } == [[0, 2], [2, 1], [3, 0]])
    }

    /// A group repeats per window when a placeholder anywhere inside reads `each.*`, per account
    /// when one reads `each:…`; the enclosing group is marked, not only the innermost.
    @Test func groupsThatRepeatAreMarked() throws {
        let program = try Template.parse("( ({each.left}) )({each:label})({5h.left})").program
        let marks = program.ops.compactMap { op -> [Bool]? in
            if case .conditional(_, let window, let account) = op { [window, account] } else { nil }
        }
        #expect(marks == [[true, false], [true, false], [false, true], [false, false]])
    }

    @Test(arguments: [
        (" · {5h.left}", true, false), ("{5h.left} · ", false, true), (" · ", true, true), ("( · {5h.left})", false, false),
        ("x · {5h.left}", false, false), (" · \u{301}{5h.left}", false, false),
    ])
    func separatorsWrittenAtEitherEndAreKnown(source: String, starts: Bool, ends: Bool) throws {
        let program = try Template.parse(source).program
        #expect(program.startsWithSeparator == starts && program.endsWithSeparator == ends)
    }
}
