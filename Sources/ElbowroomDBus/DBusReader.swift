/// Unmarshals values from the D-Bus wire format by signature, in either byte order (a message
/// says its own: another client on the bus may be big-endian). Every length is checked against
/// what is there; nothing it reads can make it read out of bounds or loop.
public struct DBusReader {
    let bytes: [UInt8]
    public private(set) var offset: Int
    let bigEndian: Bool
    /// Containers nest at most this deep (the specification's limit is 32 arrays and 32 structs).
    static let maxDepth = 64

    public init(_ bytes: [UInt8], offset: Int = 0, bigEndian: Bool = false) {
        self.bytes = bytes
        self.offset = offset
        self.bigEndian = bigEndian
    }

    mutating func align(_ boundary: Int) throws(DBusError) {
        let next = (offset + boundary - 1) / boundary * boundary
        guard next <= bytes.count else { throw .malformed("padding past the end") }
        offset = next
    }

    mutating func get<T: FixedWidthInteger>(_: T.Type) throws(DBusError) -> T {
        try align(MemoryLayout<T>.size)
        let size = MemoryLayout<T>.size
        guard offset + size <= bytes.count else { throw .malformed("value past the end") }
        var value: T = 0
        for i in 0..<size { value |= T(truncatingIfNeeded: bytes[offset + i]) << (8 * i) }
        offset += size
        return bigEndian ? value.byteSwapped : value
    }

    mutating func getString() throws(DBusError) -> String {
        let length = Int(try get(UInt32.self))
        guard length <= bytes.count - offset - 1 else { throw .malformed("string past the end") }
        let s = String(decoding: bytes[offset..<(offset + length)], as: UTF8.self)
        offset += length + 1
        return s
    }

    mutating func getSignature() throws(DBusError) -> String {
        guard offset < bytes.count else { throw .malformed("signature past the end") }
        let length = Int(bytes[offset])
        guard length <= bytes.count - offset - 2 else { throw .malformed("signature past the end") }
        let s = String(decoding: bytes[(offset + 1)..<(offset + 1 + length)], as: UTF8.self)
        offset += length + 2
        return s
    }

    /// Reads one value of each complete type in `signature`.
    public mutating func read(signature: String) throws(DBusError) -> [DBusValue] {
        var values: [DBusValue] = []
        var rest = Substring(signature)
        while !rest.isEmpty {
            let one = try Self.firstType(of: rest)
            values.append(try read(one, depth: 0))
            rest = rest.dropFirst(one.count)
        }
        return values
    }

    /// The first complete type of a signature (`a{sv}` of `a{sv}i`).
    static func firstType(of signature: Substring) throws(DBusError) -> Substring {
        var depth = 0
        var i = signature.startIndex
        while i < signature.endIndex {
            let c = signature[i]
            i = signature.index(after: i)
            switch c {
            case "a": continue
            case "(", "{": depth += 1
            case ")", "}":
                depth -= 1
                guard depth >= 0 else { throw .malformed("unbalanced signature") }
            default: break
            }
            if depth == 0 { return signature[..<i] }
            guard depth <= maxDepth else { throw .malformed("signature nested too deep") }
        }
        throw .malformed("incomplete signature '\(signature)'")
    }

    mutating func read(_ type: Substring, depth: Int) throws(DBusError) -> DBusValue {
        guard depth <= Self.maxDepth, let code = type.first else { throw .malformed("value nested too deep") }
        switch code {
        case "y":
            guard offset < bytes.count else { throw .malformed("byte past the end") }
            offset += 1
            return .byte(bytes[offset - 1])
        case "b": return .boolean(try get(UInt32.self) != 0)
        case "n": return .int16(try get(Int16.self))
        case "q": return .uint16(try get(UInt16.self))
        case "i": return .int32(try get(Int32.self))
        case "u", "h": return .uint32(try get(UInt32.self))
        case "x": return .int64(try get(Int64.self))
        case "t": return .uint64(try get(UInt64.self))
        case "d": return .double(Double(bitPattern: try get(UInt64.self)))
        case "s": return .string(try getString())
        case "o": return .objectPath(try getString())
        case "g": return .signature(try getSignature())
        case "v":
            let inner = try getSignature()
            let one = try Self.firstType(of: Substring(inner))
            guard one.count == inner.count else { throw .malformed("variant of several types") }
            return .variant(try read(one, depth: depth + 1))
        case "a":
            let length = Int(try get(UInt32.self))
            let element = type.dropFirst()
            guard let first = element.first else { throw .malformed("array without element type") }
            try align(DBusWriter.alignment(of: first.asciiValue ?? 0))
            guard length <= bytes.count - offset else { throw .malformed("array past the end") }
            let end = offset + length
            if element == "y" {
                offset = end
                return .bytes(Array(bytes[(end - length)..<end]))
            }
            var list: [DBusValue] = []
            while offset < end {
                list.append(try read(element, depth: depth + 1))
            }
            guard offset == end else { throw .malformed("array element past its end") }
            return .array(element: String(element), list)
        case "(", "{":
            try align(8)
            var inner = type.dropFirst().dropLast()
            var fields: [DBusValue] = []
            while !inner.isEmpty {
                let one = try Self.firstType(of: inner)
                fields.append(try read(one, depth: depth + 1))
                inner = inner.dropFirst(one.count)
            }
            if code == "{" {
                guard fields.count == 2 else { throw .malformed("dict entry of \(fields.count) values") }
                return .dictEntry(fields[0], fields[1])
            }
            return .structure(fields)
        default:
            throw .malformed("unknown type '\(code)'")
        }
    }
}
