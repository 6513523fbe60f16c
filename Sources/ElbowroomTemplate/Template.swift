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
    let nodes: [Node]
    /// API keys of the windows this template names (what `other` and `each` leave out).
    package let namedKeys: [String]
    /// Whether a placeholder names an account (`{work:5h.left}`, `{each:label}`): such a template
    /// is rendered once over every account, not once per account.
    public let namesAccounts: Bool
    /// For each top-level node, whether it mentions `each` (a group repeated per window).
    package let repeatsWindows: [Bool]
    /// Whether the template shows anything computed from the usage history (`rate`, `spark`,
    /// `pace`, `eta`): only then does a render read the history file. Worked out once (walking
    /// the tooltip's tree for it cost a render ~2 k instructions, and several accounts asked
    /// once each).
    public let readsHistory: Bool

    /// With `namedKeys`, `repeatsWindows` and `readsHistory` worked out at build time
    /// (`ShippedTemplates.swift`): walking a large tree for them costs a render ~50 k
    /// instructions each.
    init(name: String, source: String, nodes: [Node], namedKeys: [String], repeatsWindows: [Bool], readsHistory: Bool) {
        self.name = name
        self.source = source
        self.nodes = nodes
        self.namedKeys = namedKeys
        namesAccounts = false  // the shipped templates name none
        self.repeatsWindows = repeatsWindows
        self.readsHistory = readsHistory
    }

    /// With everything worked out as the tree was parsed (`QuickParser`).
    init(name: String, source: String, nodes: [Node], namedKeys: [String], namesAccounts: Bool, repeatsWindows: [Bool]) {
        self.name = name
        self.source = source
        self.nodes = nodes
        self.namedKeys = namedKeys
        self.namesAccounts = namesAccounts
        self.repeatsWindows = repeatsWindows
        readsHistory = Self.readsHistory(nodes)
    }

    /// Each top-level node as `String(reflecting:)` writes it: what elbowroom-generate lays out
    /// as Swift in `ShippedTemplates.swift` (the tree itself stays internal to this module).
    package var reflectedNodes: [String] { nodes.map { String(reflecting: $0) } }

    static func repeatsWindows(_ nodes: [Node]) -> [Bool] {
        var flags: [Bool] = []
        for node in nodes { flags.append(node.mentions(window: "each")) }
        return flags
    }

    init(name: String, source: String, nodes: [Node]) {
        self.name = name
        self.source = source
        self.nodes = nodes
        var names: [String] = []
        for node in nodes { node.collectWindowNames(into: &names) }
        var keys: [String] = []
        for window in names where !Variable.standIns.contains(window) {
            let key = WindowCatalog.key(forName: window)
            if !keys.contains(key) { keys.append(key) }
        }
        namedKeys = keys
        var accounts = false
        for node in nodes where node.mentions(account: nil) { accounts = true }
        namesAccounts = accounts
        repeatsWindows = Self.repeatsWindows(nodes)
        readsHistory = Self.readsHistory(nodes)
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
        Renderer.render(nodes, context: RenderContext(
            view: view, statusLine: statusLine, localTime: localTime, namedKeys: namedKeys), repeatsWindows: repeatsWindows)
    }

    /// Renders for one of several accounts (`accounts[index]`), with every account reachable by name.
    public func render(accountAt index: Int, of accounts: [AccountView], localTime: LocalTime = .system) -> [Span] {
        var context = RenderContext(accountAt: index, of: accounts, localTime: localTime)
        context.namedKeys = namedKeys
        context.namesAccounts = namesAccounts
        return Renderer.render(nodes, context: context, repeatsWindows: repeatsWindows)
    }
}
