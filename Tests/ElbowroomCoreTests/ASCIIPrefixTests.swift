import Testing
@testable import ElbowroomCore

/// `ASCIIPrefix` answers on bytes where that is what `hasPrefix` says, and asks `hasPrefix` where
/// a mark joins the prefix to what follows: the same answer as `hasPrefix` for every prefix the
/// program looks for, over texts made to tell them apart.
@Suite struct ASCIIPrefixTests {
    static let texts = ["", "/", "~", "~/", "//", "/a", "~/a", "a/", "~a", "/\u{301}", "/\u{301}a", "~/\u{301}x", "~\u{301}/x",
                        "/é", "~/é", "\u{301}/", "/\r\n", "~/\u{200D}", "/\u{1F600}", "\u{FF0F}x",
                        "-", "--", "---", "-\u{301}", "--\u{301}x", "--x=1", "\u{2212}-", "—x",
                        "seven_day", "seven_day_", "seven_day_opus", "seven_dayé", "seven_day\u{301}", "seven_day_\u{301}",
                        "seven_da", "Seven_day", "seven_day\r\n", "\u{FF53}even_day", "seven\u{5F}day", "seven_day\u{200D}x"]

    @Test func isWhatHasPrefixSays() {
        for text in Self.texts {
            #expect(ASCIIPrefix.matches(text, "/") == text.hasPrefix("/"), "\(text.debugDescription)")
            #expect(ASCIIPrefix.matches(text, "~/") == text.hasPrefix("~/"), "\(text.debugDescription)")
            #expect(ASCIIPrefix.matches(text, "-") == text.hasPrefix("-"), "\(text.debugDescription)")
            #expect(ASCIIPrefix.matches(text, "--") == text.hasPrefix("--"), "\(text.debugDescription)")
            #expect(ASCIIPrefix.matches(text, "seven_day") == text.hasPrefix("seven_day"), "\(text.debugDescription)")
            #expect(ASCIIPrefix.matches(text, "seven_day_") == text.hasPrefix("seven_day_"), "\(text.debugDescription)")
        }
    }
}
