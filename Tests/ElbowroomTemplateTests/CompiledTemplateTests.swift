#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Foundation
import Testing
import ElbowroomCore
@testable import ElbowroomTemplate

/// The shipped templates are parsed at build time: `ShippedTemplates.swift` (written by
/// scripts/generate, which `scripts/generate --check` keeps current) holds each one's text and
/// tree. These tests hold the tree the binary has equal to what the parser makes of that text.
@Suite struct CompiledTemplateTests {
    static let regenerate = "run scripts/generate"

    /// Every `templates/*.tmpl`, by name, as `TemplateLibrary` reads a template file.
    static func templateFiles() throws -> [(name: String, source: String)] {
        let dir = ShippedTemplateTests.templatesDir
        return try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".tmpl") }.sorted()
            .map { file in (String(file.dropLast(5)), try #require(try TemplateLibrary.readTemplateFile(dir + "/" + file))) }
    }

    /// What the binary holds (not only the file's text): the same tree as the parser's, for the
    /// same text, for every template file.
    @Test func everyCompiledTreeEqualsTheParsersTree() throws {
        for (name, source) in try Self.templateFiles() {
            let compiled = TemplateLibrary.compiled(name)
            #expect(TemplateLibrary.shippedSource(name) == source, "\(name): compiled from other text; \(Self.regenerate)")
            #expect(compiled?.program == (try Template.parse(source, name: name).program),
                    "\(name): compiled tree differs from the parser's; \(Self.regenerate)")
            #expect(compiled?.namedKeys == (try Template.parse(source, name: name).namedKeys),
                    "\(name): compiled window keys differ from the parser's; \(Self.regenerate)")
            #expect(compiled?.program.readsHistory == (try Template.parse(source, name: name).readsHistory),
                    "\(name): compiled history use differs from the parser's; \(Self.regenerate)")
        }
    }

    /// Resolving a shipped name gives the compiled tree, which equals a fresh parse in every
    /// field the renderer reads.
    @Test func resolvingAShippedNameEqualsParsingIt() throws {
        let paths = Paths(environment: ElbowroomEnvironment(["HOME": "/nonexistent-elbowroom-home"]))
        for shipped in TemplateLibrary.shipped {
            let resolved = try TemplateLibrary.resolve(shipped.name, paths: paths)
            let parsed = try Template.parse(shipped.source, name: shipped.name)
            #expect(resolved.name == parsed.name && resolved.source == parsed.source)
            #expect(resolved.program == parsed.program && resolved.namedKeys == parsed.namedKeys)
            #expect(resolved.readsHistory == parsed.readsHistory && resolved.namesAccounts == parsed.namesAccounts)
        }
    }

    /// A compiled tree is used only for the very text it was made from: a user template of the
    /// same name (like a template file changed without regenerating) is parsed.
    @Test func aCompiledTreeIsUsedOnlyForItsOwnText() throws {
        #expect(TemplateLibrary.compiled("no-such-template") == nil && TemplateLibrary.shippedSource("no-such-template") == nil)
        let dir = TempDir()
        let custom = "{5h.left}"
        try FileManager.default.createDirectory(atPath: dir.path + "/elbowroom/templates", withIntermediateDirectories: true)
        try custom.write(toFile: dir.path + "/elbowroom/templates/compact.tmpl", atomically: true, encoding: .utf8)
        let userPaths = Paths(environment: ElbowroomEnvironment(["HOME": "/nonexistent-elbowroom-home", "XDG_CONFIG_HOME": dir.path]))
        let overridden = try TemplateLibrary.resolve("compact", paths: userPaths)
        #expect(overridden.source == custom)
        #expect(overridden.program == (try Template.parse(custom).program))
    }
}

/// A temporary directory removed at the end of the test.
final class TempDir {
    let path: String
    init() {
        path = NSTemporaryDirectory() + "elbowroom-compiled-\(UInt64.random(in: 0...UInt64.max))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}
