/// The manual's options, written from `FlagCatalog`: each long flag once, with its spellings, what
/// its value is called, and its `help`. `--help` prints them as text; `scripts/generate` writes
/// the same entries into the OPTIONS of man/elbowroom.1 (roff) and into docs/commands.md.
package enum FlagManual {
    /// One option: its tag (`` `-a`, `--adapter` *NAME* ``) and its text, both Markdown.
    package struct Entry: Sendable {
        package let tag: String
        package let help: String
    }

    package static var entries: [Entry] {
        FlagCatalog.longs.compactMap { long in
            let flags = FlagCatalog.all.filter { $0.long == long }
            guard let first = flags.first, let help = flags.first(where: { $0.help != nil })?.help else { return nil }
            var tag = FlagCatalog.spellings(first).map { "`\($0)`" }.joined(separator: ", ")
            if let value = placeholder(first) { tag += " *\(value)*" }
            return Entry(tag: tag, help: help)
        }
    }

    /// What the manual calls a flag's value: its own `placeholder`, else one its values imply.
    static func placeholder(_ flag: FlagCatalog.Flag) -> String? {
        if let placeholder = flag.placeholder { return placeholder }
        switch flag.values {
        case .none: return nil
        case .adapters, .windows, .accounts: return "NAME"
        case .templates: return "NAME|TEXT"
        case .words(_, let words): return words.split(separator: " ").joined(separator: "|")
        case .free(let label): return label.uppercased()
        }
    }

    /// Markdown inline text as plain text: code spans and emphasis lose their marks.
    package static func plain(_ markdown: String) -> String {
        String(markdown.unicodeScalars.filter { $0 != "`" && $0 != "*" }.map(Character.init))
    }

    /// `--help`'s OPTIONS: the tag, then the text from column 25, filled to 96 columns
    /// (`Help.fill`); a tag too long for its column has the text start on the next line.
    static var helpText: String {
        let indent = String(repeating: " ", count: 24)
        return entries.map { entry in
            let tag = "  " + plain(entry.tag)
            let words = plain(entry.help).split(separator: " ").map(String.init)
            guard tag.count <= 22 else { return tag + "\n" + Help.fill([indent + words[0]] + words.dropFirst(), indent: indent, last: "") }
            let first = tag + String(repeating: " ", count: 24 - tag.count) + words[0]
            return Help.fill([first] + words.dropFirst(), indent: indent, last: "")
        }.joined(separator: "\n")
    }
}
