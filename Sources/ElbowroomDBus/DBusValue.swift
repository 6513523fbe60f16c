#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One D-Bus value of any type the tray needs (docs/tray.md). `array` carries its element
/// signature, so an empty array still says what it is an array of; `bytes` is `ay` kept as raw
/// bytes (an icon pixmap is kilobytes: one value, not one per byte).
public indirect enum DBusValue: Sendable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    case bytes([UInt8])
    /// An array whose elements all have the signature `element` (`a` + element).
    case array(element: String, [DBusValue])
    case structure([DBusValue])
    case dictEntry(DBusValue, DBusValue)
    case variant(DBusValue)

    /// This value's type signature.
    public var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .bytes: "ay"
        case .array(let element, _): "a" + element
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .dictEntry(let key, let value): "{" + key.signature + value.signature + "}"
        case .variant: "v"
        }
    }

    /// `a{sv}` from pairs, in the order given.
    public static func dictionary(_ pairs: [(String, DBusValue)]) -> DBusValue {
        .array(element: "{sv}", pairs.map { .dictEntry(.string($0.0), .variant($0.1)) })
    }

    /// `as` from strings.
    public static func strings(_ list: [String]) -> DBusValue {
        .array(element: "s", list.map { .string($0) })
    }

    public var string: String? {
        switch self {
        case .string(let s), .objectPath(let s), .signature(let s): s
        case .variant(let v): v.string
        default: nil
        }
    }

    public var int: Int? {
        switch self {
        case .byte(let n): Int(n)
        case .int16(let n): Int(n)
        case .uint16(let n): Int(n)
        case .int32(let n): Int(n)
        case .uint32(let n): Int(n)
        case .int64(let n): Int(n)
        case .uint64(let n): Int(exactly: n)
        case .variant(let v): v.int
        default: nil
        }
    }

    public var bool: Bool? {
        switch self {
        case .boolean(let b): b
        case .variant(let v): v.bool
        default: nil
        }
    }

    /// The elements of an array (`ay` as bytes), the fields of a struct, or the pair of a dict entry.
    public var elements: [DBusValue] {
        switch self {
        case .array(_, let list), .structure(let list): list
        case .bytes(let b): b.map { .byte($0) }
        case .dictEntry(let k, let v): [k, v]
        case .variant(let v): v.elements
        default: []
        }
    }

    /// An `a{s…}`'s value for `key`.
    public func value(forKey key: String) -> DBusValue? {
        for entry in elements {
            if case .dictEntry(let k, let v) = entry, k.string == key { return v }
        }
        return nil
    }

    /// The value inside a variant (itself otherwise).
    public var unwrapped: DBusValue {
        if case .variant(let v) = self { return v.unwrapped }
        return self
    }
}
