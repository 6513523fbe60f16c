// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// The parsed template: text, placeholders, styled groups and conditional groups. Not
/// `indirect`: the child arrays are the indirection, and a box per node cost a waybar render
/// ~50 k instructions in allocations and reference counting.
enum Node: Sendable, Equatable {
    case text(String)
    case placeholder(Placeholder)
    /// `[…](style)`.
    case styled([Node], StyleSpec.Parsed)
    /// `(…)`: rendered only when every placeholder inside has a value.
    case conditional([Node])

    /// The windows the placeholders inside refer to, for a `level` style.
    var windowNames: [String] {
        var names: [String] = []
        collectWindowNames(into: &names)
        return names
    }

    /// Whether a placeholder inside refers to window `name` (a walk that allocates nothing).
    func mentions(window name: String) -> Bool {
        switch self {
        case .text: return false
        case .placeholder(let p): return p.variable.windowName == name
        case .styled(let nodes, _), .conditional(let nodes):
            for node in nodes where node.mentions(window: name) { return true }
            return false
        }
    }

    /// A plain walk (no key paths or `flatMap`: this runs on every render).
    func collectWindowNames(into names: inout [String]) {
        switch self {
        case .text: break
        case .placeholder(let p): if let name = p.variable.windowName { names.append(name) }
        case .styled(let nodes, _), .conditional(let nodes):
            for node in nodes { node.collectWindowNames(into: &names) }
        }
    }
}

/// `{variable|filter(args)|…}`, checked: the variable exists and every filter fits its input.
struct Placeholder: Sendable, Equatable {
    var variable: Variable
    var filters: [Filter]
}
