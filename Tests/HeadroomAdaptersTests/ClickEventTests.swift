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
