import Foundation
import Testing
@testable import ElbowroomCore

@Suite struct ISO8601Tests {
    @Test(arguments: [
        ("2026-11-22T14:03:07.123456+00:00", 1795356187.123456),
        ("2026-11-22T14:03:07Z", 1795356187.0),
        ("2026-11-22T14:03:07.5Z", 1795356187.5),
        ("2026-11-22T16:03:07+02:00", 1795356187.0),
        ("2026-11-22T09:03:07.000001-05:00", 1795356187.000001),
        ("2026-11-22T14:03:07", 1795356187.0),
        ("2024-02-29T00:00:00Z", 1709164800.0),
    ])
    func parses(text: String, epoch: Double) throws {
        let date = try #require(ISO8601.parse(text))
        #expect(abs(date.timeIntervalSince1970 - epoch) < 0.0000005)
    }

    @Test(arguments: ["", "2026-11-22", "2026-13-01T00:00:00Z", "2026-11-22T14:03:07.Z", "yesterday",
                      "2026-11-22T14:03:07Zjunk", "2026-11-22T25:00:00Z"])
    func rejects(text: String) {
        #expect(ISO8601.parse(text) == nil)
    }

    @Test func formatsUTCWholeSeconds() {
        #expect(ISO8601.format(Date(timeIntervalSince1970: 1795356187.9)) == "2026-11-22T14:03:07Z")
        #expect(ISO8601.format(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
    }
}

@Suite struct SHA256Tests {
    @Test func knownVectors() {
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(String(repeating: "a", count: 1000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }
}
