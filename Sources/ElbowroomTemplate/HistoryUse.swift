import ElbowroomCore

extension Template {
    /// Whether `nodes` show anything computed from the usage history (`readsHistory`).
    static func readsHistory(_ nodes: [Node]) -> Bool { nodes.contains(where: \.readsHistory) }
}

extension Node {
    var readsHistory: Bool {
        switch self {
        case .text: false
        case .placeholder(let p):
            if case .window(_, let field) = p.variable { field.readsHistory } else { false }
        case .styled(let nodes, _), .conditional(let nodes): nodes.contains(where: \.readsHistory)
        }
    }
}
