import Testing
@testable import ElbowroomCore

@Suite struct NamedColorTests {
    /// `index` is written out by hand (no table on the render path): it must be the ANSI order,
    /// which is the declaration order, and reach every number 0…15 once.
    @Test func indexIsThePositionInAllCases() {
        for (position, color) in NamedColor.allCases.enumerated() {
            #expect(color.index == position, "\(color)")
        }
        #expect(NamedColor.allCases.count == 16)
        #expect(NamedColor.red.index == 1 && NamedColor.brightWhite.index == 15)
    }
}
