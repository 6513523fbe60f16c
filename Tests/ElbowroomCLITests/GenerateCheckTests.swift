import Foundation
import Testing
import ElbowroomTestSupport

/// `scripts/generate --check` (elbowroom-generate) fails, naming the file, when a derived file is
/// stale, and passes on the repository as committed.
@Suite struct GenerateCheckTests {
    /// A copy of the parts of the repository the generator reads and writes.
    static func copyOfTheRepository() throws -> String {
        let copy = NSTemporaryDirectory() + "elbowroom-generate-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
        for entry in ["templates", "Sources", "completions", "integrations", "docs", "man", "README.md"] {
            try FileManager.default.copyItem(atPath: ShippedFiles.path(entry), toPath: copy + "/" + entry)
        }
        return copy
    }

    static func check(_ root: String) throws -> BuiltExecutable.Run {
        let generator = try #require(BuiltExecutable.path("elbowroom-generate"))
        return try BuiltExecutable.run(generator, arguments: ["--check", root], environment: [:])
    }

    @Test func theCommittedDerivedFilesAreCurrent() throws {
        let run = try Self.check(ShippedFiles.root.path)
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test func aTemplateEditedWithoutRegeneratingFailsTheCheck() throws {
        let root = try Self.copyOfTheRepository()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let template = root + "/templates/minimal.tmpl"
        try (String(contentsOfFile: template, encoding: .utf8) + "(edited)\n").write(toFile: template, atomically: true, encoding: .utf8)
        let run = try Self.check(root)
        #expect(run.status == 1)
        #expect(run.stderr.contains("stale: Sources/ElbowroomTemplate/Library/ShippedTemplates.swift"), "\(run.stderr)")
    }

    @Test func aFilterDocumentedOnlyInItsDocCommentLeavesTheDocsAndManPageStale() throws {
        let root = try Self.copyOfTheRepository()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let source = root + "/Sources/ElbowroomTemplate/Values/Filter.swift"
        let text = try String(contentsOfFile: source, encoding: .utf8)
        let row = "/// | `not` | any |"
        #expect(text.contains(row))
        try text.replacingOccurrences(of: row, with: "/// | `walrus` | any | a new filter |\n" + row)
            .write(toFile: source, atomically: true, encoding: .utf8)
        let run = try Self.check(root)
        #expect(run.status == 1)
        #expect(run.stderr.contains("stale: docs/templates.md") && run.stderr.contains("stale: man/elbowroom.5"), "\(run.stderr)")
    }

    /// The render-path marker is true both ways: on every file render-path.files lists, on no other.
    @Test func aRenderPathMarkerMissingOrOutOfPlaceFailsTheCheck() throws {
        let root = try Self.copyOfTheRepository()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let marker = "// Render path: every prompt runs code in this file; the rules are in docs/performance.md.\n"
        let render = root + "/Sources/ElbowroomCLI/Commands/RenderCommand.swift"
        let text = try String(contentsOfFile: render, encoding: .utf8)
        #expect(text.hasPrefix(marker))
        try String(text.dropFirst(marker.count)).write(toFile: render, atomically: true, encoding: .utf8)
        let help = root + "/Sources/ElbowroomCLI/Support/Help.swift"
        try (marker + String(contentsOfFile: help, encoding: .utf8)).write(toFile: help, atomically: true, encoding: .utf8)
        let run = try Self.check(root)
        #expect(run.status == 1)
        #expect(run.stderr.contains("stale: Sources/ElbowroomCLI/Commands/RenderCommand.swift")
                && run.stderr.contains("stale: Sources/ElbowroomCLI/Support/Help.swift"), "\(run.stderr)")
    }

    @Test func aTemplateWithoutASummaryFailsTheCheckSayingWhereToAddOne() throws {
        let root = try Self.copyOfTheRepository()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try "{5h.left}\n".write(toFile: root + "/templates/walrus.tmpl", atomically: true, encoding: .utf8)
        let run = try Self.check(root)
        #expect(run.status == 1)
        #expect(run.stderr.contains("templates/walrus.tmpl has no line in TemplateLibrary.shipped"), "\(run.stderr)")
    }
}
