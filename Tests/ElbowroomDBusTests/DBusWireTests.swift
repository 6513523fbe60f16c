import Foundation
import Testing
import ElbowroomTestSupport
@testable import ElbowroomDBus

/// The wire format, byte for byte where the specification fixes it, and read back.
@Suite struct DBusWireTests {
    @Test func stringsArraysAndStructsAreAlignedAsTheSpecificationSays() {
        var w = DBusWriter()
        w.write([.byte(7), .string("ab"), .uint64(1), .array(element: "(ii)", []), .byte(9)])
        #expect(w.bytes == [
            7, 0, 0, 0,  2, 0, 0, 0,  0x61, 0x62, 0,     // y, pad to 4, s
            0, 0, 0, 0, 0,                               // pad to 8
            1, 0, 0, 0, 0, 0, 0, 0,                      // t
            0, 0, 0, 0,  0, 0, 0, 0,                     // array length 0, pad to 8 for its structs (not counted)
            9,                                           // y
        ])
    }

    @Test func aVariantCarriesItsSignature() {
        var w = DBusWriter()
        w.write(.variant(.uint32(3)))
        #expect(w.bytes == [1, 0x75, 0, 0, 3, 0, 0, 0])
    }

    @Test func everyTypeTheTrayUsesReadsBackAsWritten() throws {
        let tooltip = DBusValue.structure([.string("t"), .array(element: "(iiay)", [
            .structure([.int32(2), .int32(1), .bytes([255, 1, 2, 3, 255, 4, 5, 6])]),
        ]), .string("title & more"), .string("line\nline")])
        let values: [DBusValue] = [
            .boolean(true), .int16(-3), .uint16(9), .uint64(1 << 40), .double(2.5), .objectPath("/a/b"),
            .signature("a{sv}"), .dictionary([("k", .string("v")), ("n", .int32(-1))]), tooltip,
            .variant(.variant(.strings(["x", "y"]))),
        ]
        var w = DBusWriter()
        w.write(values)
        var r = DBusReader(w.bytes)
        let back = try r.read(signature: values.map(\.signature).joined())
        #expect(r.offset == w.bytes.count)
        var again = DBusWriter()
        again.write(back)
        #expect(again.bytes == w.bytes)
        #expect(back.map(\.signature) == values.map(\.signature))
        #expect(back[7].value(forKey: "k")?.string == "v")
    }

    @Test func aMessageReadsBackWithEveryHeaderField() throws {
        var m = DBusMessage.methodCall(destination: "org.example", path: "/x", interface: "org.example.I", member: "Do",
                                       body: [.string("hi"), .array(element: "i", [.int32(1), .int32(2)])])
        m.flags = DBusMessage.noReplyExpected
        let bytes = m.encoded(serial: 42)
        #expect(try DBusMessage.length(ofMessageIn: bytes[...]) == bytes.count)
        let back = try DBusMessage.decode(bytes)
        #expect(back.serial == 42 && back.path == "/x" && back.interface == "org.example.I" && back.member == "Do")
        #expect(back.destination == "org.example" && back.signature == "sai" && !back.wantsReply)
    }

    @Test func truncatedOrLyingInputIsAnErrorNotACrash() {
        let bytes = DBusMessage.signal(path: "/p", interface: "a.b", member: "C", body: [.strings(["x", "yy"])]).encoded(serial: 1)
        for cut in 0..<bytes.count {
            #expect(throws: DBusError.self) { try DBusMessage.decode(Array(bytes[..<cut])) }
        }
        var r = DBusReader([0xff, 0xff, 0xff, 0x7f, 0x61])
        #expect(throws: DBusError.self) { try r.read(signature: "s") }
        var deep = DBusReader([1, 0x61, 0])
        #expect(throws: DBusError.self) { try deep.read(signature: String(repeating: "a", count: 100) + "y") }
    }

    @Test func addressesParseAsDBusWritesThem() {
        #expect(DBusAddress.parse("unix:path=/run/user/1000/bus") == [.path("/run/user/1000/bus")])
        #expect(DBusAddress.parse("unix:abstract=/tmp/dbus-x,guid=abc") == [.abstract("/tmp/dbus-x")])
        #expect(DBusAddress.parse("tcp:host=x,port=1;unix:path=/a%20b") == [.path("/a b")])
        #expect(DBusAddress.session(environment: ["XDG_RUNTIME_DIR": "/run/user/7"]) == [.path("/run/user/7/bus")])
        #expect(DBusAddress.session(environment: [:]).isEmpty)
    }
}

