import Testing
@testable import ElbowroomCLI
import ElbowroomAdapters

@Suite struct ClickInputTests {
    /// A line of combining marks is one grapheme cluster however long it grows: the runaway guard
    /// counts bytes, so such a stream is dropped at the limit instead of piling up (and being
    /// walked again on every read).
    @Test func aRunawayLineOfCombiningMarksIsDroppedAtTheByteLimit() {
        var input = ClickInput(fd: -1)
        let marks = Array(String(repeating: "\u{301}", count: 2048).utf8)  // 4 KiB a read
        var most = 0
        for _ in 0..<64 {  // 256 KiB without a newline
            #expect(input.take(marks[...]).isEmpty)
            most = max(most, input.pendingBytes)
        }
        #expect(most <= ClickInput.maxLine + marks.count)
        let click = Array(#"{"name":"elbowroom","button":1}"#.utf8) + [10]
        #expect(input.take(([10] + click)[...]).map(\.button) == [1])
    }

    @Test func linesSplitAcrossReadsMakeOneEventEach() {
        var input = ClickInput(fd: -1)
        let two = Array(#"{"button":1}"#.utf8) + [10] + Array(#"{"button":3}"#.utf8) + [10]
        #expect(input.take(two[..<5]).isEmpty)
        #expect(input.take(two[5...]).map(\.button) == [1, 3])
        #expect(input.pendingBytes == 0)
    }
}
