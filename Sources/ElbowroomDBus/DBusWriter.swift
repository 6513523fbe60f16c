/// Marshals values into the D-Bus wire format, little-endian, each aligned to its type's
/// boundary counted from `base` (a message's body starts 8-aligned, so a body written from
/// offset 0 is aligned as it will be in the message).
public struct DBusWriter {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    static func alignment(of signatureCode: UInt8) -> Int {
        switch signatureCode {
        case UInt8(ascii: "y"), UInt8(ascii: "g"), UInt8(ascii: "v"): 1
        case UInt8(ascii: "n"), UInt8(ascii: "q"): 2
        case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"), UInt8(ascii: "("), UInt8(ascii: "{"): 8
        default: 4  // b i u s o a h
        }
    }

    public mutating func pad(to boundary: Int) {
        while bytes.count % boundary != 0 { bytes.append(0) }
    }

    mutating func put<T: FixedWidthInteger>(_ value: T) {
        pad(to: MemoryLayout<T>.size)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func putString(_ s: String) {
        let utf8 = Array(s.utf8)
        put(UInt32(utf8.count))
        bytes.append(contentsOf: utf8)
        bytes.append(0)
    }

    mutating func putSignature(_ s: String) {
        let utf8 = Array(s.utf8)
        bytes.append(UInt8(min(utf8.count, 255)))
        bytes.append(contentsOf: utf8.prefix(255))
        bytes.append(0)
    }

    /// Writes `values` one after the other (a message body).
    public mutating func write(_ values: [DBusValue]) {
        for value in values { write(value) }
    }

    public mutating func write(_ value: DBusValue) {
        switch value {
        case .byte(let n): bytes.append(n)
        case .boolean(let b): put(UInt32(b ? 1 : 0))
        case .int16(let n): put(n)
        case .uint16(let n): put(n)
        case .int32(let n): put(n)
        case .uint32(let n): put(n)
        case .int64(let n): put(n)
        case .uint64(let n): put(n)
        case .double(let d): put(d.bitPattern)
        case .string(let s), .objectPath(let s): putString(s)
        case .signature(let s): putSignature(s)
        case .bytes(let b):
            put(UInt32(b.count))
            bytes.append(contentsOf: b)
        case .array(let element, let list):
            put(UInt32(0))
            let lengthAt = bytes.count - 4
            // The length counts the elements only, not the padding before the first.
            pad(to: Self.alignment(of: element.utf8.first ?? UInt8(ascii: "y")))
            let start = bytes.count
            for item in list { write(item) }
            let length = UInt32(bytes.count - start).littleEndian
            withUnsafeBytes(of: length) { raw in
                for i in 0..<4 { bytes[lengthAt + i] = raw[i] }
            }
        case .structure(let fields):
            pad(to: 8)
            for field in fields { write(field) }
        case .dictEntry(let key, let value):
            pad(to: 8)
            write(key)
            write(value)
        case .variant(let inner):
            putSignature(inner.signature)
            write(inner)
        }
    }
}
