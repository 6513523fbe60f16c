import Foundation
import Testing
import ElbowroomCore
import ElbowroomTestSupport
import ElbowroomAdapters
@testable import ElbowroomCLI

/// The man pages in `man/` say what `--help` says: the same options, commands and environment
/// variables, in both directions, and they render without a groff warning.
@Suite struct ManPageTests {
    static let pages = ["man/elbowroom.1", "man/elbowroom-fetch.1", "man/elbowroom.5"]

    @Test func elbowroomPageListsExactlyTheOptionsOfHelp() throws {
        let page = try ManPage(ShippedFiles.read("man/elbowroom.1"))
        #expect(page.tagLines(in: "OPTIONS").flatMap(ManPage.options(in:)).sorted() == HelpText.options(Help.text))
    }

    /// --help's lists come from the registry and the snippets, so a new adapter or snippet is in it.
    @Test func helpNamesEveryBuiltInAdapterAndEveryInitTarget() {
        let words = Set(Help.text.split { " ,;()\n".contains($0) }.map(String.init))
        for name in ElbowroomAdapters.AdapterRegistry.builtIn.map(\.name) + IntegrationSnippets.names {
            #expect(words.contains(name), "--help does not name \(name)")
        }
    }

    @Test func elbowroomPageListsExactlyTheCommandsOfHelp() throws {
        let page = try ManPage(ShippedFiles.read("man/elbowroom.1"))
        #expect(page.tags(in: "COMMANDS").sorted() == HelpText.commands(Help.text))
    }

    @Test func elbowroomPageListsExactlyTheEnvironmentOfHelp() throws {
        let page = try ManPage(ShippedFiles.read("man/elbowroom.1"))
        #expect(page.tags(in: "ENVIRONMENT").sorted() == HelpText.environment(Help.text))
    }

    @Test func fetcherPageListsExactlyTheOptionsOfItsHelp() throws {
        let fetcher = try #require(BuiltExecutable.path("elbowroom-fetch"), "build the package first")
        let help = try BuiltExecutable.run(fetcher, arguments: ["--help"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(help.status == 0)
        let fromHelp = Set(ManPage.options(in: help.stdout)).sorted()
        #expect(!fromHelp.isEmpty)
        let page = try ManPage(ShippedFiles.read("man/elbowroom-fetch.1"))
        #expect(page.tagLines(in: "OPTIONS").flatMap(ManPage.options(in:)).sorted() == fromHelp)
    }

    @Test(arguments: pages)
    func pageCarriesTheVersionAndIsPlainASCII(_ path: String) throws {
        let text = try ShippedFiles.read(path)
        let th = try #require(text.split(separator: "\n").first { $0.hasPrefix(".TH ") })
        #expect(th.contains("\"elbowroom \(Version.current)\""), "\(path): .TH names another version: \(th)")
        // groff reads its input as Latin-1 unless told otherwise: keep the sources ASCII.
        #expect(text.unicodeScalars.allSatisfy { $0.isASCII }, "\(path) has a non-ASCII character")
    }

    static let groff = ["/usr/bin/groff", "/usr/local/bin/groff", "/opt/homebrew/bin/groff"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(.enabled(if: groff != nil, "groff is not installed (apt-get install groff): man pages not rendered"),
          arguments: pages)
    func pageRendersWithoutGroffWarnings(_ path: String) throws {
        let groff = try #require(Self.groff)
        let run = try BuiltExecutable.run(groff, arguments: ["-man", "-ww", "-z", ShippedFiles.path(path)],
                                          environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C"])
        #expect(run.status == 0)
        #expect(run.stderr == "", "groff -man -ww -z \(path):\n\(run.stderr)")
    }
}

/// Reads the first column of `--help`'s sections.
enum HelpText {
    /// Every option `--help` names anywhere (usage lines and the option table).
    static func options(_ help: String) -> [String] {
        Set(ManPage.options(in: help)).sorted()
    }

    /// `elbowroom WORD` (or `elbowroom [render]`) lines under USAGE.
    static func commands(_ help: String) -> [String] {
        section("USAGE", of: help).compactMap { line in
            let words = line.split(separator: " ")
            guard words.count > 1, words[0] == "elbowroom" else { return nil }
            let word = words[1].trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            return word.first?.isLetter == true ? word : nil
        }.sorted()
    }

    /// The variable names in the first column of ENVIRONMENT.
    static func environment(_ help: String) -> [String] {
        section("ENVIRONMENT", of: help).flatMap { line -> [String] in
            let column = line.trimmingCharacters(in: .whitespaces).components(separatedBy: "  ")[0]
            return column.components(separatedBy: ", ").map { $0.components(separatedBy: "=")[0] }
        }.sorted()
    }

    /// The lines of a section: from its heading to the next blank line.
    static func section(_ heading: String, of help: String) -> [String] {
        let lines = help.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: heading) else { return [] }
        return Array(lines[(start + 1)...].prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
    }
}

/// Just enough of a man page: sections and the tag line of each `.TP` entry, with roff escapes removed.
struct ManPage {
    let lines: [String]

    init(_ source: String) { lines = source.components(separatedBy: "\n") }

    /// The tag lines (the line after each `.TP`) in section `name`, as plain text.
    func tagLines(in name: String) -> [String] {
        var inSection = false
        var tags: [String] = []
        for (i, line) in lines.enumerated() {
            if line.hasPrefix(".SH ") {
                inSection = line.dropFirst(4).trimmingCharacters(in: CharacterSet(charactersIn: "\" ")) == name
            } else if inSection, line == ".TP", i + 1 < lines.count {
                tags.append(Self.plain(lines[i + 1]))
            }
        }
        return tags
    }

    /// The first word of each tag line in section `name` (a command or variable name).
    func tags(in name: String) -> [String] {
        tagLines(in: name).map { $0.components(separatedBy: " ")[0] }
    }

    /// A roff line as text: macro name, font escapes, quotes and `\-` removed.
    static func plain(_ line: String) -> String {
        var text = line
        if text.hasPrefix("."), let space = text.firstIndex(of: " ") { text = String(text[text.index(after: space)...]) }
        for font in ["\\fB", "\\fI", "\\fR", "\\fP"] { text = text.replacingOccurrences(of: font, with: "") }
        text = text.replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\"", with: "")
        return text.trimmingCharacters(in: .whitespaces)
    }

    /// Every `-x` / `--word` in a text that stands as a word of its own (not `elbowroom-fetch`).
    static func options(in text: String) -> [String] {
        var found: [String] = []
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let startsWord = i == 0 || !(CharacterSet.alphanumerics.contains(scalars[i - 1]) || scalars[i - 1] == "-" || scalars[i - 1] == "_")
            if startsWord, scalars[i] == "-" {
                var j = i
                while j < scalars.count, scalars[j] == "-" { j += 1 }
                let dashes = j - i
                var k = j
                while k < scalars.count, CharacterSet.alphanumerics.contains(scalars[k]) || scalars[k] == "-" { k += 1 }
                let word = String(String.UnicodeScalarView(scalars[j..<k]))
                let isOption = (dashes == 2 && word.count > 1 && word.first!.isLetter) || (dashes == 1 && word.count == 1 && word.first!.isLetter)
                if isOption { found.append(String(repeating: "-", count: dashes) + word) }
                i = max(k, i + 1)
            } else {
                i += 1
            }
        }
        return found
    }
}
