// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// A parsed template, ready to render many times (watch mode renders the same one every tick).
///
/// Grammar (the whole of it):
///
/// ```
/// text                      shown as is
/// {5h.left}                 a variable (see `Variable` for the table)
/// {5h.left|pad(3)}          filters, chained with |, arguments in parentheses (see `Filter`)
/// [{5h.left}%](level)       a styled group: a style from `StyleSpec`, or `level` for the worst
///                           level of the windows inside (the overall level if none)
/// ( {stale}stale )          a conditional group: shown only when every placeholder inside has a value
/// ( · {each.label} )        a conditional group using `each.*`: repeated for every window the
///                           template does not name (see `Variable`)
/// {work:5h.left}            a variable of one `[accounts.NAME]` (several accounts)
/// ( {each:label} {each:5h.left}% )   a conditional group using `each:`: repeated for every
///                           account, in config order
/// \{ \} \[ \] \( \) \\      the characters themselves; \n a newline
/// \ at the end of a line    joins the next line to this one
/// ```
public struct Template: Sendable {
    /// `compact`, `template` for inline text, or a file path.
    public let name: String
    public let source: String
    /// The parsed tree, laid out flat for the renderer.
    let program: Program
    /// API keys of the windows this template names (what `other` and `each` leave out).
    package let namedKeys: [String]
    /// Whether a placeholder names an account (`{work:5h.left}`, `{each:label}`): such a template
    /// is rendered once over every account, not once per account.
    public let namesAccounts: Bool
    /// Whether the template shows anything computed from the usage history (`rate`, `spark`,
    /// `pace`, `eta`): only then does a render read the history file. Worked out once (walking
    /// the tooltip's tree for it cost a render ~2 k instructions, and several accounts asked
    /// once each): `Program.readsHistory`, a look at the placeholders' table.
    public let readsHistory: Bool

    /// A template laid out with `namedKeys` worked out: a shipped one at build time
    /// (`ShippedTemplates.swift`: building its tree, walking it for these, and laying it out
    /// cost a render some 50 k instructions), a user's as it was parsed (`QuickParser`).
    init(name: String, source: String, program: Program, namedKeys: [String]) {
        self.name = name
        self.source = source
        self.program = program
        self.namedKeys = namedKeys
        namesAccounts = program.namesAccounts
        readsHistory = program.readsHistory
    }

    /// The program's tables for elbowroom-generate to lay out as Swift in
    /// `ShippedTemplates.swift` (the types stay internal to this module): the ops' and styles'
    /// words (`OpTable`), each with what it says for a comment beside it, and the other tables as
    /// `String(reflecting:)` writes them.
    package var reflectedProgram: (ops: [(word: UInt, says: String)], styles: [(word: UInt, says: String)],
                                   texts: String, slots: String, filters: String,
                                   startsWithSeparator: Bool, endsWithSeparator: Bool) {
        let ops = zip(program.ops.words, program.ops).map { word, op in
            switch op {
            case .text(let k): (word, "text \(k)")
            case .placeholder(let k): (word, "placeholder \(k)")
            case .styled(_, let end): (word, "styled group (style \(word >> 2 & 0x3FFF_FFFF)) up to \(end)")
            case .conditional(let end, let eachWindow, let eachAccount):
                (word, "conditional group up to \(end)" + (eachWindow ? ", each window" : "") + (eachAccount ? ", each account" : ""))
            }
        }
        let styles = program.ops.styles.map { word in (word, StyleWord.spec(StyleWord.parsed(word))) }
        return (ops, styles, String(reflecting: program.texts), String(reflecting: program.slots),
                String(reflecting: program.filters), program.startsWithSeparator, program.endsWithSeparator)
    }

    init(name: String, source: String, nodes: [Node]) {
        self.name = name
        self.source = source
        program = Program(nodes)
        var names: [String] = []
        for node in nodes { node.collectWindowNames(into: &names) }
        var keys: [String] = []
        for window in names where !Variable.standIns.contains(window) {
            let key = WindowCatalog.key(forName: window)
            if !keys.contains(key) { keys.append(key) }
        }
        namedKeys = keys
        namesAccounts = program.namesAccounts
        readsHistory = program.readsHistory
    }

