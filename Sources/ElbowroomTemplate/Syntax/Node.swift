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
    /// `{work:5h.left}`: the `[accounts.NAME]` the variable is read from (`each` for the account
    /// a repeated group is rendered for); `nil` for the account being rendered.
    var account: String? = nil
}

