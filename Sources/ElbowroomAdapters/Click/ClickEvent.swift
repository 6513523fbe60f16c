import ElbowroomCore

/// A click on a block, as i3bar / swaybar report it on stdin with `click_events` on.
public struct ClickEvent: Sendable, Equatable {
    public var name: String?
    public var instance: String?
    /// 1 left, 2 middle, 3 right, 4 scroll up, 5 scroll down.
    public var button: Int

    public init(name: String? = nil, instance: String? = nil, button: Int) {
        self.name = name
        self.instance = instance
        self.button = button
    }

    public var isLeft: Bool { button == 1 }
    public var isMiddle: Bool { button == 2 }
    public var isRight: Bool { button == 3 }
    public var isScrollUp: Bool { button == 4 }
    public var isScrollDown: Bool { button == 5 }
}

/// Reads the click stream line by line: `[` opens it, then one object per line, later ones
/// prefixed with `,` (some bars put `[` and the first object on one line). Anything else
/// (`modifiers`, coordinates, unknown keys) is ignored.
public enum ClickEventParser {
    struct Raw: Decodable {
        var name: String?
        var instance: String?
        var button: Int?
    }

    /// The event on this line, or `nil` for `[`, blank lines and anything unreadable.
    public static func parse(line: String) -> ClickEvent? {
        var s = Substring(line.trimmed)
        if s.hasPrefix("[") { s = s.dropFirst() }
        s = Substring(s.trimmed)
        if s.hasPrefix(",") { s = s.dropFirst() }
        s = Substring(s.trimmed)
        if s.hasSuffix(",") { s = s.dropLast() }
        guard s.hasPrefix("{") else { return nil }
        guard let raw = try? JSONDecoder().decode(Raw.self, from: Data(s.utf8)), let button = raw.button else {
            return nil
        }
        return ClickEvent(name: raw.name, instance: raw.instance, button: button)
    }
}
