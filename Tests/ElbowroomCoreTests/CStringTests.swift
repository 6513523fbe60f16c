import Testing
@testable import ElbowroomCore

@Suite struct CStringTests {
    /// A C string's text is `String(cString:)`'s, invalid UTF-8 repaired the same way.
    @Test func aCStringReadsAsStringCStringDoes() {
        let samples: [[UInt8]] = [[], [0x61], Array("héllo /tmp/x".utf8), [0xFF, 0x61], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80],
                                  [0xF0, 0x9F, 0x98, 0x80], [0x61, 0xC0, 0xAF, 0x62]]
        for bytes in samples {
            let cString = (bytes + [0]).map { CChar(bitPattern: $0) }
            cString.withUnsafeBufferPointer { pointer in
                #expect(CString.string(pointer.baseAddress!) == String(cString: pointer.baseAddress!), "\(bytes)")
            }
        }
    }
}
