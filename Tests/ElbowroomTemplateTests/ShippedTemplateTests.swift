#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import ElbowroomCore
@testable import ElbowroomTemplate

struct ShippedTemplateTests {
    static let templatesDir: String = {
        // Tests/ElbowroomTemplateTests/ShippedTemplateTests.swift → package root.
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/templates"
    }()

    static func shipped(_ name: String) throws -> Template {
        let source = try #require(TemplateLibrary.shipped.first { $0.name == name }).source
        return try Template.parse(source, name: name)
    }

    @Test func everyFileIsEmbeddedVerbatimAndRendersTheDemo() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.templatesDir).filter { $0.hasSuffix(".tmpl") }.sorted()
        #expect(files.map { String($0.dropLast(5)) } == TemplateLibrary.shipped.map(\.name).sorted())
        let demo = UsageView(cache: DemoReading.cache(now: Fixture.now), now: Fixture.now, config: Config())
        for file in files {
            let name = String(file.dropLast(5))
            let text = try #require(try TemplateLibrary.readTemplateFile(Self.templatesDir + "/" + file))
            #expect(text == TemplateLibrary.shipped.first { $0.name == name }?.source, "templates/\(file) differs from its embedded copy")
            let spans = try Template.parse(text, name: name).render(demo, localTime: Fixture.localTime)
            #expect(!spans.plainText.isEmpty, "\(name) renders nothing for the demo")
        }
    }

    @Test(arguments: ["compact", "full", "minimal", "tooltip", "claude"], Fixture.allCases)
    func mainTemplatesNeverRenderEmpty(name: String, fixture: Fixture) throws {
        #expect(!(try Self.shipped(name).text(fixture).isEmpty))
    }

    struct Golden: CustomTestStringConvertible, Sendable {
        var name: String
        var fixture: Fixture
        var expected: String
        var testDescription: String { "\(name) on \(fixture)" }
    }

    static let goldens: [Golden] = [
        Golden(name: "compact", fixture: .fresh, expected: "5h 37% · 7d 59% · Sonnet 82% · Opus 8% · credits $12.34 / $50.00"),
        Golden(name: "compact", fixture: .stale, expected: "5h 37% · 7d 59% · Sonnet 82% · Opus 8% stale"),
        Golden(name: "compact", fixture: .offline, expected: "5h 37% · 7d 59% · Sonnet 82% · Opus 8% offline"),
        Golden(name: "compact", fixture: .resetWindow, expected: "5h 100% · 7d 59%"),
        Golden(name: "compact", fixture: .missingWindows, expected: "7d 59%"),
        Golden(name: "compact", fixture: .limitsOnly, expected: "Opus 70%"),
        Golden(name: "compact", fixture: .signedOut, expected: "sign in to Claude Code"),
        Golden(name: "compact", fixture: .loading, expected: "loading…"),
        Golden(name: "minimal", fixture: .fresh, expected: "opus 8%"),
        Golden(name: "minimal", fixture: .signedOut, expected: "sign in to Claude Code"),
        Golden(name: "full", fixture: .fresh, expected: "5h 37% ↻2h13m out in 1h36m · 7d 59% ↻3d4h · Sonnet 82% ↻3d4h · Opus 8% ↻3d4h out in 7h59m · credits $12.34 / $50.00"),
        Golden(name: "full", fixture: .offline, expected: "5h 37% ↻2h13m out in 1h22m · 7d 59% ↻3d4h · Sonnet 82% ↻3d4h · Opus 8% ↻3d4h out in 7h49m · offline · network unreachable"),
        Golden(name: "full", fixture: .resetWindow, expected: "5h 100% · 7d 59% ↻1d"),
        Golden(name: "full", fixture: .limitsOnly, expected: "Opus 70% ↻1d"),
        Golden(name: "tooltip", fixture: .fresh, expected: """
            Claude usage (max) · updated 42s ago
            Session   37% left  ██████▎░░░ · resets 18:19 · pace 114% · runs out in 1h36m · api 42s ago
            Weekly    59% left  ████▏░░░░░ · resets Wed 20:06 · pace 75% · api 42s ago
            Sonnet    82% left  █▊░░░░░░░░ · resets Wed 20:06 · pace 33% · api 42s ago
            Opus       8% left  █████████▎ · resets Wed 20:06 · pace 168% · runs out in 7h59m · api 42s ago
            Credits  $12.34 of $50.00 (25%)
            """),
        Golden(name: "tooltip", fixture: .loading, expected: "Claude usage\nloading…"),
        Golden(name: "tooltip", fixture: .signedOut, expected: "Claude usage · sign in to Claude Code"),
        Golden(name: "claude", fixture: .fresh, expected: "5h 37% · 7d 59% · Sonnet 82% · Opus 8% · credits $12.34 / $50.00"),
    ]

    @Test(arguments: goldens)
    func rendersExactly(_ g: Golden) throws {
        let actual = try Self.shipped(g.name).text(g.fixture)
        #expect(actual == g.expected)
    }

    @Test func claudeTemplateShowsTheStatusLineInput() throws {
        let input = StatusLineInput(modelName: "Opus 4", costUSD: 1.5, contextUsedPercent: 23)
        let spans = try Self.shipped("claude").render(Fixture.fresh.view, statusLine: input, localTime: Fixture.localTime)
        #expect(spans.plainText == "Opus 4 · ctx 77% · 5h 37% · 7d 59% · Sonnet 82% · Opus 8% · credits $12.34 / $50.00")
        #expect(spans.first == Span("Opus 4", style: Style(bold: true)))
    }

    @Test func compactColoursEachWindowByItsLevel() throws {
        let spans = try Self.shipped("compact").render(Fixture.fresh.view, localTime: Fixture.localTime)
        #expect(spans == [Span("5h 37%", style: Style(semantic: .ok)), Span(" · "), Span("7d 59%", style: Style(semantic: .ok)),
                          Span(" · "), Span("Sonnet 82%", style: Style(semantic: .ok)),
                          Span(" · "), Span("Opus 8%", style: Style(semantic: .critical)), Span(" · credits $12.34 / $50.00")])
    }
}

struct DocumentationTests {
    /// Every inline `-t '…'` example in README.md and docs/templates.md parses.
    @Test func documentedExamplesParse() throws {
        let root = String(ShippedTemplateTests.templatesDir.dropLast("templates".count))
        var examples: [String] = []
        for page in ["README.md", "docs/templates.md"] {
            let text = String(decoding: try #require(FileManager.default.contents(atPath: root + page), "\(page)"), as: UTF8.self)
            for line in text.split(separator: "\n") where line.hasPrefix("elbowroom -t '") {
                examples.append(String(line.dropFirst("elbowroom -t '".count).prefix { $0 != "'" }))
            }
        }
        #expect(examples.count >= 4)
        for example in examples {
            #expect(throws: Never.self, "\(example)") { _ = try Template.parse(example) }
        }
        let bar = try Template.parse(#"[{5h.used|bar(8, "░")}](level) {5h.left}%"#)
        #expect(bar.text(.fresh) == "█████░░░ 37%")
    }
}
