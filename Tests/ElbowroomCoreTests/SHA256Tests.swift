import Testing
@testable import ElbowroomCore

@Suite struct SHA256Tests {
    @Test func theHexPrefixIsTheFirstSixteenDigits() {
        for text in ["", "abc", "/home/u/.claude", String(repeating: "é", count: 70)] {
            #expect(SHA256.hexPrefix(text) == String(SHA256.hex(text).prefix(16)))
        }
    }

    @Test func knownVectors() {
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(String(repeating: "a", count: 1000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
        // Either side of each padding boundary: 55 bytes pad into one block, 56 need two.
        let known = [
            55: "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318",
            56: "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a",
            63: "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34",
            64: "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb",
            119: "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb",
            120: "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c",
        ]
        for (count, digest) in known {
            #expect(SHA256.hex(String(repeating: "a", count: count)) == digest, "\(count) bytes")
        }
    }
}
