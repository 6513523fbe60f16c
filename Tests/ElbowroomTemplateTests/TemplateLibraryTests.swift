#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import ElbowroomCore
@testable import ElbowroomTemplate

struct TemplateLibraryTests {
    /// Paths under a fresh temporary HOME and XDG_CONFIG_HOME.
    static func sandbox() throws -> Paths {
        let root = FileManager.default.temporaryDirectory.path + "/elbowroom-template-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root + "/config/elbowroom/templates", withIntermediateDirectories: true)
        return Paths(environment: ElbowroomEnvironment(["HOME": root, "XDG_CONFIG_HOME": root + "/config"]))
    }

    static func write(_ text: String, to path: String) throws {
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
    }

    @Test func shippedNameResolves() throws {
        let template = try TemplateLibrary.resolve("compact", paths: try Self.sandbox())
        #expect(template.name == "compact")
        #expect(template.source == TemplateLibrary.shipped[0].source)
    }

    @Test func userTemplateWinsOverShipped() throws {
        let paths = try Self.sandbox()
        let path = paths.userTemplatesDir + "/compact.tmpl"
        try Self.write("mine {5h.left}\n", to: path)
        let template = try TemplateLibrary.resolve("compact", paths: paths)
        #expect(template.name == path)
        #expect(template.text(.fresh) == "mine 37")
        #expect(try TemplateLibrary.source(named: "compact", paths: paths) == "mine {5h.left}")
        let entry = try #require(TemplateLibrary.list(paths: paths).first { $0.name == "compact" })
        #expect(entry.origin == path)
    }

    @Test func userOnlyTemplateIsListed() throws {
        let paths = try Self.sandbox()
        try Self.write("{worst.left}", to: paths.userTemplatesDir + "/tiny.tmpl")
        let names = TemplateLibrary.list(paths: paths).map(\.name)
        #expect(names == ["claude", "compact", "full", "minimal", "tiny", "tooltip"])
        #expect(try TemplateLibrary.resolve("tiny", paths: paths).text(.fresh) == "8")
    }

    @Test func unknownBareWordIsAnErrorWithSuggestion() throws {
        let paths = try Self.sandbox()
        #expect {
            _ = try TemplateLibrary.resolve("compat", paths: paths)
        } throws: { error in
            let e = error as? TemplateError
            return e?.suggestion == "compact" && e?.message.hasPrefix("unknown template 'compat'") == true
        }
    }

    @Test func anythingElseIsInlineText() throws {
        let template = try TemplateLibrary.resolve("5h {5h.left}%", paths: try Self.sandbox())
        #expect(template.name == "template")
        #expect(template.text(.fresh) == "5h 37%")
    }

    @Test func errorsInUserFilesNameTheFile() throws {
        let paths = try Self.sandbox()
        let path = paths.userTemplatesDir + "/bad.tmpl"
        try Self.write("line one\n{7d.lft}\n", to: path)
        #expect {
            _ = try TemplateLibrary.resolve("bad", paths: paths)
        } throws: { error in
            let e = error as? TemplateError
            return e?.name == path && e?.line == 2 && e?.column == 2
        }
    }

    /// A template's name is ASCII letters, digits, `_` and `-` (anything else is template text),
    /// decided on bytes as it was on `Character`s.
    @Test(arguments: [
        ("compact", true), ("my-template_2", true), ("Full", true), ("", false), ("a b", false), ("é", false),
        ("e\u{301}", false), ("full.tmpl", false), ("{5h.left}", false), ("x\r\n", false), ("٣", false), ("ａ", false),
    ])
    func templateNamesAreASCIIWords(text: String, isName: Bool) {
        #expect(TemplateLibrary.isName(text) == isName)
        #expect(TemplateLibrary.isName(text) == (!text.isEmpty && text.allSatisfy {
            $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-")
        }))
    }

    /// A template file loses its final newline as its last `Character` would: `\n` or `\r\n`,
    /// nothing else (a lone `\r`, a mark after the newline), invalid UTF-8 repaired the same.
    @Test func aFilesFinalNewlineGoesAsItsLastCharacterWould() {
        let samples: [[UInt8]] = [[], [0x0A], [0x0D], [0x0D, 0x0A], [0x0A, 0x0A], [0x61, 0x0D, 0x0A, 0x0D, 0x0A], [0x61, 0x0A, 0xCC, 0x81],
                                  [0x61, 0x0D], [0xE2, 0x0A], [0xE2, 0x82, 0x0D, 0x0A], [0x7B, 0x35, 0x68, 0x7D, 0x0A], [0x0A, 0x0D]]
        for bytes in samples {
            var expected = String(decoding: bytes, as: UTF8.self)
            if expected.last == "\n" || expected.last == "\r\n" { expected.removeLast() }
            #expect(TemplateLibrary.templateText(bytes) == expected, "\(bytes)")
        }
    }
}
