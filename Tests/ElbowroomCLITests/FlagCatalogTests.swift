import Testing
@testable import ElbowroomCLI

/// The flag catalog is what the parser takes and what --help documents: the completion scripts
/// are written from it, so this holds them to the parser too.
@Suite struct FlagCatalogTests {
    /// The command a flag of this scope goes with, and a value it accepts.
    static func invocation(_ flag: FlagCatalog.Flag, spelled: String) -> [String] {
        let command: [String]
        switch flag.scope {
        case .render, .global: command = []
        case .watch: command = ["watch"]
        case .history: command = ["history"]
        case .fetch: command = ["fetch"]
        case .guard: command = ["guard"]
        case .serve: command = ["serve"]
        case .doctor: command = ["doctor"]
        case .notify: command = ["notify"]
        case .cache: command = ["cache", "show"]
        case .`init`: command = ["init", "claude"]
        }
        let value: [String]
        switch flag.values {
        case .none: value = []
        case .adapters: value = ["waybar"]
        case .templates: value = ["compact"]
        case .windows: value = ["5h"]
        case .accounts: value = ["work"]
        case .words(_, let words): value = [String(words.split(separator: " ")[0])]
        case .free(let label): value = [label == "duration" ? "90m" : label == "address" ? "127.0.0.1:9180" : "30"]
        }
        return command + [spelled] + value
    }

    @Test(arguments: FlagCatalog.all)
    func theParserTakesEveryFlagWhereTheCatalogSaysItGoes(_ flag: FlagCatalog.Flag) throws {
        for spelled in FlagCatalog.spellings(flag) {
            _ = try ArgumentParser.parse(Self.invocation(flag, spelled: spelled))
        }
    }

    /// The manual has one entry per flag: its text is on exactly one of the flag's catalog
    /// entries, so --help, the man page and docs/commands.md say one thing.
    @Test(arguments: FlagCatalog.longs)
    func everyFlagHasOneManualEntry(_ long: String) {
        let texts = FlagCatalog.all.filter { $0.long == long }.compactMap(\.help)
        #expect(texts.count == 1, "\(long): \(texts.count) manual texts in FlagCatalog (one entry of it takes help:)")
        #expect(FlagManual.entries.filter { $0.tag.contains("`\(long)`") }.count == 1)
    }

    @Test(arguments: FlagCatalog.all)
    func helpDocumentsEveryFlag(_ flag: FlagCatalog.Flag) {
        #expect(Help.text.contains(flag.long), "--help does not mention \(flag.long)")
    }
}

extension FlagCatalog.Flag: CustomTestStringConvertible {
    public var testDescription: String { "\(long) (\(scope))" }
}
