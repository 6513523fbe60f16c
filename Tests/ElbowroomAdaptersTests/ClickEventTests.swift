import ElbowroomAdapters
import Testing

@Suite struct ClickEventTests {
    @Test(arguments: [
        ("[", nil),
        ("", nil),
        ("  ", nil),
        (#"{"name":"elbowroom","instance":"a","button":1,"modifiers":["Shift"],"x":10,"y":2}"#,
         ClickEvent(name: "elbowroom", instance: "a", button: 1)),
        (#"[{"name":"elbowroom","button":3}"#, ClickEvent(name: "elbowroom", button: 3)),
        (#",{"name":"elbowroom","button":4,"modifiers":[]}"#, ClickEvent(name: "elbowroom", button: 4)),
        (#"  , {"button":5}"#, ClickEvent(button: 5)),
        (#"{"name":"elbowroom","button":2},"#, ClickEvent(name: "elbowroom", button: 2)),
        (#"{"name":"elbowroom"}"#, nil),
        (#"{"name":"elbowroom","button":"left"}"#, nil),
        ("not json", nil),
        ("]", nil),
    ] as [(String, ClickEvent?)])
    func parse(line: String, expected: ClickEvent?) {
        #expect(ClickEventParser.parse(line: line) == expected)
    }

    @Test func buttons() {
        #expect(ClickEvent(button: 1).isLeft)
        #expect(ClickEvent(button: 2).isMiddle)
        #expect(ClickEvent(button: 3).isRight)
        #expect(ClickEvent(button: 4).isScrollUp)
        #expect(ClickEvent(button: 5).isScrollDown)
    }
}

/// Click lines exactly as a real i3bar (i3 4.22, under Xvfb, clicked with xdotool) wrote them to
/// `elbowroom watch`'s stdin; `scripts/check-i3bar` captures them again.
@Suite struct RealI3barClickTests {
    static let captured = [
        "[",
        #"{"name":"elbowroom","button":1,"modifiers":[],"x":850,"y":12,"relative_x":120,"relative_y":12,"output_x":850,"output_y":12,"width":270,"height":26}"#,
        #",{"name":"elbowroom","button":3,"modifiers":[],"x":850,"y":12,"relative_x":120,"relative_y":12,"output_x":850,"output_y":12,"width":270,"height":26}"#,
    ]

    @Test func parsesWhatI3barSends() {
        let events = Self.captured.compactMap { ClickEventParser.parse(line: $0) }
        #expect(events.map(\.button) == [1, 3])
        #expect(events.allSatisfy { $0.name == "elbowroom" })
    }
}
