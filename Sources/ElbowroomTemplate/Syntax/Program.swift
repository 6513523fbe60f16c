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
/// table holds constants only, so the compiler lays a shipped template's tables out in the
/// binary (with an array of filters in each placeholder, setting the tooltip's up ran 9 kB of
/// code and wrote some thirty objects across the data pages; its ops, while they held a style
/// of ElbowroomCore's, were built by code, 5.6 kB of it: they are plain numbers now, `OpTable`).
struct Program: Sendable, Equatable {
    /// In template order; a group's contents are the ops after it, up to its `end`.
    var ops: OpTable
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
        /// `[…](style)` over the ops up to `end`.
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

    init(ops: OpTable, texts: [String], slots: [Slot], filters: [Filter], startsWithSeparator: Bool, endsWithSeparator: Bool) {
        self.ops = ops
        self.texts = texts
        self.slots = slots
        self.filters = filters
        self.startsWithSeparator = startsWithSeparator
        self.endsWithSeparator = endsWithSeparator
    }

    /// Whether a placeholder shows something computed from the usage history (`rate`, `spark`,
    /// `pace`, `eta`).
    var readsHistory: Bool {
        for slot in slots {
            if case .window(_, let field) = slot.variable, field.readsHistory { return true }
        }
        return false
    }

    /// Whether a placeholder names an account (`{work:5h.left}`, `{each:label}`).
    var namesAccounts: Bool {
        for slot in slots where slot.account != nil { return true }
        return false
    }

    /// `nodes` laid out flat, in one walk: each group learns whether it repeats from the
    /// placeholders laid out inside it (asking each group's subtree made it a walk per group:
    /// laying out the `full` template given as text cost more than rendering it).
    init(_ nodes: [Node]) {
        ops = OpTable()
        texts = []
        slots = []
        filters = []
        var size = (ops: 0, texts: 0, slots: 0, filters: 0)
        for node in nodes { Self.count(node, into: &size) }
        ops.reserveCapacity(size.ops)
        texts.reserveCapacity(size.texts)
        slots.reserveCapacity(size.slots)
        filters.reserveCapacity(size.filters)
        if case .text(let text) = nodes.first { startsWithSeparator = Renderer.startsWithSeparator(text) } else {
            startsWithSeparator = false
        }
        if case .text(let text) = nodes.last { endsWithSeparator = Renderer.endsWithSeparator(text) } else {
            endsWithSeparator = false
        }
        for node in nodes { _ = append(node) }
    }

    /// How many ops, texts, slots and filters `node` lays out into.
    private static func count(_ node: Node, into size: inout (ops: Int, texts: Int, slots: Int, filters: Int)) {
        size.ops += 1
        switch node {
        case .text: size.texts += 1
        case .placeholder(let placeholder):
            size.slots += 1
            size.filters += placeholder.filters.count
        case .styled(let nodes, _), .conditional(let nodes):
            for node in nodes { count(node, into: &size) }
        }
    }

    /// Lays `node` out; returns whether a placeholder in it reads `each.*` (a window) and
    /// whether one reads `each:…` (an account).
    private mutating func append(_ node: Node) -> (eachWindow: Bool, eachAccount: Bool) {
        switch node {
        case .text(let text):
            ops.append(.text(texts.count))
            texts.append(text)
            return (false, false)
        case .placeholder(let placeholder):
            ops.append(.placeholder(slots.count))
            slots.append(Slot(variable: placeholder.variable, firstFilter: filters.count,
                              filterCount: placeholder.filters.count, account: placeholder.account))
            filters.append(contentsOf: placeholder.filters)
            return (placeholder.variable.windowName == "each", placeholder.account == "each")
        case .styled(let nodes, let parsed):
            let at = ops.count
            ops.append(.text(0))  // (its place; set below, once its end is known)
            var each = (eachWindow: false, eachAccount: false)
            for node in nodes {
                let inner = append(node)
                each = (each.eachWindow || inner.eachWindow, each.eachAccount || inner.eachAccount)
            }
            ops[at] = .styled(parsed, end: ops.count)
            return each
        case .conditional(let nodes):
            let at = ops.count
            ops.append(.text(0))
            var each = (eachWindow: false, eachAccount: false)
            for node in nodes {
                let inner = append(node)
                each = (each.eachWindow || inner.eachWindow, each.eachAccount || inner.eachAccount)
            }
            ops[at] = .conditional(end: ops.count, eachWindow: each.eachWindow, eachAccount: each.eachAccount)
            return each
        }
    }
}