/// The client against a real `dbus-daemon`, and real clients (`gdbus`, `dbus-send`) against it.
@Suite(.serialized) struct DBusDaemonTests {
    static var tools: Bool {
        PrivateBus.available && ["/usr/bin/gdbus", "/usr/bin/dbus-send"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test(.enabled(if: tools, "needs dbus (dbus-daemon, dbus-send) and libglib2.0-bin (gdbus) installed"), arguments: [false, true])
    func helloOnAPathOrAnAbstractSocket(abstract: Bool) throws {
        let bus = try PrivateBus(abstract: abstract)
        let c = try DBusConnection(addresses: DBusAddress.parse(bus.address))
        #expect(c.uniqueName.hasPrefix(":1."))
        let names = try c.call(.methodCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                           interface: "org.freedesktop.DBus", member: "ListNames"))
        #expect(names.body.first?.elements.compactMap(\.string).contains(c.uniqueName) == true)
        #expect(try c.requestName("org.example.Wire"))
        #expect(try c.nameHasOwner("org.example.Wire"))
    }

    @Test(.enabled(if: tools, "needs dbus and libglib2.0-bin (gdbus) installed"))
    func gdbusCallsAnObjectOfOursAndReadsWhatItAnswers() throws {
        let bus = try PrivateBus()
        let c = try DBusConnection(addresses: DBusAddress.parse(bus.address))
        #expect(try c.requestName("org.example.Echo"))
        let box = Unchecked(c)
        let server = Thread {
            let c = box.value
            // Answer one call: echo the arguments back with a dictionary and a pixmap-shaped array.
            while let m = try? c.next(timeout: 10) {
                guard m.kind == .methodCall else { continue }
                // gdbus asks what the object is first; not telling, it reads the arguments as written.
                guard m.member == "Echo" else {
                    try? c.send(.error(to: m, name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no"))
                    continue
                }
                let reply = DBusMessage.methodReturn(to: m, body: m.body + [
                    .dictionary([("label", .string("Refresh now")), ("enabled", .boolean(false))]),
                    .array(element: "(iiay)", [.structure([.int32(1), .int32(1), .bytes([255, 10, 20, 30])])]),
                ])
                try? c.send(reply)
                return
            }
        }
        server.start()
        let run = try BuiltExecutable.run("/usr/bin/gdbus", arguments: [
            "call", "--session", "--dest", "org.example.Echo", "--object-path", "/x", "--method", "org.example.Echo.Echo",
            "héllo", "[1, 2, 3]", "{'a': <int32 5>}", "(7, 'x')",
        ], environment: bus.environment(["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "('héllo', [1, 2, 3], {'a': <5>}, (7, 'x'), {'label': <'Refresh now'>, 'enabled': <false>}, [(1, 1, [byte 0xff, 0x0a, 0x14, 0x1e])])\n")
    }

    @Test(.enabled(if: tools, "needs dbus (dbus-send) installed"))
    func aSignalFromDBusSendArrivesThroughAMatchRule() throws {
        let bus = try PrivateBus()
        let c = try DBusConnection(addresses: DBusAddress.parse(bus.address))
        try c.addMatch("type='signal',interface='org.example.Sig'")
        let run = try BuiltExecutable.run("/usr/bin/dbus-send", arguments: [
            "--session", "--type=signal", "/p", "org.example.Sig.Changed", "string:new", "uint32:9", "array:int32:1,2",
        ], environment: bus.environment(["PATH": "/usr/bin:/bin"]))
        #expect(run.status == 0, "\(run.stderr)")
        var got: DBusMessage?
        for _ in 0..<20 where got == nil {
            if let m = try c.next(timeout: 0.5), m.kind == .signal, m.member == "Changed" { got = m }
        }
        let m = try #require(got)
        #expect(m.path == "/p" && m.signature == "suai")
        #expect(m.body[0].string == "new" && m.body[1].int == 9 && m.body[2].elements.compactMap(\.int) == [1, 2])
    }

    @Test(.enabled(if: tools, "needs dbus installed"))
    func aCallToANameNobodyOwnsIsTheBussError() throws {
        let bus = try PrivateBus()
        let c = try DBusConnection(addresses: DBusAddress.parse(bus.address))
        #expect {
            _ = try c.call(.methodCall(destination: "org.example.Nobody", path: "/", interface: "org.example.X", member: "Y"))
        } throws: { error in
            "\(error)".hasPrefix("org.freedesktop.DBus.Error.ServiceUnknown")
        }
    }

    @Test func noBusIsSaidPlainly() {
        #expect {
            _ = try DBusConnection(addresses: [])
        } throws: { error in
            "\(error)".contains("no D-Bus session bus")
        }
    }
}

/// Hands a connection to the one other thread that uses it while the test waits.
final class Unchecked<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
