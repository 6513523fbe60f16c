// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// The parser a render with a user's template runs: the same tree as `Lexer` + `Parser`, made in
/// one pass over the source's UTF-8 bytes, with the windows it names and which top-level groups
/// repeat per window worked out on the way.
///
/// It takes the templates people write and declines anything else: an error of any kind, a name
/// it does not know by heart (a window named by an API key it has not heard of), a space
/// other than ASCII inside a placeholder, an escape of a non-ASCII character, or a character that
/// the Unicode rules join to a bracket, brace, quote or backslash next to it (a combining accent
/// after `]`). `Template.parse` then runs the full lexer and parser, which make the same tree or
/// the error with its line, column and did-you-mean. So a user's template costs a render what a
/// shipped one does (a few tens of thousands of instructions to parse a large one, where
/// `Character` by `Character` it was 2.4 million; BENCHMARKS.md), and what it accepts is held
/// equal to the full parser's tree by `QuickParserTests` (every shipped and documented template,
/// and thousands of generated and mutated ones).
struct QuickParser {
    /// Anything the quick parser does not take: the full parser decides.
    struct Declined: Error {}

    /// The parsed template, or `nil` when the full parser must decide.
    static func parse(_ source: String, name: String) -> Template? {
        var text = source
        return text.withUTF8 { bytes -> Template? in
            var parser = QuickParser(bytes: bytes)
            do throws(Declined) {
                _ = try parser.sequence(closer: nil)
                return Template(name: name, source: source, program: parser.program(), namedKeys: parser.namedKeys)
            } catch {
                return nil
            }
        }
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    /// Where the last `word()` has its first `:` and its first `.` (-1: none).
    private var firstColon = -1
    private var firstDot = -1
    private var depth = 0
    /// What `Template.init(name:source:nodes:)` would work out by walking the tree.
    private var namedKeys: [String] = []
    /// The text being gathered: a run of the source from `runStart` (-1: none), and what came
    /// before an escape in it (escapes make the text differ from the source), copied only then.
    private var runStart = -1
    private var text: [UInt8] = []
    /// The template laid out flat as it is parsed (`Program(nodes)` of the full parser's tree,
    /// held equal to it by `QuickParserTests`): a tree made and then laid out, and then freed,
    /// cost a render more than the parse.
    private var ops = OpTable()
    private var texts: [String] = []
    private var slots: [Program.Slot] = []
    private var filters: [Filter] = []
    /// Where the last top-level part begins in `ops` (for whether the template ends with the
    /// separator).
    private var lastTopLevel = -1

    private func program() -> Program {
        func separatorAt(_ op: Int, _ test: (String) -> Bool) -> Bool {
            guard op >= 0, op < ops.count, case .text(let k) = ops[op] else { return false }
            return test(texts[k])
        }
        return Program(ops: ops, texts: texts, slots: slots, filters: filters,
                       startsWithSeparator: separatorAt(0, Renderer.startsWithSeparator),
                       endsWithSeparator: separatorAt(lastTopLevel, Renderer.endsWithSeparator))
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        // Room for about what a template of this size lays out (a byte of source or more for
        // every op): grown one doubling at a time, each growth copied the lot.
        ops.reserveCapacity(bytes.count / 6 + 4)
        texts.reserveCapacity(bytes.count / 16 + 2)
        slots.reserveCapacity(bytes.count / 16 + 2)
        filters.reserveCapacity(bytes.count / 48 + 2)
    }

    // ASCII bytes the grammar gives a meaning.
    private static let backslash: UInt8 = 0x5C, openBrace: UInt8 = 0x7B, closeBrace: UInt8 = 0x7D
    private static let openBracket: UInt8 = 0x5B, closeBracket: UInt8 = 0x5D
    private static let openParen: UInt8 = 0x28, closeParen: UInt8 = 0x29
    private static let pipe: UInt8 = 0x7C, comma: UInt8 = 0x2C, quote: UInt8 = 0x22, space: UInt8 = 0x20

    /// `\n`, `\r`, vertical tab and form feed: the ASCII characters `Character.isNewline` is true for.
    private static func isNewline(_ b: UInt8) -> Bool { b == 0x0A || b == 0x0D || b == 0x0B || b == 0x0C }

    // MARK: Text and groups

    /// Lays out the parts up to the end of the group `closer` ends (`]`, `)`, or the end of the
    /// source for the top level); leaves `index` on the closer. Returns whether a placeholder in
    /// it reads `each.*` (a window) and whether one reads `each:…` (an account).
    private mutating func sequence(closer: UInt8?) throws(Declined) -> (eachWindow: Bool, eachAccount: Bool) {
        let top = closer == nil
        var each = (eachWindow: false, eachAccount: false)
        while true {
            guard index < bytes.count else {
                if top {
                    try flushText(top: top)
                    return each
                }
                throw Declined()  // an unclosed group
            }
            let b = bytes[index]
            switch b {
            case Self.backslash:
                try escape()
            case Self.openBrace:
                try flushText(top: top)
                let placeholder = try placeholder()
                if top { lastTopLevel = ops.count }
                if placeholder.variable.windowName == "each" { each.eachWindow = true }
                if placeholder.account == "each" { each.eachAccount = true }
                ops.append(.placeholder(slots.count))
                slots.append(placeholder)
            case Self.closeBrace:
                throw Declined()
            case Self.openBracket:
                try flushText(top: top)
                try enterGroup()
                index += 1
                let at = ops.count
                if top { lastTopLevel = at }
                ops.append(.text(0))  // (its place; set once its end and style are known)
                let inner = try sequence(closer: Self.closeBracket)
                depth -= 1
                let style = try styleAfterBracket()
                ops[at] = .styled(style, end: ops.count)
                each = (each.eachWindow || inner.eachWindow, each.eachAccount || inner.eachAccount)
            case Self.openParen:
                try flushText(top: top)
                try enterGroup()
                index += 1
                let at = ops.count
                if top { lastTopLevel = at }
                ops.append(.text(0))
                let inner = try sequence(closer: Self.closeParen)
                depth -= 1
                index += 1  // the ')'
                ops[at] = .conditional(end: ops.count, eachWindow: inner.eachWindow, eachAccount: inner.eachAccount)
                each = (each.eachWindow || inner.eachWindow, each.eachAccount || inner.eachAccount)
            case Self.closeBracket, Self.closeParen:
                guard b == closer else { throw Declined() }
                try flushText(top: top)
                return each
            default:
                if runStart < 0 { runStart = index }
                guard b < 0x80 else {
                    index += try scalar(at: index)
                    continue
                }
                // A run of plain ASCII text at once: up to a byte the grammar gives a meaning
                // (`\ { } [ ] ( )`) or one past ASCII, which the cases above look at.
                let meaningful: UInt64 = 1 << (0x28 - 0x20) | 1 << (0x29 - 0x20) | 1 << (0x5B - 0x20)
                    | 1 << (0x5C - 0x20) | 1 << (0x5D - 0x20)
                var i = index + 1
                while i < bytes.count {
                    let c = bytes[i]
                    if c >= 0x80 || c == Self.openBrace || c == Self.closeBrace
                        || (c >= 0x20 && c < 0x60 && meaningful >> (c - 0x20) & 1 != 0) { break }
                    i += 1
                }
                index = i
            }
        }
    }

    private mutating func flushText(top: Bool) throws(Declined) {
        let part: String
        if text.isEmpty {
            // No escape: the text is the source's own bytes; the separator and a space, a
            // template's commonest texts, as literals (made of the bytes, ~90 instructions each).
            guard runStart >= 0 else { return }
            let run = Word(bytes, runStart, index)
            part = run.is(" · ") ? " · " : run.is(" ") ? " " : run.is("%") ? "%" : string(runStart, index)
        } else {
            endRun()
            part = String(decoding: text, as: UTF8.self)
            text.removeAll(keepingCapacity: true)
        }
        if top { lastTopLevel = ops.count }
        ops.append(.text(texts.count))
        texts.append(part)
        runStart = -1
    }

    /// An escape: the source's run so far joins the gathered text.
    private mutating func endRun() {
        if runStart >= 0 { text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
        runStart = -1
    }

    /// `\{ \} \[ \] \( \) \\ \n`, and a backslash at the end of a line, which joins the next.
    private mutating func escape() throws(Declined) {
        guard index + 1 < bytes.count else { throw Declined() }
        endRun()
        let next = bytes[index + 1]
        // The escaped character is the whole `Character` after the backslash: one a mark joins
        // (`\n` and a skin tone) is no escape.
        if index + 2 < bytes.count, bytes[index + 2] >= 0x80, next < 0x80 {
            let lead = bytes[index + 2]
            let length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
            guard index + 2 + length <= bytes.count else { throw Declined() }
            let value = Self.value(at: index + 2, length: length, in: bytes)
            if !Self.standsAlone(value), Self.joins(next, value, after: false) { throw Declined() }
        }
        switch next {
        case Self.openBrace, Self.closeBrace, Self.openBracket, Self.closeBracket, Self.openParen, Self.closeParen,
             Self.backslash:
            text.append(next)
            index += 2
        case 0x6E:  // n
            text.append(0x0A)
            index += 2
        case 0x0D:
            // "\r\n" is one character, one line break.
            index += index + 2 < bytes.count && bytes[index + 2] == 0x0A ? 3 : 2
        case 0x0A, 0x0B, 0x0C:
            index += 2
        default:
            throw Declined()  // an unknown escape, or an escaped non-ASCII character
        }
    }

    private mutating func enterGroup() throws(Declined) {
        guard depth < Parser.maxDepth else { throw Declined() }
        depth += 1
    }

    /// `](style)`; `index` is on the `]`.
    private mutating func styleAfterBracket() throws(Declined) -> StyleSpec.Parsed {
        index += 1
        guard index < bytes.count, bytes[index] == Self.openParen else { throw Declined() }
        index += 1
        let start = index
        var blank = true
        while index < bytes.count, bytes[index] != Self.closeParen {
            let b = bytes[index]
            guard b >= 0x20, b < 0x7F else { throw Declined() }  // a line break, a control or non-ASCII character
            if b != Self.space { blank = false }
            index += 1
        }
        guard index < bytes.count, !blank else { throw Declined() }
        let spec = UnsafeBufferPointer(rebasing: bytes[start..<index])
        index += 1  // the ')'
        return try Self.style(spec)
    }

    /// A style spec (ASCII): the words templates use most, read here; any other (a colour) by
    /// `StyleSpec.parse`, the one that reads the config's too.
    private static func style(_ spec: UnsafeBufferPointer<UInt8>) throws(Declined) -> StyleSpec.Parsed {
        var parsed = StyleSpec.Parsed(style: Style(), usesLevel: false)
        var start = 0
        while start < spec.count {
            var end = start
            while end < spec.count, spec[end] != space { end += 1 }
            if end > start {
                // The words compared as they are, in lower case (made into a `String` and
                // switched on, each cost a style ~300 instructions).
                func word(_ name: StaticString) -> Bool {
                    guard end - start == name.utf8CodeUnitCount else { return false }
                    for k in 0..<(end - start) {
                        let b = spec[start + k]
                        if (b >= 0x41 && b <= 0x5A ? b + 0x20 : b) != name.utf8Start[k] { return false }
                    }
                    return true
                }
                if word("level") { parsed.usesLevel = true }
                else if word("bold") { parsed.style.bold = true }
                else if word("italic") { parsed.style.italic = true }
                else if word("underline") { parsed.style.underline = true }
                else if word("ok") { parsed.style.semantic = .ok; parsed.style.foreground = nil }
                else if word("warn") { parsed.style.semantic = .warn; parsed.style.foreground = nil }
                else if word("critical") { parsed.style.semantic = .critical; parsed.style.foreground = nil }
                else if word("stale") { parsed.style.semantic = .stale; parsed.style.foreground = nil }
                else if word("dim") { parsed.style.semantic = .dim; parsed.style.foreground = nil }
                else {
                    do {
                        return try StyleSpec.parse(String(decoding: spec, as: UTF8.self), allowLevel: true)
                    } catch {
                        throw Declined()
                    }
                }
            }
            start = end + 1
        }
        return parsed
    }

    // MARK: Placeholders

    /// `{name|filter(args)|…}`; `index` is on the `{`.
    /// Its filters are appended to `filters` as they are read (an array of them made for each
    /// placeholder, then copied and freed, was an eighth of a parse).
    private mutating func placeholder() throws(Declined) -> Program.Slot {
        index += 1
        skipSpaces()
        let (nameStart, nameEnd) = try word()
        let dot = firstDot
        // `{work:5h.left}`: a variable of one account; `{each:…}` of each in turn.
        var account: String?
        var variableStart = nameStart
        let colon = firstColon < 0 ? nameEnd : firstColon
        if colon < nameEnd {
            guard colon > nameStart else { throw Declined() }
            for i in nameStart..<colon {
                let b = bytes[i]
                guard Self.isAlphanumeric(b) || b == 0x5F || b == 0x2D else { throw Declined() }
            }
            account = string(nameStart, colon)
            variableStart = colon + 1
        }
        // (A `.` before the `:` is in the account's name, which was refused above.)
        let variable = try resolve(variableStart, nameEnd, dot: dot >= variableStart ? dot : nameEnd)
        var type = variable.type
        let firstFilter = filters.count
        while true {
            skipSpaces()
            guard index < bytes.count else { throw Declined() }
            switch bytes[index] {
            case Self.closeBrace:
                index += 1
                return Program.Slot(variable: variable, firstFilter: firstFilter, filterCount: filters.count - firstFilter,
                                    account: account)
            case Self.pipe:
                index += 1
                skipSpaces()
                let (filterStart, filterEnd) = try word()
                skipSpaces()
                var arguments: [String] = []
                if index < bytes.count, bytes[index] == Self.openParen {
                    index += 1
                    arguments = try argumentList()
                }
                let filter = try Self.bind(Word(bytes, filterStart, filterEnd), arguments: arguments, input: type)
                filters.append(filter.0)
                type = filter.1
            default:
                throw Declined()
            }
        }
    }

    /// Spaces and tabs between a placeholder's tokens; a line break (an error) is left for `word`
    /// and the others to decline.
    private mutating func skipSpaces() {
        while index < bytes.count, bytes[index] == Self.space || bytes[index] == 0x09 { index += 1 }
    }

    /// A name or bare argument: up to a space or one of `{ } | ( ) , "`. Byte offsets.
    private mutating func word() throws(Declined) -> (Int, Int) {
        let start = index
        // The ASCII bytes that end a word (`{ } | ( ) , "`, a space or a tab) and the line
        // breaks, as bits: a name's bytes are passed over with one test each.
        let low: UInt64 = 1 << 0x20 | 1 << 0x22 | 1 << 0x28 | 1 << 0x29 | 1 << 0x2C | 1 << 0x09
            | 1 << 0x0A | 1 << 0x0B | 1 << 0x0C | 1 << 0x0D
        let high: UInt64 = 1 << (0x7B - 0x40) | 1 << (0x7C - 0x40) | 1 << (0x7D - 0x40)
        var i = index
        var colon = -1, dot = -1
        defer {
            firstColon = colon
            firstDot = dot
        }
        while i < bytes.count {
            let b = bytes[i]
            if b < 0x40 ? low >> b & 1 == 0 : b < 0x80 && high >> (b - 0x40) & 1 == 0 {
                // (Where a name's `:` and `.` are, noted on the way: the placeholder asks.)
                if b < 0x40 {
                    if b == 0x3A { if colon < 0 { colon = i } } else if b == 0x2E, dot < 0 { dot = i }
                }
                i += 1
                continue
            }
            index = i
            if b < 0x80 {
                if b >= 0x0A && b <= 0x0D { throw Declined() }  // a line break in a placeholder
                break
            }
            let length = try scalar(at: index)
            guard !Self.isSpaceOrBreak(at: index, in: bytes) else { throw Declined() }
            index += length
            i = index
        }
        index = i
        // Empty, or longer than a name may be (the full parser counts characters and says so).
        guard index > start, index - start <= Lexer.maxWordLength else { throw Declined() }
        return (start, index)
    }

    /// Arguments after `(`, through the closing `)`.
    private mutating func argumentList() throws(Declined) -> [String] {
        var arguments: [String] = []
        skipSpaces()
        if index < bytes.count, bytes[index] == Self.closeParen {
            index += 1
            return arguments
        }
        while true {
            skipSpaces()
            guard index < bytes.count else { throw Declined() }
            if bytes[index] == Self.quote {
                arguments.append(try quoted())
            } else {
                let (start, end) = try word()
                arguments.append(string(start, end))
            }
            skipSpaces()
            guard index < bytes.count else { throw Declined() }
            switch bytes[index] {
            case Self.comma:
                index += 1
            case Self.closeParen:
                index += 1
                return arguments
            default:
                throw Declined()
            }
        }
    }

    /// `"…"` with `\"` and `\\` inside; `index` is on the opening quote.
    private mutating func quoted() throws(Declined) -> String {
        index += 1
        var value: [UInt8] = []
        while true {
            guard index < bytes.count else { throw Declined() }
            let b = bytes[index]
            if b < 0x80 {
                guard !Self.isNewline(b) else { throw Declined() }
                index += 1
                if b == Self.quote { break }
                if b == Self.backslash, index < bytes.count, bytes[index] == Self.quote || bytes[index] == Self.backslash {
                    value.append(bytes[index])
                    index += 1
                } else {
                    value.append(b)
                }
            } else {
                let length = try scalar(at: index)
                guard !Self.isLineSeparator(at: index, in: bytes) else { throw Declined() }
                value.append(contentsOf: bytes[index..<index + length])
                index += length
            }
        }
        return String(decoding: value, as: UTF8.self)
    }

    private func string(_ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    private static func isAlphanumeric(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
    }

    // MARK: Names

    /// The variable `bytes[start..<end]` names, as `Variable.resolve` reads it; names it does not
    /// know by heart are declined. Compared byte by byte: a `String` made for each name and a
    /// `switch` over strings cost a large template 20 k instructions.
    /// The variable named by `bytes[start..<end]`, its first `.` at `dot` (`end`: none).
    private mutating func resolve(_ start: Int, _ end: Int, dot: Int) throws(Declined) -> Variable {
        guard dot < end else {
            guard let field = Self.topField(Word(bytes, start, end)) else { throw Declined() }
            return .top(field)
        }
        let prefix = Word(bytes, start, dot)
        let field = Word(bytes, dot + 1, end)
        if prefix.is("extra") {
            guard let f = Self.extraField(field) else { throw Declined() }
            return .extra(f)
        }
        if prefix.is("claude") {
            guard let f = Self.claudeField(field) else { throw Declined() }
            return .claude(f)
        }
        if prefix.is("spend") {
            guard let f = Self.spendField(field) else { throw Declined() }
            return .spend(f)
        }
        // The windows Variable.resolve knows by name (`knownWindows`), with the API key each
        // stands for (`nil` for the stand-ins).
        // (The names as literals where the template's bytes say one: a string made of them cost
        // each placeholder ~80 instructions.)
        let key: String?
        var literal: String?
        if prefix.is("5h") { key = "five_hour"; literal = "5h" }
        else if prefix.is("7d") { key = "seven_day"; literal = "7d" }
        else if prefix.is("sonnet") { key = "seven_day_sonnet"; literal = "sonnet" }
        else if prefix.is("opus") { key = "seven_day_opus"; literal = "opus" }
        else if prefix.is("each") { key = nil; literal = "each" }
        else if prefix.is("worst") || prefix.is("other") { key = nil }
        else if prefix.is("five_hour") || prefix.is("seven_day") || prefix.is("seven_day_sonnet")
                    || prefix.is("seven_day_opus") || prefix.is("seven_day_oauth_apps") { key = nil }
        else { throw Declined() }  // an API key it has not heard of, or a typo
        guard let f = Self.windowField(field) else { throw Declined() }
        let name = literal ?? prefix.string
        // What `Template.init(name:source:nodes:)` collects: the API keys of the windows
        // named (not the stand-ins).
        if !prefix.is("each") && !prefix.is("worst") && !prefix.is("other") {
            let apiKey = key ?? name
            var known = false
            for k in namedKeys where k == apiKey { known = true }
            if !known { namedKeys.append(apiKey) }
        }
        return .window(name, f)
    }

    /// A name in the source, compared byte by byte.
    struct Word {
        let bytes: UnsafeBufferPointer<UInt8>
        let start: Int
        let end: Int

        init(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) {
            self.bytes = bytes
            self.start = start
            self.end = end
        }

        func `is`(_ name: StaticString) -> Bool {
            guard end - start == name.utf8CodeUnitCount else { return false }
            let p = name.utf8Start
            var k = 0
            while k < end - start {
                if bytes[start + k] != p[k] { return false }
                k += 1
            }
            return true
        }

        var string: String { String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self) }

        /// `body` with the bytes of `text` as a word (for the tests, which hold each lookup
        /// equal to `init(rawValue:)`).
        static func with<T>(_ text: String, _ body: (Word) -> T) -> T {
            var text = text
            return text.withUTF8 { body(Word($0, 0, $0.count)) }
        }
    }

    // Each a chain of comparisons, not `init(rawValue:)`: that builds a table of the names the
    // first time, more than parsing a template costs. QuickParserTests holds each equal to
    // `init(rawValue:)`.

    static func windowField(_ w: Word) -> Variable.WindowField? {
        if w.is("used") { return .used }
        if w.is("left") { return .left }
        if w.is("percent") { return .percent }
        if w.is("resets_at") { return .resets_at }
        if w.is("resets_in") { return .resets_in }
        if w.is("level") { return .level }
        if w.is("pace") { return .pace }
        if w.is("eta") { return .eta }
        if w.is("label") { return .label }
        if w.is("name") { return .name }
        if w.is("binding") { return .binding }
        if w.is("alert") { return .alert }
        if w.is("rate") { return .rate }
        if w.is("spark") { return .spark }
        if w.is("title") { return .title }
        if w.is("source") { return .source }
        if w.is("age") { return .age }
        if w.is("detail") { return .detail }
        if w.is("short") { return .short }
        if w.is("top") { return .top }
        if w.is("top_share") { return .top_share }
        return nil
    }

    static func topField(_ w: Word) -> Variable.TopField? {
        if w.is("age") { return .age }
        if w.is("stale") { return .stale }
        if w.is("offline") { return .offline }
        if w.is("status") { return .status }
        if w.is("error") { return .error }
        if w.is("plan") { return .plan }
        if w.is("level") { return .level }
        if w.is("account") { return .account }
        if w.is("notice") { return .notice }
        if w.is("display") { return .display }
        if w.is("name") { return .name }
        if w.is("label") { return .label }
        if w.is("agent") { return .agent }
        return nil
    }

    static func spendField(_ w: Word) -> Variable.SpendField? {
        if w.is("used") { return .used }
        if w.is("limit") { return .limit }
        if w.is("left") { return .left }
        if w.is("percent") { return .percent }
        if w.is("level") { return .level }
        if w.is("org") { return .org }
        if w.is("capped") { return .capped }
        if w.is("uncapped") { return .uncapped }
        if w.is("limit_is_yours") { return .limit_is_yours }
        if w.is("period") { return .period }
        if w.is("resets_in") { return .resets_in }
        if w.is("source") { return .source }
        return nil
    }

    static func extraField(_ w: Word) -> Variable.ExtraField? {
        if w.is("used") { return .used }
        if w.is("limit") { return .limit }
        if w.is("left") { return .left }
        if w.is("percent") { return .percent }
        if w.is("enabled") { return .enabled }
        return nil
    }

    static func claudeField(_ w: Word) -> Variable.ClaudeField? {
        if w.is("model") { return .model }
        if w.is("context") { return .context }
        if w.is("cost") { return .cost }
        if w.is("context_percent") { return .context_percent }
        return nil
    }

    // MARK: Filters

    /// `Filter.bind` for arguments that fit; anything it would refuse is declined.
    static func bind(_ name: Word, arguments: [String], input: ValueType) throws(Declined) -> (Filter, ValueType) {
        func integer(_ text: String, _ low: Int, _ high: Int) throws(Declined) -> Int {
            guard let n = Int(text), n >= low, n <= high else { throw Declined() }
            return n
        }
        func count(_ low: Int, _ high: Int) throws(Declined) {
            guard arguments.count >= low, arguments.count <= high else { throw Declined() }
        }
        if name.is("round") {
            guard input == .percent else { throw Declined() }
            try count(0, 0)
            return (.round, .percent)
        }
        if name.is("upper") || name.is("lower") {
            try count(0, 0)
            return (name.is("upper") ? .upper : .lower, .text)
        }
        if name.is("exists") || name.is("not") {
            try count(0, 0)
            return (name.is("not") ? .not : .exists, .flag)
        }
        if name.is("fixed") {
            guard input == .percent || input == .money else { throw Declined() }
            try count(1, 1)
            return (.fixed(try integer(arguments[0], 0, 6)), .text)
        }
        if name.is("pad") {
            try count(1, 1)
            return (.pad(try integer(arguments[0], -100, 100)), .text)
        }
        if name.is("bar") {
            guard input == .percent else { throw Declined() }
            try count(1, 2)
            let width = try integer(arguments[0], 1, 100)
            var fill = " "
            if arguments.count == 2 {
                guard arguments[1].count == 1, arguments[1].unicodeScalars.count <= Filter.maxFillScalars else {
                    throw Declined()
                }
                fill = arguments[1]
            }
            return (.bar(width: width, fill: fill), .text)
        }
        if name.is("spark") {
            guard input == .spark else { throw Declined() }
            try count(1, 1)
            return (.spark(try integer(arguments[0], 1, 100)), .text)
        }
        if name.is("icon") {
            guard input == .percent || input == .level else { throw Declined() }
            if input == .level { try count(3, 3) } else { try count(1, Filter.maxIcons) }
            return (.icon(arguments), .text)
        }
        if name.is("time") {
            guard input == .date else { throw Declined() }
            try count(1, 1)
            return (.time(arguments[0]), .text)
        }
        if name.is("duration") {
            guard input == .duration else { throw Declined() }
            try count(0, 1)
            guard let style = arguments.first else { return (.duration(long: false), .text) }
            guard style == "short" || style == "long" else { throw Declined() }
            return (.duration(long: style == "long"), .text)
        }
        if name.is("default") {
            try count(1, 1)
            return (.default(arguments[0]), input)
        }
        throw Declined()
    }

    // MARK: Characters

    /// The length of the non-ASCII scalar at `i`, when the `Character`s the full lexer sees
    /// break around it as its scalars do: not when it joins a meaningful ASCII character before
    /// it (a combining mark, a joiner, a spacing mark after `]`) or after it (a prepended mark
    /// before `{`). Every ASCII character the grammar gives a meaning is then one `Character` on
    /// its own, as the full lexer compares it. (Joined to a letter it changes nothing: text is
    /// text, and a name with a mark in it is not one the quick parser knows.)
    private func scalar(at i: Int) throws(Declined) -> Int {
        let lead = bytes[i]
        let length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        guard i + length <= bytes.count else { throw Declined() }
        let value = Self.value(at: i, length: length, in: bytes)
        if !Self.standsAlone(value) {
            if i > 0, Self.isMeaningful(bytes[i - 1]), Self.joins(bytes[i - 1], value, after: false) {
                throw Declined()
            }
            if i + length < bytes.count, Self.isMeaningful(bytes[i + length]),
               Self.joins(bytes[i + length], value, after: true) {
                throw Declined()
            }
        }
        return length
    }

    /// The ASCII characters the grammar reads in some place: `\ { } [ ] ( ) | , "` and the space
    /// (line breaks and tabs are controls, which never join a neighbour).
    private static func isMeaningful(_ b: UInt8) -> Bool {
        switch b {
        case backslash, openBrace, closeBrace, openBracket, closeBracket, openParen, closeParen, pipe, comma, quote,
             space: true
        default: false
        }
    }

    private static func value(at i: Int, length: Int, in bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var value = UInt32(bytes[i]) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for k in 1..<length { value = value << 6 | UInt32(bytes[i + k] & 0x3F) }
        return value
    }

    /// Blocks with no mark that joins a neighbour (no Extend, SpacingMark, ZWJ or Prepend
    /// scalar): Latin-1 and Latin Extended, general punctuation (not the joiners, the line and
    /// paragraph separators or the invisible operators), arrows, mathematical operators,
    /// technical symbols, enclosed alphanumerics, box drawing, blocks, geometric shapes, dingbats.
    /// What templates put next to a bracket (`·`, `↻`, `…`, `▁`, `░`, `●`) is read without asking.
    private static func standsAlone(_ value: UInt32) -> Bool {
        (value >= 0xA0 && value <= 0x2FF) || (value >= 0x2010 && value <= 0x2027)
            || (value >= 0x2030 && value <= 0x205F) || (value >= 0x2190 && value <= 0x2BFF)
    }

    /// Whether the ASCII character `ascii` and the scalar `value` next to it form one `Character`
    /// (asked of the standard library, whose rules the full lexer follows).
    private static func joins(_ ascii: UInt8, _ value: UInt32, after: Bool) -> Bool {
        guard let scalar = UnicodeScalar(value) else { return true }
        let mark = String(Character(scalar)), character = String(Character(UnicodeScalar(ascii)))
        return (after ? mark + character : character + mark).count == 1
    }

    /// A space other than ASCII (or a line break) at `i`: inside a placeholder, the full lexer decides.
    private static func isSpaceOrBreak(at i: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let lead = bytes[i]
        let length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        guard let scalar = UnicodeScalar(value(at: i, length: length, in: bytes)) else { return true }
        return scalar.properties.isWhitespace
    }

    /// U+0085, U+2028 or U+2029: line breaks the full lexer counts (a quoted argument must not hold one).
    private static func isLineSeparator(at i: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let lead = bytes[i]
        let length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        let v = value(at: i, length: length, in: bytes)
        return v == 0x85 || v == 0x2028 || v == 0x2029
    }
}
