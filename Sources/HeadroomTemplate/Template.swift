// TEMPORARY STUB (lead): replaced by the real engine from branch `template` at merge.
import HeadroomCore

public struct LocalTime: Sendable {
    public static let system = LocalTime()
    public static func fixed(offsetSeconds: Int) -> LocalTime { LocalTime() }
}

public struct TemplateError: Error, Sendable, Equatable, CustomStringConvertible {
    public var name: String
    public var line: Int
    public var column: Int
    public var message: String
    public var suggestion: String?
    public var description: String { "\(name):\(line):\(column): error: \(message)" }
}

public struct Template: Sendable {
    public let name: String
    public let source: String
    public static func parse(_ source: String, name: String = "template") throws(TemplateError) -> Template {
        Template(name: name, source: source)
    }
    public func render(_ view: UsageView, statusLine: StatusLineInput? = nil, localTime: LocalTime = .system) -> [Span] {
        view.windows.map { Span("\($0.name) \(Int($0.left.rounded()))% ", style: Style(semantic: SemanticStyle($0.level))) }
    }
}

public struct ShippedTemplate: Sendable {
    public var name: String
    public var summary: String
    public var source: String
}

public enum TemplateLibrary {
    public static let shipped: [ShippedTemplate] = [ShippedTemplate(name: "compact", summary: "stub", source: "{5h.left}")]
    public static func resolve(_ nameOrText: String, paths: Paths) throws(TemplateError) -> Template {
        try Template.parse(nameOrText, name: nameOrText)
    }
    public static func list(paths: Paths) -> [(name: String, origin: String, summary: String)] {
        shipped.map { ($0.name, "shipped", $0.summary) }
    }
    public static func source(named: String, paths: Paths) -> String? { shipped.first { $0.name == named }?.source }
}
