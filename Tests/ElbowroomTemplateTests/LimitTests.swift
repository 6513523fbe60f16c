#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import ElbowroomCore
@testable import ElbowroomTemplate

/// Templates can never make the renderer spin, recurse or allocate without bound.
struct LimitTests {
    /// A copy-pasted non-breaking space inside `{…}` once made the lexer loop forever, growing
    /// its token list until the machine ran out of memory. Any Unicode space is a space there.
    @Test(arguments: ["\u{00A0}", "\u{2003}", "\u{3000}", "\u{202F}", "\u{000B}\u{00A0}"])
    func aNonASCIISpaceInsideAPlaceholderIsASpace(_ space: String) throws {
        let source = "{\(space)5h.left\(space)|\(space)pad(4)\(space)}"
        if space.first!.isNewline {
            #expect(throws: TemplateError.self) { try Template.parse(source) }
        } else {
            #expect(try Template.parse(source).text(.fresh) == "  37")
        }
    }

    @Test func deepNestingJustBelowTheLimitParses() throws {
        let depth = Parser.maxDepth
        let source = String(repeating: "(", count: depth) + "{5h.left}" + String(repeating: ")", count: depth)
        #expect(try Template.parse(source).text(.fresh) == "37")
    }

    /// Thousands of `(` once overflowed the parser's stack; now the first group past the limit
    /// is a positioned error, found without recursing further.
    @Test(arguments: ["(", "["])
    func thousandsOfOpenGroupsAreAPositionedError(_ open: String) {
        #expect {
            _ = try Template.parse(String(repeating: open, count: 100_000 / 4))
        } throws: { error in
            let e = error as! TemplateError
            return e.line == 1 && e.column == Parser.maxDepth + 1 && e.message.hasPrefix("groups nested too deeply")
        }
    }

    @Test func aTemplateOver64KiBIsRejectedBeforeParsing() {
        let source = String(repeating: "{5h.left}", count: 1_048_576 / 9)
        #expect {
            _ = try Template.parse(source, name: "big")
        } throws: { error in
            let e = error as! TemplateError
            return e.line == 1 && e.column == 1 && e.sourceLine.count <= 80
                && e.message == "template too large: \(source.utf8.count) bytes, at most 65536 (64 KiB)"
        }
        // The line quoted in the error is cut in bytes: 80 characters of a thousand marks each
        // were 160 KB.
        let marks = String(repeating: "e" + String(repeating: "\u{0301}", count: 1000), count: 100)
        #expect {
            _ = try Template.parse(marks, name: "marks")
        } throws: { error in
            let line = (error as! TemplateError).sourceLine
            return line.utf8.count <= 80 && line.utf8.count > 70
        }
        // 64 KiB exactly is still a template.
        let limit = String(repeating: "x", count: Template.maxSourceBytes)
        #expect(throws: Never.self) { try Template.parse(limit) }
    }

    @Test func aUserTemplateFileOver64KiBIsAnErrorNotAFallback() throws {
        let paths = try TemplateLibraryTests.sandbox()
        let path = paths.userTemplatesDir + "/compact.tmpl"
        try TemplateLibraryTests.write(String(repeating: "x", count: 1 << 20), to: path)
        #expect {
            _ = try TemplateLibrary.resolve("compact", paths: paths)
        } throws: { error in
            (error as! TemplateError) == TemplateError(
                name: path, line: 1, column: 1,
                message: "template too large: 1048576 bytes, at most 65536 (64 KiB)", sourceLine: "")
        }
        // A template file of exactly 64 KiB plus its final newline is fine.
        try TemplateLibraryTests.write(String(repeating: "x", count: Template.maxSourceBytes) + "\n", to: path)
        #expect(try TemplateLibrary.resolve("compact", paths: paths).source.utf8.count == Template.maxSourceBytes)
    }

    @Test func iconTakesAtMost100Icons() {
        let icons = (0...100).map { "i\($0)" }.joined(separator: ",")
        #expect {
            _ = try Template.parse("{5h.left|icon(\(icons))}")
        } throws: { error in
            (error as! TemplateError).message == "filter 'icon' takes 1 to 100 icons, got 101"
        }
    }

    /// One grapheme can carry thousands of combining marks; `bar(100, …)` would repeat it 100 times.
    @Test func barFillIsOneShortCharacter() {
        let heavy = "e" + String(repeating: "\u{0301}", count: 5000)
        #expect {
            _ = try Template.parse("{5h.left|bar(100, \"\(heavy)\")}")
        } throws: { error in
            (error as! TemplateError).message.hasPrefix("filter 'bar' needs one character to fill with")
        }
        #expect(throws: Never.self) { try Template.parse("{5h.left|bar(10, \"👩‍👩‍👧‍👦\")}") }
    }

    /// Did-you-mean is quadratic in the length of a name: one of 60 000 characters took a second.
    /// Names are at most 128 characters, and the error says so at once.
    @Test(arguments: [("{", "}"), ("{5h.left|", "}"), ("{", ".left}"), ("{5h.left|icon(", ")}")])
    func aHugeNameIsRejectedQuickly(before: String, after: String) {
        let name = String(repeating: "Q", count: 60_000)
        let source = before + name + after
        let start = ContinuousClock.now
        #expect {
            _ = try Template.parse(source)
        } throws: { error in
            let e = error as! TemplateError
            return e.message.hasPrefix("name too long: 600") && e.message.hasSuffix(" characters, at most 128 (quote long arguments)")
                && e.column == before.count + 1
        }
        #expect(ContinuousClock.now - start < .milliseconds(300))
        #expect(throws: Never.self) { try Template.parse("{5h.left|default(\"\(name)\")}") }
    }
}
