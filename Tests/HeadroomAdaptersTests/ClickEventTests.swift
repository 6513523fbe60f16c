import HeadroomAdapters
import Testing

@Suite struct ClickEventTests {
    @Test(arguments: [
        ("[", nil),
        ("", nil),
        ("  ", nil),
        (#"{"name":"headroom","instance":"a","button":1,"modifiers":["Shift"],"x":10,"y":2}"#,
         ClickEvent(name: "headroom", instance: "a", button: 1)),
        (#"[{"name":"headroom","button":3}"#, ClickEvent(name: "headroom", button: 3)),
        (#",{"name":"headroom","button":4,"modifiers":[]}"#, ClickEvent(name: "headroom", button: 4)),
        (#"  , {"button":5}"#, ClickEvent(button: 5)),
        (#"{"name":"headroom","button":2},"#, ClickEvent(name: "headroom", button: 2)),
        (#"{"name":"headroom"}"#, nil),
        (#"{"name":"headroom","button":"left"}"#, nil),
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
/// `headroom watch`'s stdin; `scripts/check-i3bar` captures them again.
@Suite struct RealI3barClickTests {
    static let captured = [
        "[",
        #"{"name":"headroom","button":1,"modifiers":[],"x":850,"y":12,"relative_x":120,"relative_y":12,"output_x":850,"output_y":12,"width":270,"height":26}"#,
        #",{"name":"headroom","button":3,"modifiers":[],"x":850,"y":12,"relative_x":120,"relative_y":12,"output_x":850,"output_y":12,"width":270,"height":26}"#,
    ]

    @Test func parsesWhatI3barSends() {
        let events = Self.captured.compactMap { ClickEventParser.parse(line: $0) }
        #expect(events.map(\.button) == [1, 3])
        #expect(events.allSatisfy { $0.name == "headroom" })
    }
}
