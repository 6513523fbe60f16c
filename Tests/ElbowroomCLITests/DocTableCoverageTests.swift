import Foundation
import Testing
@testable import ElbowroomCore
@testable import ElbowroomTemplate
import ElbowroomAdapters
@testable import ElbowroomCLI

/// The manual's tables are written once, in the doc comment of the code they describe, and
/// scripts/generate copies them into docs/ and the man pages. These hold each table to the names
/// the code accepts: a variable, filter or config key added without its row fails here, not in a
/// user's hands.
@Suite struct DocTableCoverageTests {
    /// The doc-comment table of `file` headed `header`, as its lines.
    static func table(_ file: String, headed header: String) throws -> String {
        let text = try ShippedFiles.read(file)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let start = try #require(lines.firstIndex(of: "/// " + header), "\(file): no table headed \(header)")
        return lines[start...].prefix { $0.hasPrefix("/// |") }.joined(separator: "\n")
    }

    @Test func everyVariableHasItsRow() throws {
        let table = try Self.table("Sources/ElbowroomTemplate/Values/Variable.swift", headed: "| variable | type | value |")
        let windowPrefixes = WindowCatalog.aliases.map { $0.alias + "." } + Variable.standIns.map { $0 + "." }
        var missing: [String] = []
        for name in Variable.allNames {
            // A window's field is documented once, as `W.field`.
            let documented = windowPrefixes.first(where: name.hasPrefix).map { "W." + name.dropFirst($0.count) } ?? name
            if !table.contains("`\(documented)`") { missing.append(documented) }
        }
        #expect(Set(missing).isEmpty, "variables with no row in Variable.swift's table: \(Set(missing).sorted())")
    }

    @Test func everyFilterHasItsRow() throws {
        let table = try Self.table("Sources/ElbowroomTemplate/Values/Filter.swift", headed: "| filter | applies to | result |")
        let missing = Filter.names.filter { !table.contains("`\($0)") }
        #expect(missing.isEmpty, "filters with no row in Filter.swift's table: \(missing)")
    }

    @Test func everyConfigKeyHasItsRow() throws {
        // A provider's own keys have their rows in Provider.swift, appended by scripts/generate.
        let table = try ["Config", "Provider"].map {
            try Self.table("Sources/ElbowroomCore/Config/\($0).swift", headed: "| key | default | meaning |")
        }.joined(separator: "\n")
        var missing: [String] = []
        for key in Config.rootKeys where !table.contains("`\(key)`") { missing.append(key) }
        for key in Config.accountKeys where !table.contains("`[accounts.NAME] \(key)`") { missing.append("accounts.NAME." + key) }
        let notifyRows = table.split(separator: "\n").filter { $0.contains("`[notify]") }.joined(separator: "\n")
        for kind in NotifyKind.allCases where !Self.names(kind.rawValue, in: notifyRows) { missing.append("notify." + kind.rawValue) }
        for key in ["warn", "critical"] where !table.contains("`[thresholds] \(key)`") { missing.append("thresholds." + key) }
        let colorRows = table.split(separator: "\n").filter { $0.contains("`[colors]") }.joined(separator: "\n")
        for key in Config.semanticColorKeys where !Self.names(key, in: colorRows) { missing.append("colors." + key) }
        for name in Config.tables where !Self.mentionsTable(name.replacingOccurrences(of: ".NAME", with: ""), in: table) {
            missing.append("[\(name)]")
        }
        #expect(missing.isEmpty, "config keys with no row in Config.swift's (or Provider.swift's) table: \(missing)")
    }

    /// Each built-in provider has its row in the table of providers (its `{agent}`, where its usage
    /// comes from, its keys): a provider added without one fails here.
    @Test func everyBuiltInProviderHasItsRow() throws {
        let doc = try ShippedFiles.read("docs/accounts-and-agents.md")
        let section = try #require(doc.components(separatedBy: "## Providers\n").dropFirst().first, "no ## Providers")
        let rows = section.split(separator: "\n").drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
        for word in Provider.builtInWords {
            let provider = try #require(Provider(word))
            #expect(rows.contains { $0.hasPrefix("| `\(word)` | `\(provider.agent)` |") },
                    "provider \(word) has no row in docs/accounts-and-agents.md's table of providers")
        }
    }

    /// A row names a table's keys as `` `[notify] warn`, `critical` ``.
    static func names(_ key: String, in rows: String) -> Bool { rows.contains("`\(key)`") || rows.contains("] \(key)`") }

    static func mentionsTable(_ table: String, in text: String) -> Bool { text.contains("`[\(table)]") || text.contains("`[\(table).") }

    /// Adapters and `init` names are lists the generator writes from the registry itself; what
    /// it writes must name every one (so a region that was deleted by hand is noticed).
    @Test func everyAdapterAndInitNameIsInTheDocs() throws {
        let adapters = try ShippedFiles.read("docs/adapters.md")
        let missingAdapters = AdapterRegistry.builtIn.map(\.name).filter { !adapters.contains("`\($0)`") }
        #expect(missingAdapters.isEmpty, "adapters missing from docs/adapters.md: \(missingAdapters)")
        let missingInits = IntegrationSnippets.names.filter { !adapters.contains("`\($0)`") }
        #expect(missingInits.isEmpty, "init names missing from docs/adapters.md: \(missingInits)")
    }

    /// docs/adapters.md's "Errors and exit status" table: every adapter in one row, and the row
    /// says "exit 2" exactly where the adapter's `errorReader` is not a bar's or a prompt's.
    @Test func theErrorTableSaysEachAdaptersExitStatus() throws {
        let text = try ShippedFiles.read("docs/adapters.md")
        let lines = text.split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex(of: "| adapter | prints on error |"))
        let rows = lines[(start + 2)...].prefix { $0.hasPrefix("|") }
        for adapter in AdapterRegistry.builtIn {
            let named = rows.filter { $0.split(separator: "|").first?.contains("`\(adapter.name)`") == true }
            #expect(named.count == 1, "\(adapter.name): \(named.count) rows")
            guard let row = named.first else { continue }
            #expect(row.contains("exit 2") == (adapter.errorReader != .consumer), "\(adapter.name): \(row)")
        }
    }
}
