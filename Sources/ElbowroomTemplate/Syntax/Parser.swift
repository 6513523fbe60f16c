// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// Builds the tree from tokens and checks every name, filter and style as it goes, so a template
/// that parses renders without errors.
struct Parser {
    private enum Group {
        case top
        case styled(SourceRange)
        case conditional(SourceRange)
    }

    /// How deep `[…]` and `(…)` groups may nest. Real templates use two or three levels; the
    /// limit keeps the parser's and the renderer's recursion (and their stacks) bounded.
    static let maxDepth = 32

    private let tokens: [Token]
    private let reporter: ErrorReporter
    private var index = 0
    private var depth = 0

    static func parse(_ source: String, reporter: ErrorReporter) throws(TemplateError) -> [Node] {
        var parser = Parser(tokens: try Lexer.tokens(source, reporter: reporter), reporter: reporter)
        return try parser.sequence(in: .top)
    }

    private init(tokens: [Token], reporter: ErrorReporter) {
        self.tokens = tokens
        self.reporter = reporter
    }

    private var token: Token { tokens[index] }

    private func position(_ r: SourceRange) -> String { "\(r.line):\(r.column)" }

    /// Nodes up to the end of `group`; leaves the closing token for the caller.
    private mutating func sequence(in group: Group) throws(TemplateError) -> [Node] {
        var nodes: [Node] = []
        while true {
            let t = token
            switch t.kind {
            case .text(let s):
                index += 1
                nodes.append(.text(s))
            case .openBrace:
                nodes.append(.placeholder(try placeholder()))
            case .openBracket:
                try enterGroup(at: t.range)
                index += 1
                let inner = try sequence(in: .styled(t.range))
                depth -= 1
                guard case .closeBracket(let spec, let specRange) = token.kind else { preconditionFailure() }
                guard let spec, let specRange, !spec.allSatisfy({ $0 == " " }) else {
                    throw reporter.error("a styled group needs a style: write '[…](style)', such as '](warn)'",
                                         at: token.range)
                }
                index += 1
                nodes.append(.styled(inner, try style(spec, at: specRange)))
            case .openParen:
                try enterGroup(at: t.range)
                index += 1
                let inner = try sequence(in: .conditional(t.range))
                depth -= 1
                index += 1  // the ')'
                nodes.append(.conditional(inner))
            case .closeBracket:
                switch group {
                case .styled: return nodes
                case .top: throw reporter.error("unexpected ']'; write '\\]' for a literal bracket", at: t.range)
                case .conditional(let open):
                    throw reporter.error("unexpected ']': the '(' at \(position(open)) is still open", at: t.range)
                }
            case .closeParen:
                switch group {
                case .conditional: return nodes
                case .top: throw reporter.error("unexpected ')'; write '\\)' for a literal parenthesis", at: t.range)
                case .styled(let open):
                    throw reporter.error("unexpected ')': the '[' at \(position(open)) is still open", at: t.range)
                }
            case .end:
                switch group {
                case .top: return nodes
                case .styled(let open):
                    throw reporter.error("unclosed '[': a styled group ends with '](style)'", at: open)
                case .conditional(let open):
                    throw reporter.error("unclosed '(': a conditional group ends with ')'", at: open)
                }
            default:
                // The lexer only makes placeholder tokens between braces, and placeholder() eats those.
                preconditionFailure("unexpected token \(t.kind) outside a placeholder")
            }
        }
    }

    private mutating func enterGroup(at range: SourceRange) throws(TemplateError) {
        guard depth < Self.maxDepth else {
            throw reporter.error("groups nested too deeply: '[' and '(' may nest at most \(Self.maxDepth) levels",
                                 at: range)
        }
        depth += 1
    }

