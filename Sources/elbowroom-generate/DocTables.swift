#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif
import ElbowroomAdapters
import ElbowroomCLI

/// The tables of variables, filters and config keys, each written once as a Markdown table in
/// the doc comment of the code it describes, and the lists of adapters and `init` snippets, from
/// the registry and the snippets: copied into regions of README.md, docs/*.md and the man pages
/// marked
///
///     <!-- scripts/generate: NAME -->          .\" scripts/generate: NAME
///     …                                         …
///     <!-- scripts/generate: end -->           .\" scripts/generate: end
enum DocTables {
    struct Problem: Error, CustomStringConvertible { let description: String }

    /// Each region's source: the Swift files whose doc comments hold the table, and its header row.
    /// A second file's table (same header) adds its rows after the first's: a provider's own
    /// `[accounts.NAME]` keys are documented in Provider.swift, beside their parsing.
    static let tables: [(name: String, files: [String], header: String)] = [
        ("variables", ["Sources/ElbowroomTemplate/Values/Variable.swift"], "| variable | type | value |"),
        ("filters", ["Sources/ElbowroomTemplate/Values/Filter.swift"], "| filter | applies to | result |"),
        ("config-keys", ["Sources/ElbowroomCore/Config/Config.swift", "Sources/ElbowroomCore/Config/Provider.swift"], "| key | default | meaning |"),
    ]

    /// Lists of names: in a man page one `.BR name ,` a line, in Markdown `` `a`, `b` ``.
    static let lists: [(name: String, items: [String])] = [
        ("adapter-names", AdapterRegistry.builtIn.map(\.name)),
        ("init-names", IntegrationSnippets.names),
    ]

    /// The files that may hold regions.
    static func candidates(root: String) -> [String] {
        let docs = ((try? FileManager.default.contentsOfDirectory(atPath: root + "/docs")) ?? [])
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        let man = ((try? FileManager.default.contentsOfDirectory(atPath: root + "/man")) ?? []).map { "man/" + $0 }
        return (["README.md"] + docs + man).sorted()
    }

