// Render path: every prompt runs code in this file; the rules are in docs/performance.md.

/// A config table of names to strings (`[templates]`, `[colors]`), in file order, used as a
/// dictionary is (`config.templates["tmux"]`).
///
/// Not a `Dictionary`: a render whose config has a `[templates]` or `[colors]` entry would make
/// the runtime build a `Dictionary<String, String>`'s metadata and find `String`'s `Hashable`
/// conformance for it, about 0.23 M instructions, half again a whole render, for a table of a
/// few entries. Two arrays of `String` (a type every render has already) and a look-up by
/// comparison cost nothing of the kind.
public struct StringTable: Sendable, Equatable, ExpressibleByDictionaryLiteral, Sequence {
    public private(set) var keys: [String] = []
    private var values: [String] = []

    public init() {}

    public init(dictionaryLiteral elements: (String, String)...) {
        for (key, value) in elements { self[key] = value }
    }

    public var isEmpty: Bool { keys.isEmpty }
    public var count: Int { keys.count }

    /// The value of `key`; setting `nil` removes it, setting an existing key replaces its value
    /// where it is.
    public subscript(key: String) -> String? {
        get {
            for i in keys.indices where keys[i] == key { return values[i] }
            return nil
        }
        set {
            for i in keys.indices where keys[i] == key {
                if let newValue {
                    values[i] = newValue
                } else {
                    keys.remove(at: i)
                    values.remove(at: i)
                }
                return
            }
            if let newValue {
                keys.append(key)
                values.append(newValue)
            }
        }
    }

    /// Equal when they hold the same keys with the same values, in any order (as dictionaries are).
    public static func == (a: StringTable, b: StringTable) -> Bool {
        guard a.count == b.count else { return false }
        for i in a.keys.indices where b[a.keys[i]] != a.values[i] { return false }
        return true
    }

    public struct Iterator: IteratorProtocol {
        let table: StringTable
        var index = 0

        public mutating func next() -> (key: String, value: String)? {
            guard index < table.keys.count else { return nil }
            defer { index += 1 }
            return (table.keys[index], table.values[index])
        }
    }

    /// The entries in file order.
    public func makeIterator() -> Iterator { Iterator(table: self) }
}
