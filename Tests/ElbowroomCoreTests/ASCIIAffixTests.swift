import Testing
@testable import ElbowroomCore

/// `ASCIIAffix` answers on bytes where that is what `hasPrefix` (`hasSuffix`) says, and asks them
/// where a mark joins the match to its neighbour: the same answer for every prefix and suffix the
/// program looks for, over texts made to tell them apart.
@Suite struct ASCIIAffixTests {
    static let texts = ["", "/", "~", "~/", "//", "/a", "~/a", "a/", "~a", "/\u{301}", "/\u{301}a", "~/\u{301}x", "~\u{301}/x",
                        "/é", "~/é", "\u{301}/", "/\r\n", "~/\u{200D}", "/\u{1F600}", "\u{FF0F}x",
                        "-", "--", "---", "-\u{301}", "--\u{301}x", "--x=1", "\u{2212}-", "—x",
                        "seven_day", "seven_day_", "seven_day_opus", "seven_dayé", "seven_day\u{301}", "seven_day_\u{301}",
                        "seven_da", "Seven_day", "seven_day\r\n", "\u{FF53}even_day", "seven\u{5F}day", "seven_day\u{200D}x",
                        "_hour", "five_hour", "x\u{301}_hour", "\u{600}_hour", "é_week", "one_hours", "_hou", "\r\n_day", "a_day\u{301}",
                        "thirty_day", "a\u{200D}_month", "_weeks", "week"]

    @Test func isWhatHasPrefixAndHasSuffixSay() {
        for text in Self.texts {
            #expect(ASCIIAffix.hasPrefix(text, "/") == text.hasPrefix("/"), "\(text.debugDescription)")
            #expect(ASCIIAffix.hasPrefix(text, "~/") == text.hasPrefix("~/"), "\(text.debugDescription)")
            #expect(ASCIIAffix.hasPrefix(text, "-") == text.hasPrefix("-"), "\(text.debugDescription)")
            #expect(ASCIIAffix.hasPrefix(text, "--") == text.hasPrefix("--"), "\(text.debugDescription)")
            #expect(ASCIIAffix.hasPrefix(text, "seven_day") == text.hasPrefix("seven_day"), "\(text.debugDescription)")
            #expect(ASCIIAffix.hasPrefix(text, "seven_day_") == text.hasPrefix("seven_day_"), "\(text.debugDescription)")
            for suffix: StaticString in ["_hour", "_hours", "_day", "_days", "_week", "_weeks", "_month", "/"] {
                #expect(ASCIIAffix.hasSuffix(text, suffix) == text.hasSuffix(suffix.description), "\(text.debugDescription) \(suffix)")
            }
        }
    }
}