    private func style(_ spec: String, at range: SourceRange) throws(TemplateError) -> StyleSpec.Parsed {
        do {
            return try StyleSpec.parse(spec, allowLevel: true)
        } catch {
            let chars = Array(spec)
            let word = String(chars[min(error.offset, chars.count)...].prefix { $0 != " " })
            var at = range
            at.offset += error.offset
            at.column += error.offset
            at.length = max(1, word.count)
            if error.message.hasPrefix("unknown style") {
                throw reporter.error("unknown style '\(word)'", at: at,
                                     suggestion: Suggest.closest(to: word.lowercased(), in: StyleSpec.allWords))
            }
            throw reporter.error(error.message, at: at)
        }
    }

    private mutating func placeholder() throws(TemplateError) -> Placeholder {
        let brace = token.range
        index += 1
        guard case .word(let name) = token.kind else {
            if case .closeBrace = token.kind {
                var range = brace
                range.length = 2
                throw reporter.error("empty placeholder: write a variable name, such as '{5h.left}'", at: range)
            }
            throw reporter.error("expected a variable name after '{'", at: token.range)
        }
        // `{work:5h.left}`: a variable of one account; `{each:…}` of each in turn.
        var account: String?
        var variableName = name
        var variableRange = token.range
        if let colon = name.firstIndex(of: ":") {
            let prefix = String(name[..<colon])
            guard !prefix.isEmpty, prefix.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }) else {
                throw reporter.error("'\(prefix)' is no account name: write {NAME:variable} with NAME an [accounts.NAME] of the config, or {each:variable}", at: token.range)
            }
            account = prefix
            variableName = String(name[name.index(after: colon)...])
            variableRange.offset += prefix.count + 1
            variableRange.column += prefix.count + 1
            variableRange.length = max(1, variableRange.length - prefix.count - 1)
        }
        let variable = try Variable.resolve(variableName, at: variableRange, reporter: reporter)
        index += 1
        var type = variable.type
        var subject = "'\(name)'"
        var filters: [Filter] = []
        while true {
            switch token.kind {
            case .closeBrace:
                index += 1
                return Placeholder(variable: variable, filters: filters, account: account)
            case .pipe:
                index += 1
                guard case .word(let filterName) = token.kind else {
                    throw reporter.error("expected a filter name after '|'", at: token.range)
                }
                let nameRange = token.range
                index += 1
                var arguments: [Filter.Argument] = []
                var argumentsRange = nameRange
                if case .argOpen = token.kind {
                    let open = token.range
                    index += 1
                    arguments = try argumentList(openedAt: open)
                    argumentsRange = open
                    argumentsRange.length = tokens[index - 1].range.offset - open.offset + 1
                }
                let (filter, output) = try Filter.bind(
                    name: filterName, nameRange: nameRange, arguments: arguments, argumentsRange: argumentsRange,
                    input: type, subject: subject, reporter: reporter)
                filters.append(filter)
                type = output
                subject = "the result of '\(filterName)'"
            default:
                throw reporter.error("expected '|' or '}' after '\(name)'", at: token.range)
            }
        }
    }

    /// Arguments after `(`, through the closing `)`.
    private mutating func argumentList(openedAt open: SourceRange) throws(TemplateError) -> [Filter.Argument] {
        var arguments: [Filter.Argument] = []
        if case .argClose = token.kind {
            index += 1
            return arguments
        }
        while true {
            switch token.kind {
            case .word(let text), .string(let text):
                arguments.append(Filter.Argument(text: text, range: token.range))
                index += 1
            case .closeBrace:
                throw reporter.error("unclosed '(': filter arguments end with ')'", at: open)
            default:
                throw reporter.error("expected an argument", at: token.range)
            }
            switch token.kind {
            case .comma:
                index += 1
            case .argClose:
                index += 1
                return arguments
            case .closeBrace:
                throw reporter.error("unclosed '(': filter arguments end with ')'", at: open)
            default:
                throw reporter.error("expected ',' or ')' after an argument", at: token.range)
            }
        }
    }
}
