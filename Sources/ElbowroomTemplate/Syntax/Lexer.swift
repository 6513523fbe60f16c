// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
/// Splits template source into tokens, keeping each token's line and column as it scans.
///
/// Two modes: in text, `{ [ ] ( )` are structure and `\` escapes; inside a placeholder (`{…}`),
/// names, `|`, argument parentheses, commas and quoted strings.
struct Token: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case text(String)
        case openBrace
        case closeBrace
        case openBracket
        /// `]` with the style that follows it (`](warn bold)`), or `nil` for a bare `]`.
        case closeBracket(style: String?, styleRange: SourceRange?)
        case openParen
        case closeParen
        // Inside a placeholder.
        case word(String)
        case pipe
        case argOpen
        case argClose
        case comma
        case string(String)
        case end
    }

    var kind: Kind
    var range: SourceRange
}

struct Lexer {
    /// Characters a backslash may escape in text, and what they stand for.
    static let escapes: [Character: String] = [
        "{": "{", "}": "}", "[": "[", "]": "]", "(": "(", ")": ")", "\\": "\\", "n": "\n",
    ]

    /// The longest name or bare argument inside a placeholder, in characters.
    static let maxWordLength = 128

    /// Characters that end a word inside a placeholder (a switch: this runs on every prompt).
    static func endsWord(_ c: Character) -> Bool {
        switch c {
        case "{", "}", "|", "(", ")", ",", "\"": return true
        default: return false
        }
    }

    private let chars: [Character]
    private let reporter: ErrorReporter
    private var index = 0
    private var line = 1
    private var column = 1

    init(source: String, reporter: ErrorReporter) {
        chars = Array(source)
        self.reporter = reporter
    }

    static func tokens(_ source: String, reporter: ErrorReporter) throws(TemplateError) -> [Token] {
        var lexer = Lexer(source: source, reporter: reporter)
        return try lexer.scan()
    }

    private var here: SourceRange { SourceRange(offset: index, line: line, column: column, length: 1) }
    private var current: Character? { index < chars.count ? chars[index] : nil }
    private func peek(_ ahead: Int = 1) -> Character? {
        index + ahead < chars.count ? chars[index + ahead] : nil
    }

    private mutating func advance() {
        guard index < chars.count else { return }
        if chars[index].isNewline {
            line += 1
            column = 1
        } else {
            column += 1
        }
        index += 1
    }

    private mutating func scan() throws(TemplateError) -> [Token] {
        var tokens: [Token] = []
        var text = ""
        var textStart = here

        func flush(_ tokens: inout [Token], _ text: inout String, upTo end: Int) {
            guard !text.isEmpty else { return }
            var range = textStart
            range.length = end - textStart.offset
            tokens.append(Token(kind: .text(text), range: range))
            text = ""
        }

        while let c = current {
            let start = here
            if text.isEmpty { textStart = start }
            switch c {
            case "\\":
                guard let next = peek() else {
                    throw reporter.error("a lone '\\' at the end of the template; write '\\\\' for a backslash", at: start)
                }
                if next.isNewline {
                    // A backslash at the end of a line joins it to the next.
                    advance(); advance()
                } else if let escaped = Self.escapes[next] {
                    text += escaped
                    advance(); advance()
                } else {
                    var range = start
                    range.length = 2
                    throw reporter.error(
                        "unknown escape '\\\(next)'; escapes are \\{ \\} \\[ \\] \\( \\) \\\\ \\n", at: range)
                }
            case "{":
                flush(&tokens, &text, upTo: index)
                try scanPlaceholder(into: &tokens)
            case "}":
                throw reporter.error("unexpected '}'; write '\\}' for a literal brace", at: start)
            case "[":
                flush(&tokens, &text, upTo: index)
                advance()
                tokens.append(Token(kind: .openBracket, range: start))
            case "]":
                flush(&tokens, &text, upTo: index)
                advance()
                if current == "(" {
                    let open = here
                    advance()
                    let specStart = here
                    var spec = ""
                    while let s = current, s != ")" {
                        if s.isNewline { break }
                        spec.append(s)
                        advance()
                    }
                    guard current == ")" else {
                        throw reporter.error("unclosed '(' after ']': a style ends with ')'", at: open)
                    }
                    var specRange = specStart
                    specRange.length = spec.count
                    advance()
                    var range = start
                    range.length = index - start.offset
                    tokens.append(Token(kind: .closeBracket(style: spec, styleRange: specRange), range: range))
                } else {
                    tokens.append(Token(kind: .closeBracket(style: nil, styleRange: nil), range: start))
                }
            case "(":
                flush(&tokens, &text, upTo: index)
                advance()
                tokens.append(Token(kind: .openParen, range: start))
            case ")":
                flush(&tokens, &text, upTo: index)
                advance()
                tokens.append(Token(kind: .closeParen, range: start))
            default:
                text.append(c)
                advance()
            }
        }
        flush(&tokens, &text, upTo: index)
        var end = here
        end.length = 1
        tokens.append(Token(kind: .end, range: end))
        return tokens
    }

    /// Scans `{…}`; `current` is the `{`.
    private mutating func scanPlaceholder(into tokens: inout [Token]) throws(TemplateError) {
        let brace = here
        advance()
        tokens.append(Token(kind: .openBrace, range: brace))
        while true {
            guard let c = current, !c.isNewline, c != "{" else {
                throw reporter.error("unclosed '{': a placeholder ends with '}'", at: brace)
            }
            let start = here
            switch c {
            case _ where c.isWhitespace:
                // Any space, not only ' ' and tab: a pasted non-breaking space is a space too.
                advance()
            case "}":
                advance()
                tokens.append(Token(kind: .closeBrace, range: start))
                return
            case "|":
                advance()
                tokens.append(Token(kind: .pipe, range: start))
            case "(":
                advance()
                tokens.append(Token(kind: .argOpen, range: start))
            case ")":
                advance()
                tokens.append(Token(kind: .argClose, range: start))
            case ",":
                advance()
                tokens.append(Token(kind: .comma, range: start))
            case "\"":
                advance()
                var value = ""
                while true {
                    guard let s = current, !s.isNewline else {
                        var range = start
                        range.length = index - start.offset
                        throw reporter.error("unclosed string: it ends with '\"'", at: range)
                    }
                    advance()
                    if s == "\"" { break }
                    if s == "\\", let next = current, next == "\"" || next == "\\" {
                        value.append(next)
                        advance()
                    } else {
                        value.append(s)
                    }
                }
                var range = start
                range.length = index - start.offset
                tokens.append(Token(kind: .string(value), range: range))
            default:
                var word = ""
                while let w = current, !w.isWhitespace, !Self.endsWord(w) {
                    word.append(w)
                    advance()
                }
                // Every pass of the loop must consume something or fail: an empty word here would
                // spin forever (as a non-breaking space once did).
                guard !word.isEmpty else {
                    throw reporter.error("unexpected \(c.quotedForError) in a placeholder", at: start)
                }
                var range = start
                range.length = word.count
                // Names are short; a bound keeps did-you-mean (quadratic in the length) cheap.
                guard word.count <= Self.maxWordLength else {
                    throw reporter.error(
                        "name too long: \(word.count) characters, at most \(Self.maxWordLength) (quote long arguments)",
                        at: range)
                }
                tokens.append(Token(kind: .word(word), range: range))
            }
        }
    }
}
