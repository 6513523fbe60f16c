/// One D-Bus message: a method call, its return or error, or a signal.
public struct DBusMessage {
    public enum Kind: UInt8 {
        case methodCall = 1, methodReturn = 2, error = 3, signal = 4
    }

    /// Flag: the caller wants no reply.
    public static let noReplyExpected: UInt8 = 0x1

    public var kind: Kind
    public var flags: UInt8 = 0
    public var serial: UInt32 = 0
    public var path: String?
    public var interface: String?
    public var member: String?
    public var errorName: String?
    public var replySerial: UInt32?
    public var destination: String?
    public var sender: String?
    public var body: [DBusValue] = []

    /// The longest message the specification allows (128 MiB); anything longer is refused.
    static let maxLength = 1 << 27

    public init(kind: Kind, path: String? = nil, interface: String? = nil, member: String? = nil,
                destination: String? = nil, body: [DBusValue] = []) {
        self.kind = kind
        self.path = path
        self.interface = interface
        self.member = member
        self.destination = destination
        self.body = body
    }

    public static func methodCall(destination: String?, path: String, interface: String?, member: String,
                                  body: [DBusValue] = []) -> DBusMessage {
        DBusMessage(kind: .methodCall, path: path, interface: interface, member: member, destination: destination, body: body)
    }

    public static func signal(path: String, interface: String, member: String, body: [DBusValue] = []) -> DBusMessage {
        DBusMessage(kind: .signal, path: path, interface: interface, member: member, body: body)
    }

    /// The return of `call`, carrying `body`.
    public static func methodReturn(to call: DBusMessage, body: [DBusValue] = []) -> DBusMessage {
        var m = DBusMessage(kind: .methodReturn, destination: call.sender, body: body)
        m.replySerial = call.serial
        return m
    }

    /// An error answer to `call`.
    public static func error(to call: DBusMessage, name: String, message: String) -> DBusMessage {
        var m = DBusMessage(kind: .error, destination: call.sender, body: [.string(message)])
        m.errorName = name
        m.replySerial = call.serial
        return m
    }

    public var signature: String { body.map(\.signature).joined() }

    /// Whether the sender asked for a reply (a method call without NO_REPLY_EXPECTED).
    public var wantsReply: Bool { kind == .methodCall && flags & Self.noReplyExpected == 0 }

    /// The wire bytes, little-endian, with `serial`.
    public func encoded(serial: UInt32) -> [UInt8] {
        var bodyWriter = DBusWriter()
        bodyWriter.write(body)
        var fields: [DBusValue] = []
        func field(_ code: UInt8, _ value: DBusValue?) {
            if let value { fields.append(.structure([.byte(code), .variant(value)])) }
        }
        field(1, path.map { .objectPath($0) })
        field(2, interface.map { .string($0) })
        field(3, member.map { .string($0) })
        field(4, errorName.map { .string($0) })
        field(5, replySerial.map { .uint32($0) })
        field(6, destination.map { .string($0) })
        field(7, sender.map { .string($0) })
        if !body.isEmpty { field(8, .signature(signature)) }
        var w = DBusWriter()
        w.write(.byte(UInt8(ascii: "l")))
        w.write(.byte(kind.rawValue))
        w.write(.byte(flags))
        w.write(.byte(1))
        w.write(.uint32(UInt32(bodyWriter.bytes.count)))
        w.write(.uint32(serial))
        w.write(.array(element: "(yv)", fields))
        w.pad(to: 8)
        return w.bytes + bodyWriter.bytes
    }

    /// The length of the message at the start of `bytes` once its first 16 bytes are there
    /// (`nil` before), so a reader knows how much to wait for.
    static func length(ofMessageIn bytes: ArraySlice<UInt8>) throws(DBusError) -> Int? {
        guard bytes.count >= 16 else { return nil }
        let s = bytes.startIndex
        let big: Bool
        switch bytes[s] {
        case UInt8(ascii: "l"): big = false
        case UInt8(ascii: "B"): big = true
        default: throw .malformed("unknown byte order \(bytes[s])")
        }
        func u32(_ at: Int) -> Int {
            let b = (0..<4).map { Int(bytes[s + at + $0]) }
            return big ? (b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3]) : (b[3] << 24 | b[2] << 16 | b[1] << 8 | b[0])
        }
        let bodyLength = u32(4)
        let fieldsLength = u32(12)
        let headerEnd = (16 + fieldsLength + 7) / 8 * 8
        let total = headerEnd + bodyLength
        guard total <= maxLength else { throw .malformed("message of \(total) bytes") }
        return total
    }

    /// Decodes one whole message (exactly `bytes`).
    public static func decode(_ bytes: [UInt8]) throws(DBusError) -> DBusMessage {
        guard bytes.count >= 16 else { throw .malformed("message shorter than its header") }
        let big = bytes[0] == UInt8(ascii: "B")
        guard let kind = Kind(rawValue: bytes[1]) else { throw .malformed("unknown message type \(bytes[1])") }
        var r = DBusReader(bytes, offset: 4, bigEndian: big)
        let bodyLength = Int(try r.get(UInt32.self))
        let serial = try r.get(UInt32.self)
        let fields = try r.read(signature: "a(yv)")[0]
        try r.align(8)
        guard r.offset + bodyLength == bytes.count else { throw .malformed("body length does not match") }
        var m = DBusMessage(kind: kind)
        m.flags = bytes[2]
        m.serial = serial
        var signature = ""
        for field in fields.elements {
            let parts = field.elements
            guard parts.count == 2, case .byte(let code) = parts[0] else { continue }
            let value = parts[1].unwrapped
            switch code {
            case 1: m.path = value.string
            case 2: m.interface = value.string
            case 3: m.member = value.string
            case 4: m.errorName = value.string
            case 5: m.replySerial = value.int.map { UInt32(truncatingIfNeeded: $0) }
            case 6: m.destination = value.string
            case 7: m.sender = value.string
            case 8: signature = value.string ?? ""
            default: break
            }
        }
        m.body = try r.read(signature: signature)
        guard r.offset == bytes.count else { throw .malformed("body longer than its signature") }
        return m
    }

    /// An error's message (its first string), for saying what went wrong.
    public var errorDescription: DBusError {
        .remote(name: errorName ?? "error", message: body.first?.string ?? "")
    }
}
