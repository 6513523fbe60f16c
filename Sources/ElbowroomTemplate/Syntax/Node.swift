import ElbowroomCore

/// The parsed template: text, placeholders, styled groups and conditional groups.
indirect enum Node: Sendable, Equatable {
    case text(String)
    case placeholder(Placeholder)
    /// `[…](style)`.
    case styled([Node], StyleSpec.Parsed)
    /// `(…)`: rendered only when every placeholder inside has a value.
    case conditional([Node])

    /// The windows the placeholders inside refer to, for a `level` style.
    var windowNames: [String] {
        switch self {
        case .text: []
        case .placeholder(let p): p.variable.windowName.map { [$0] } ?? []
        case .styled(let nodes, _), .conditional(let nodes): nodes.flatMap(\.windowNames)
        }
    }
}

/// `{variable|filter(args)|…}`, checked: the variable exists and every filter fits its input.
struct Placeholder: Sendable, Equatable {
    var variable: Variable
    var filters: [Filter]
}
