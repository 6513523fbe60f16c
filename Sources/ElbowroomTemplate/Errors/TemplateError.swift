// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
/// A template that cannot be used, with where and why, printed compiler-style:
///
/// ```
/// template:1:2: error: unknown variable '5h.lft'
/// {5h.lft}
///  ^~~~~~
/// did you mean '5h.left'?
/// ```
public struct TemplateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The template's name: `compact`, `template` for inline text, or a file path.
    public var name: String
    /// 1-based line and column (in characters) of the offending token.
    public var line: Int
    public var column: Int
    /// How many characters the caret line underlines (at least 1).
    public var length: Int
    /// Lowercase, specific, without the position.
    public var message: String
    /// What the user probably meant (`5h.left`), when there is a close candidate.
    public var suggestion: String?
    /// The source line the error is on, without its newline.
    public var sourceLine: String

    public init(name: String, line: Int, column: Int, length: Int = 1, message: String,
                suggestion: String? = nil, sourceLine: String) {
        self.name = name
        self.line = line
        self.column = column
        self.length = max(1, length)
        self.message = message
        self.suggestion = suggestion
        self.sourceLine = sourceLine
    }

    public var description: String {
        var text = "\(name):\(line):\(column): error: \(message)\n\(sourceLine)\n"
        text += String(repeating: " ", count: max(0, column - 1)) + "^"
            + String(repeating: "~", count: length - 1)
        if let suggestion { text += "\ndid you mean '\(suggestion)'?" }
        return text
    }
}

/// Where a token sits in the source: tracked while scanning, never searched for afterwards.
struct SourceRange: Sendable, Equatable {
    /// Offset in characters from the start of the source.
    var offset: Int
    var line: Int
    var column: Int
    var length: Int
}

/// Turns ranges into `TemplateError`s for one source.
struct ErrorReporter: Sendable {
    let name: String
    let source: String

    init(name: String, source: String) {
        self.name = name
        self.source = source
    }

    /// The source's lines, split only when there is an error to show (on every parse it cost
    /// a large template ~0.4 M instructions).
    var lines: [String] {
        // The same line breaks the lexer counts (`\r\n` is one character and one break).
        source.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
    }

    func error(_ message: String, at range: SourceRange, suggestion: String? = nil) -> TemplateError {
        let lines = self.lines
        let line = range.line - 1 < lines.count ? lines[range.line - 1] : ""
        // A token running past the end of its line (an unclosed string) is underlined to the end.
        let available = max(1, line.count - (range.column - 1))
        return TemplateError(name: name, line: range.line, column: range.column,
                             length: min(range.length, available), message: message,
                             suggestion: suggestion, sourceLine: line)
    }
}