    /// The largest template source, in UTF-8 bytes (64 KiB): the shipped ones are under 2 KiB, and
    /// the limit bounds what parsing and rendering can cost.
    public static let maxSourceBytes = 65_536

    /// Lexes, parses and checks every name, filter and style; a source over `maxSourceBytes` or
    /// with groups nested deeper than 32 levels is an error.
    /// The name the errors of an inline template (text given instead of a template's name) carry.
    public static let inlineName = "template"

    public static func parse(_ source: String, name: String = Template.inlineName) throws(TemplateError) -> Template {
        let size = source.utf8.count
        guard size <= maxSourceBytes else {
            // 80 bytes, not characters: one character can hold any number of combining marks.
            let firstLine = SafeText.prefix(source, maxBytes: 80).prefix { !$0.isNewline }
            throw TemplateError(name: name, line: 1, column: 1,
                                message: "template too large: \(size) bytes, at most \(maxSourceBytes) (64 KiB)",
                                sourceLine: String(firstLine))
        }
        // The templates people write, in one pass over their bytes; anything else, and every
        // error with its position and did-you-mean, by the full lexer and parser (the same tree).
        if let template = QuickParser.parse(source, name: name) { return template }
        return try parseFully(source, name: name)
    }

    /// The full lexer and parser, `Character` by `Character`: what `QuickParser` is held equal to.
    static func parseFully(_ source: String, name: String) throws(TemplateError) -> Template {
        let nodes = try Parser.parse(source, reporter: ErrorReporter(name: name, source: source))
        return Template(name: name, source: source, nodes: nodes)
    }

    /// Renders against a view. `statusLine` supplies the `claude.*` variables when present.
    public func render(_ view: UsageView, statusLine: StatusLineInput? = nil, localTime: LocalTime = .system) -> [Span] {
        Renderer.render(program, context: RenderContext(
            view: view, statusLine: statusLine, localTime: localTime, namedKeys: namedKeys))
    }

    /// Renders for one of several accounts (`accounts[index]`), with every account reachable by name.
    public func render(accountAt index: Int, of accounts: [AccountView], localTime: LocalTime = .system) -> [Span] {
        var context = RenderContext(accountAt: index, of: accounts, localTime: localTime)
        context.namedKeys = namedKeys
        context.namesAccounts = namesAccounts
        return Renderer.render(program, context: context)
    }

    /// `render(_:statusLine:localTime:)` of this template and of `tooltip`, through one context:
    /// a context holds a copy of the view (some 3 k instructions to make), one for both.
    public func render(_ view: UsageView, statusLine: StatusLineInput? = nil, localTime: LocalTime = .system,
                       tooltip: Template?) -> (line: [Span], tooltip: [Span]) {
        var context = RenderContext(view: view, statusLine: statusLine, localTime: localTime, namedKeys: namedKeys)
        let line = Renderer.render(program, context: context)
        guard let tooltip else { return (line, []) }
        context.namedKeys = tooltip.namedKeys
        return (line, Renderer.render(tooltip.program, context: context))
    }

    /// `render(accountAt:of:localTime:)` of this template and of `tooltip`, through one context.
    public func render(accountAt index: Int, of accounts: [AccountView], localTime: LocalTime = .system,
                       tooltip: Template?) -> (line: [Span], tooltip: [Span]) {
        var context = RenderContext(accountAt: index, of: accounts, localTime: localTime)
        context.namedKeys = namedKeys
        context.namesAccounts = namesAccounts
        let line = Renderer.render(program, context: context)
        guard let tooltip else { return (line, []) }
        context.namedKeys = tooltip.namedKeys
        context.namesAccounts = tooltip.namesAccounts
        return (line, Renderer.render(tooltip.program, context: context))
    }
}
