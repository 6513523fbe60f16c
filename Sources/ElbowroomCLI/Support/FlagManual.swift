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

    /// `--help`'s OPTIONS: the tag, then the text from column 25, filled to 96 columns.
    static var helpText: String {
        let column = 24
        let indent = String(repeating: " ", count: column)
        var out: [String] = []
        for entry in entries {
            let tag = "  " + plain(entry.tag)
            var lines: [String] = []
            var line = tag.count <= column - 2 ? tag + String(repeating: " ", count: column - tag.count) : tag
            var fresh = tag.count <= column - 2
            if !fresh {
                lines.append(line)
                line = indent
                fresh = true
            }
            for word in plain(entry.help).split(separator: " ") {
                if fresh {
                    line += word
                    fresh = false
                } else if line.count + 1 + word.count <= 96 {
                    line += " " + word
                } else {
                    lines.append(line)
                    line = indent + word
                }
            }
            lines.append(line)
            out += lines
        }
        return out.joined(separator: "\n")
    }
}
