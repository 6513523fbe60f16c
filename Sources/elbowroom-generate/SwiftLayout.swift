/// Lays out a reflected Swift value (`String(reflecting:)`) as readable source: module prefixes
/// dropped, enum cases written `.case` (the context gives the type), `Optional(x)` as `x`, and
/// every call or array that does not fit in the line width broken one argument a line.
enum SwiftLayout {
    static let width = 110

    /// One argument or element: runs of code with bracketed groups among them.
    struct Item { var parts: [Part] = [] }
    enum Part {
        case code(String)
        case group(open: String, items: [Item], close: String)
    }

    static func format(_ reflected: String, indent: Int, prefixes: [String]) -> String {
        var chars = Array(reflected)[...]
        let item = simplified(parseItem(&chars, prefixes: prefixes))
        var out = ""
        write(item, indent: indent, column: indent, into: &out)
        return out
    }

    // MARK: - Parsing

    private static func parseItem(_ chars: inout ArraySlice<Character>, prefixes: [String]) -> Item {
        var item = Item()
        var code = ""
        func flush() {
            if !code.isEmpty { item.parts.append(.code(stripped(code, prefixes))) }
            code = ""
        }
        while let c = chars.first {
            switch c {
            case "(", "[":
                chars.removeFirst()
                flush()
                var items: [Item] = []
                let close: Character = c == "(" ? ")" : "]"
                while let next = chars.first, next != close {
                    let inner = parseItem(&chars, prefixes: prefixes)
                    if !inner.parts.isEmpty { items.append(inner) }
                    if chars.first == "," { chars.removeFirst() }
                }
                if !chars.isEmpty { chars.removeFirst() }
                item.parts.append(.group(open: String(c), items: items, close: String(close)))
            case ")", "]", ",":
                flush()
                return item
            case "\"":
                // A string literal as reflected: kept whole, escapes and all.
                flush()
                var literal = String(chars.removeFirst())
                var escaped = false
                while let d = chars.first {
                    chars.removeFirst()
                    literal.append(d)
                    if escaped { escaped = false } else if d == "\\" { escaped = true } else if d == "\"" { break }
                }
                item.parts.append(.code(literal))
            case " " where code.isEmpty && item.parts.isEmpty:
                chars.removeFirst()  // the space after a comma
            default:
                code.append(chars.removeFirst())
            }
        }
        flush()
        return item
    }

    private static func stripped(_ code: String, _ prefixes: [String]) -> String {
        var code = code
        for prefix in prefixes { code = code.replacing(prefix, with: "") }
        return code
    }

    /// `Optional(x)` as `x`, and `Type.Nested.member` as `.member`, all the way down.
    private static func simplified(_ item: Item) -> Item {
        var parts: [Part] = []
        for part in item.parts {
            switch part {
            case .code(let text):
                parts.append(.code(text.first == "\"" ? text : implicitMember(text)))
            case .group(let open, let items, let close):
                let items = items.map(simplified)
                if open == "(", items.count == 1, case .code(let text)? = parts.last, text.hasSuffix("Optional") {
                    parts.removeLast()
                    let label = String(text.dropLast("Optional".count))
                    if !label.isEmpty { parts.append(.code(label)) }
                    parts += items[0].parts
                } else {
                    parts.append(.group(open: open, items: items, close: close))
                }
            }
        }
        return Item(parts: parts)
    }

    /// The code's last word, `Type.member` (types capitalised, the member not), as `.member`.
    private static func implicitMember(_ code: String) -> String {
        let start = code.lastIndex { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") }
            .map(code.index(after:)) ?? code.startIndex
        let word = code[start...].split(separator: ".", omittingEmptySubsequences: false)
        guard word.count > 1, let member = word.last, let first = member.first, first.isLowercase || first == "_",
              word.dropLast().allSatisfy({ $0.first?.isUppercase == true }) else { return code }
        return String(code[..<start]) + "." + member
    }

    // MARK: - Writing

    private static func flat(_ item: Item) -> String {
        item.parts.map { part in
            switch part {
            case .code(let text): return text
            case .group(let open, let items, let close): return open + items.map(flat).joined(separator: ", ") + close
            }
        }.joined()
    }

    /// Writes `item` starting at `column`; lines it breaks start at `indent` (+ 4 inside groups).
    private static func write(_ item: Item, indent: Int, column: Int, into out: inout String) {
        var column = column
        for (i, part) in item.parts.enumerated() {
            switch part {
            case .code(let text):
                out += text
                column += text.count
            case .group(var open, var items, var close):
                // What must follow on this line: the rest of the item, and a comma.
                let whole = flat(Item(parts: [part]))
                let rest = flat(Item(parts: Array(item.parts[(i + 1)...])))
                if items.isEmpty || column + whole.count + rest.count + 1 <= width {
                    out += whole
                    column += whole.count
                    continue
                }
                // A call whose one argument is an array opens and closes on the same lines: `f([` … `])`.
                if open == "(", items.count == 1, items[0].parts.count == 1,
                   case .group("[", let elements, "]") = items[0].parts[0] {
                    (open, items, close) = ("([", elements, "])")
                }
                let pad = String(repeating: " ", count: indent + 4)
                out += open + "\n"
                for (j, inner) in items.enumerated() {
                    out += pad
                    write(inner, indent: indent + 4, column: indent + 4, into: &out)
                    out += j == items.count - 1 && open == "(" ? "\n" : ",\n"
                }
                out += String(repeating: " ", count: indent) + close
                column = indent + close.count
            }
        }
    }
}
