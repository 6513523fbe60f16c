import Testing
import ElbowroomCore
@testable import ElbowroomTemplate

struct ErrorTests {
    /// A bad template and, under its last line, the caret the error must draw (`"  ^~~"` means
    /// column 3, three characters).
    struct Case: CustomTestStringConvertible, Sendable {
        var source: String
        var caret: String
        var message: String
        var suggestion: String? = nil
        var testDescription: String { source }
    }

    static let cases: [Case] = [
        Case(source: "{5h.lft}", caret: " ^~~~~~", message: "unknown variable '5h.lft'", suggestion: "5h.left"),
        Case(source: "x {5g.left}", caret: "   ^~", message: "unknown window '5g'", suggestion: "5h.left"),
        Case(source: "{sonet.used}", caret: " ^~~~~", message: "unknown window 'sonet'", suggestion: "sonnet.used"),
        Case(source: "{extra.usd}", caret: " ^~~~~~~~~", message: "unknown variable 'extra.usd'", suggestion: "extra.used"),
        Case(source: "{staus}", caret: " ^~~~~", message: "unknown variable 'staus'", suggestion: "status"),
        Case(source: "{5h}", caret: " ^~", message: "'5h' is a window; add a field, such as '5h.left'", suggestion: "5h.left"),
        Case(source: "{}", caret: "^~", message: "empty placeholder: write a variable name, such as '{5h.left}'"),
        Case(source: "{5h.left|rond}", caret: "         ^~~~", message: "unknown filter 'rond'", suggestion: "round"),
        Case(source: "{5h.left|bar}", caret: "         ^~~", message: "filter 'bar' takes 1 or 2 arguments (width, fill), got 0", suggestion: "bar(8)"),
        Case(source: "{5h.left|bar(x)}", caret: "             ^", message: "filter 'bar' needs a width from 1 to 100, got 'x'"),
        Case(source: "{5h.left|fixed(9)}", caret: "               ^", message: "filter 'fixed' needs a number of decimals from 0 to 6, got '9'"),
        Case(source: "{5h.left|round(2)}", caret: "              ^~~", message: "filter 'round' takes no arguments"),
        Case(source: "{5h.label|bar(8)}", caret: "          ^~~", message: "filter 'bar' needs a percentage, but '5h.label' is text"),
        Case(source: "{5h.left|pad(3)|bar(8)}", caret: "                ^~~", message: "filter 'bar' needs a percentage, but the result of 'pad' is text"),
        Case(source: "{5h.resets_in|duration(shrt)}", caret: "                       ^~~~", message: "filter 'duration' takes 'short' or 'long', got 'shrt'", suggestion: "short"),
        Case(source: "{opus.level|icon(a, b)}", caret: "                ^~~~~~", message: "filter 'icon' on a level takes 3 icons (ok, warn, critical), got 2", suggestion: "icon(●, ◐, ○)"),
        Case(source: "{5h.resets_at|time(\"%H)}", caret: "                   ^~~~~", message: "unclosed string: it ends with '\"'"),
        Case(source: "{5h.left|bar(8}", caret: "            ^", message: "unclosed '(': filter arguments end with ')'"),
        Case(source: "{5h.left 7d.left}", caret: "         ^~~~~~~", message: "expected '|' or '}' after '5h.left'"),
        Case(source: "{5h.left|spark(4)}", caret: "         ^~~~~", message: "filter 'spark' needs a sparkline, but '5h.left' is a percentage"),
        Case(source: "{5h.spark|spark(0)}", caret: "                ^", message: "filter 'spark' needs a number of points from 1 to 100, got '0'"),
        Case(source: "{5h.spark|spark}", caret: "          ^~~~~", message: "filter 'spark' takes 1 argument (points), got 0", suggestion: "spark(12)"),
        Case(source: "{5h.spark|bar(8)}", caret: "          ^~~", message: "filter 'bar' needs a percentage, but '5h.spark' is a sparkline"),
        Case(source: "{5h.rat}", caret: " ^~~~~~", message: "unknown variable '5h.rat'", suggestion: "5h.rate"),
        Case(source: "[x](lvel)", caret: "    ^~~~", message: "unknown style 'lvel'", suggestion: "level"),
        Case(source: "[x](bold gren)", caret: "         ^~~~", message: "unknown style 'gren'", suggestion: "green"),
        Case(source: "[x]", caret: "  ^", message: "a styled group needs a style: write '[…](style)', such as '](warn)'"),
        Case(source: "[x](warn", caret: "   ^", message: "unclosed '(' after ']': a style ends with ')'"),
        Case(source: "ab {5h.left", caret: "   ^", message: "unclosed '{': a placeholder ends with '}'"),
        Case(source: "a [x", caret: "  ^", message: "unclosed '[': a styled group ends with '](style)'"),
        Case(source: "a (x", caret: "  ^", message: "unclosed '(': a conditional group ends with ')'"),
        Case(source: "a]b", caret: " ^", message: "unexpected ']'; write '\\]' for a literal bracket"),
        Case(source: "a)b", caret: " ^", message: "unexpected ')'; write '\\)' for a literal parenthesis"),
        Case(source: "a}b", caret: " ^", message: "unexpected '}'; write '\\}' for a literal brace"),
        Case(source: "( [a)]", caret: "    ^", message: "unexpected ')': the '[' at 1:3 is still open"),
        Case(source: #"50\%"#, caret: "  ^~", message: #"unknown escape '\%'; escapes are \{ \} \[ \] \( \) \\ \n"#),
        // Positions count characters, and lines.
        Case(source: "ok\n··· {7d.lft}", caret: "     ^~~~~~", message: "unknown variable '7d.lft'", suggestion: "7d.left"),
        // "\r\n" is one line break, for the position and for the line shown.
        Case(source: "ok\r\n{7d.lft}", caret: " ^~~~~~", message: "unknown variable '7d.lft'", suggestion: "7d.left"),
        // Numeric arguments are bounded and the error names the range.
        Case(source: "{5h.left|bar(1000000)}", caret: "             ^~~~~~~", message: "filter 'bar' needs a width from 1 to 100, got '1000000'"),
        Case(source: "{5h.left|pad(1e9)}", caret: "             ^~~", message: "filter 'pad' needs a width from -100 to 100, got '1e9'"),
        Case(source: "{5h.left|pad(-101)}", caret: "             ^~~~", message: "filter 'pad' needs a width from -100 to 100, got '-101'"),
        Case(source: "{5h.left|fixed(-1)}", caret: "               ^~", message: "filter 'fixed' needs a number of decimals from 0 to 6, got '-1'"),
        // Nesting is bounded: the 33rd group is the error.
        Case(source: String(repeating: "(", count: 40) + "x" + String(repeating: ")", count: 40),
             caret: String(repeating: " ", count: 32) + "^",
             message: "groups nested too deeply: '[' and '(' may nest at most 32 levels"),
        Case(source: String(repeating: "[", count: 33) + "x" + String(repeating: "](bold)", count: 33),
             caret: String(repeating: " ", count: 32) + "^",
             message: "groups nested too deeply: '[' and '(' may nest at most 32 levels"),
    ]

    @Test(arguments: cases)
    func reportsPositionMessageAndSuggestion(_ c: Case) {
        #expect {
            _ = try Template.parse(c.source)
        } throws: { error in
            guard let e = error as? TemplateError else { return false }
            let lines = c.source.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            #expect(e.line == lines.count)
            #expect(e.column == c.caret.count - c.caret.drop { $0 == " " }.count + 1)
            #expect(e.length == c.caret.drop { $0 == " " }.count)
            #expect(e.message == c.message)
            #expect(e.suggestion == c.suggestion)
            #expect(e.sourceLine == String(lines.last!))
            return true
        }
    }

    @Test func descriptionReadsLikeACompiler() {
        #expect {
            _ = try Template.parse("5h {5h.lft}%", name: "compact")
        } throws: { error in
            (error as? TemplateError)?.description == """
                compact:1:5: error: unknown variable '5h.lft'
                5h {5h.lft}%
                    ^~~~~~
                did you mean '5h.left'?
                """
        }
    }

    /// API windows elbowroom does not know by name are accepted; they have no value when absent.
    @Test(arguments: ["{seven_day_cowork.left}", "{seven_day_oauth_apps.used}", "{five_hour.level}", "{worst.pace}"])
    func acceptsApiKeys(_ source: String) throws {
        _ = try Template.parse(source)
    }
}