    /// The table's lines (header, rule, rows) from the doc comment in `file`.
    static func table(root: String, file: String, header: String) throws -> [String] {
        let lines = try String(contentsOfFile: root + "/" + file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let rows = lines.map { blankTrimmed($0) }
        guard let start = rows.firstIndex(of: "/// " + header) else {
            throw Problem(description: "\(file): no doc-comment table headed \(header)")
        }
        return rows[start...].prefix { $0.hasPrefix("/// |") }.map { String($0.dropFirst(4)) }
    }

    /// `text` with every region's content written from its table.
    static func fill(_ text: String, path: String, root: String) throws -> String {
        let man = path.hasPrefix("man/")
        let open = man ? ".\\\" scripts/generate: " : "<!-- scripts/generate: "
        let close = man ? "" : " -->"
        var out: [Substring] = []
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let line = lines.popFirst() {
            out.append(line)
            guard line.hasPrefix(open), line.hasSuffix(close) else { continue }
            // In a man page, "NAME ." ends a list with that punctuation (default ",").
            let words = line.dropFirst(open.count).dropLast(close.count).split(separator: " ")
            guard let name = words.first, name != "end" else { continue }
            let last = words.count > 1 ? String(words[1]) : man ? "," : ""
            guard let end = lines.firstIndex(of: Substring(open + "end" + close)) else {
                throw Problem(description: "\(path): the \(name) region has no end line")
            }
            if name == "init-snippet", words.count > 1 {
                // What `elbowroom init NAME` prints, in a fenced block.
                let snippet = String(words[1])
                guard let entry = IntegrationSnippets.snippets.first(where: { $0.name == snippet }) else {
                    throw Problem(description: "\(path): no init snippet named \(snippet)")
                }
                out += (["```" + fenceLanguage(entry.name, file: entry.file)]
                    + entry.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                    + ["```"]).map { Substring($0) }
            } else if name == "init-table" {
                // One row per snippet: its name, the command, what it sets up.
                out += (["| for | run | it sets up |", "|---|---|---|"]
                    + IntegrationSnippets.names.map { n in
                        "| \(n) | `elbowroom init \(n)` | \(IntegrationSnippets.summary(of: n).replacing("|", with: "\\|")) |"
                    }).map { Substring($0) }
            } else if name == "options" {
                // `FlagCatalog`'s manual entries (`FlagManual`), as --help prints them.
                var glyphs: [Unicode.Scalar] = []
                var entries: [Substring] = []
                for entry in FlagManual.entries {
                    if man {
                        var text = inline(entry.help, &glyphs)
                        if let first = text.first, first.isLowercase { text = first.uppercased() + text.dropFirst() }
                        entries += [".TP", Substring(Self.line(inline(entry.tag, &glyphs))), Substring(Self.line(text))]
                    } else {
                        entries += wrapped("- \(entry.tag): \(entry.help)").enumerated().map { i, l in Substring(i == 0 ? l : "  " + l) }
                    }
                }
                out += glyphs.map { g in Substring(".if !c\\[u\(hex(g))] .char \\[u\(hex(g))] ?") } + entries
            } else if name == "contrast-table" {
                out += ContrastTable.markdown().map { Substring($0) }
            } else if let list = lists.first(where: { $0.name == name }) {
                out += (man
                    ? list.items.enumerated().map { i, item in
                        ".BR \(item.replacing("-", with: "\\-")) " + (i == list.items.count - 1 ? last : ",")
                    }
                    : wrapped(list.items.map { "`\($0)`" }.joined(separator: ", ") + last)).map { Substring($0) }
            } else if let source = tables.first(where: { $0.name == name }) {
                var table: [String] = []
                for (i, file) in source.files.enumerated() {
                    table += try self.table(root: root, file: file, header: source.header).dropFirst(i == 0 ? 0 : 2)
                }
                out += (man ? roff(table) : table).map { Substring($0) }
            } else {
                throw Problem(description: "\(path): no region named \(name) (scripts/generate knows \((lists.map(\.name) + tables.map(\.name) + ["init-snippet NAME", "init-table", "contrast-table", "options"]).joined(separator: ", ")))")
            }
            lines = lines[end...]
        }
        return out.joined(separator: "\n")
    }

    /// The Markdown fence language for a snippet file.
    static func fenceLanguage(_ name: String, file: String) -> String {
        if name == "tmux" { return "tmux" }
        switch file.split(separator: ".").last.map(String.init) ?? "" {
        case "jsonc": return "jsonc"
        case "json": return "json"
        case "toml": return "toml"
        case "ini", "service", "systemd": return "ini"
        case "sh": return "sh"
        case "zsh": return "zsh"
        case "fish": return "fish"
        default: return ""
        }
    }

    /// Text filled into lines of at most 100 characters.
    static func wrapped(_ text: String) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= 100 {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        return lines + [line]
    }

    // MARK: - Markdown cells to roff

    static func cells(_ row: String) -> [String] {
        var cells: [String] = []
        var cell = ""
        var chars = row.dropFirst().makeIterator()  // the leading |
        while let c = chars.next() {
            if c == "\\" {
                if let next = chars.next() { cell.append(next == "|" ? "|" : "\\"); if next != "|" { cell.append(next) } }
            } else if c == "|" {
                cells.append(blankTrimmed(cell))
                cell = ""
            } else {
                cell.append(c)
            }
        }
        return cells
    }

    /// A table as man-page paragraphs: `.TP`, the first cell with the middle ones in parentheses
    /// (`name (type: percent)`), then the last cell.
    static func roff(_ table: [String]) -> [String] {
        let header = cells(table[0])
        var out: [String] = []
        var glyphs: [Unicode.Scalar] = []
        for row in table.dropFirst(2) {
            let cells = cells(row)
            var tag = inline(cells[0], &glyphs)
            let middle = zip(header.dropFirst().dropLast(), cells.dropFirst().dropLast())
                .map { "\($0): " + inline($1, &glyphs) }
            if !middle.isEmpty { tag += " (" + middle.joined(separator: "; ") + ")" }
            var text = inline(cells.last ?? "", &glyphs)
            if let first = text.first, first.isLowercase { text = first.uppercased() + text.dropFirst() }
            out += [".TP", line(tag), line(text)]
        }
        // groff's devices lack some glyphs (block elements): a stand-in keeps it from warning.
        let fallbacks = glyphs.map { g in ".if !c\\[u\(hex(g))] .char \\[u\(hex(g))] ?" }
        return fallbacks + out
    }

    static func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// A roff text line: one starting with `.` or `'` would be a request.
    static func line(_ text: String) -> String {
        text.first == "." || text.first == "'" ? "\\&" + text : text
    }

    static let named: [Unicode.Scalar: String] = [
        "→": "\\(->", "←": "\\(<-", "…": "\\&...", "≥": "\\(>=", "≤": "\\(<=", "—": "\\(em", "–": "\\(en",
        "·": "\\(pc", "×": "\\(mu", "’": "'", "“": "\\(lq", "”": "\\(rq",
    ]

    /// Markdown inline text as roff: `code` bold, *emphasis* italic, [links](…) as their text,
    /// a parenthesis holding only a link dropped, and everything outside ASCII escaped.
    static func inline(_ markdown: String, _ glyphs: inout [Unicode.Scalar]) -> String {
        // Links only outside code spans (`-t '[{5h.left}%](level)'` is an example, not a link).
        var parts = markdown.split(separator: "`", omittingEmptySubsequences: false).map(String.init)
        for i in stride(from: 0, to: parts.count, by: 2) {
            // " ([fetching](fetching.md#…))" says where to read more: not in a man page.
            while let range = parenthesisedLink(in: parts[i]) {
                parts[i].removeSubrange(range)
            }
            while let (range, label) = firstLink(in: parts[i], from: parts[i].startIndex) {
                parts[i].replaceSubrange(range, with: label)
            }
        }
        let text = parts.joined(separator: "`")
        var out = ""
        var inCode = false
        var inEmphasis = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case "`":
                inCode.toggle()
                out += inCode ? "\\fB" : "\\fR"
            case "*" where !inCode:
                inEmphasis.toggle()
                out += inEmphasis ? "\\fI" : "\\fR"
            case "\\":
                out += "\\e"
            case "-":
                out += inCode ? "\\-" : "-"
            default:
                if scalar.isASCII {
                    out.unicodeScalars.append(scalar)
                } else if let name = named[scalar] {
                    out += name
                } else {
                    if !glyphs.contains(scalar) { glyphs.append(scalar) }
                    out += "\\[u\(hex(scalar))]"
                }
            }
        }
        return out
    }

    /// The first Markdown link `[label](target)` at or after `from`: where it stands and its
    /// label (the label runs to the first `]`, the target to the first `)`).
    static func firstLink(in text: String, from: String.Index) -> (Range<String.Index>, String)? {
        var start = from
        while let open = text[start...].firstIndex(of: "[") {
            guard let close = text[text.index(after: open)...].firstIndex(of: "]") else { return nil }
            let paren = text.index(after: close)
            if paren < text.endIndex, text[paren] == "(",
               let end = text[text.index(after: paren)...].firstIndex(of: ")") {
                return (open..<text.index(after: end), String(text[text.index(after: open)..<close]))
            }
            start = text.index(after: open)
        }
        return nil
    }

    /// ` ([label](target))`, a parenthesis holding only a link: where it stands.
    static func parenthesisedLink(in text: String) -> Range<String.Index>? {
        var start = text.startIndex
        while let (range, _) = firstLink(in: text, from: start) {
            if range.upperBound < text.endIndex, text[range.upperBound] == ")",
               let paren = text.index(range.lowerBound, offsetBy: -1, limitedBy: text.startIndex), text[paren] == "(",
               let space = text.index(paren, offsetBy: -1, limitedBy: text.startIndex), text[space] == " " {
                return space..<text.index(after: range.upperBound)
            }
            start = text.index(after: range.lowerBound)
        }
        return nil
    }
}

/// `text` without the spaces and tabs at either end.
func blankTrimmed<S: StringProtocol>(_ text: S) -> String {
    let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let first = text.firstIndex(where: { !isBlank($0) }), let last = text.lastIndex(where: { !isBlank($0) }) else { return "" }
    return String(text[first...last])
}
