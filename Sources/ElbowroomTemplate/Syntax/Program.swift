// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// A template as the renderer walks it: the parsed tree (`Node`) laid out flat, every group
/// followed by its contents, with the text, the placeholders and their filters in tables of
/// their own.
///
/// An `Op` is a few plain numbers, so walking it copies nothing: walking the tree, every node
/// visited was a copy of an enum with strings and arrays in it (a retain and a release of each,
/// and a `memcpy` of the larger ones), and a shipped template's tree was some fifty arrays built
/// on every render. What a render would otherwise work out by walking a group — whether it
/// repeats per window or per account, whether the line starts or ends with the separator — is
/// worked out here, once (for a shipped template at build time: `ShippedTemplates.swift`). Every
/// table holds constants only, so a shipped template's are laid out in the binary whole: with
/// an array of filters in each placeholder, setting the tooltip's up ran 9 kB of code and wrote
/// some thirty objects across the data pages.
struct Program: Sendable, Equatable {
    /// In template order; a group's contents are the ops after it, up to its `end`.
    var ops: [Op]
    /// The text of each `.text` op.
    var texts: [String]
    /// Each `.placeholder` op's.
    var slots: [Slot]
    /// Every placeholder's filters, one after another (a slot says which are its).
    var filters: [Filter]
    /// The template starts (ends) with text that starts (ends) with the separator, written so:
    /// the separator stays there (`Renderer.trimSeparators`).
    var startsWithSeparator: Bool
    var endsWithSeparator: Bool

    enum Op: Sendable, Equatable {
        /// `texts[index]`.
        case text(Int)
        /// `slots[index]`.
        case placeholder(Int)
        /// `[…](style)` over the ops up to `end`. (The style in the op, not in a table of its own:
        /// an array of a new type costs a render ~7 k instructions of metadata.)
        case styled(StyleSpec.Parsed, end: Int)
        /// `(…)`, over the ops up to `end`: shown only when every placeholder inside has a value.
        /// `eachWindow`: a placeholder inside reads `each.*` (the group repeats per window the
        /// template does not name); `eachAccount`: one reads `each:…` (it repeats per account).
        case conditional(end: Int, eachWindow: Bool, eachAccount: Bool)
    }

    /// A placeholder as the renderer reads it (`Placeholder`, its filters a stretch of
    /// `filters`).
    struct Slot: Sendable, Equatable {
        var variable: Variable
        /// Where its filters start in `filters`, and how many there are.
        var firstFilter: Int
        var filterCount: Int
        /// `{work:5h.left}`: the `[accounts.NAME]` the variable is read from (see `Placeholder`).
        var account: String?
    }

    init(ops: [Op], texts: [String], slots: [Slot], filters: [Filter], startsWithSeparator: Bool, endsWithSeparator: Bool) {
        self.ops = ops
        self.texts = texts
        self.slots = slots
        self.filters = filters
        self.startsWithSeparator = startsWithSeparator
        self.endsWithSeparator = endsWithSeparator
    }

    /// `nodes` laid out flat.
    init(_ nodes: [Node]) {
        ops = []
        texts = []
        slots = []
        filters = []
        if case .text(let text) = nodes.first { startsWithSeparator = Renderer.startsWithSeparator(text) } else {
            startsWithSeparator = false
        }
        if case .text(let text) = nodes.last { endsWithSeparator = Renderer.endsWithSeparator(text) } else {
            endsWithSeparator = false
        }
        for node in nodes { append(node) }
    }

    private mutating func append(_ node: Node) {
        switch node {
        case .text(let text):
            ops.append(.text(texts.count))
            texts.append(text)
        case .placeholder(let placeholder):
            ops.append(.placeholder(slots.count))
            slots.append(Slot(variable: placeholder.variable, firstFilter: filters.count,
                              filterCount: placeholder.filters.count, account: placeholder.account))
            filters.append(contentsOf: placeholder.filters)
        case .styled(let nodes, let parsed):
            let at = ops.count
            ops.append(.text(0))  // (its place; set below, once its end is known)
            for node in nodes { append(node) }
            ops[at] = .styled(parsed, end: ops.count)
        case .conditional(let nodes):
            let at = ops.count
            ops.append(.text(0))
            for node in nodes { append(node) }
            ops[at] = .conditional(end: ops.count, eachWindow: node.mentions(window: "each"),
                                   eachAccount: node.mentions(account: "each"))
        }
    }

}
