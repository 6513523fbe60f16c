// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
/// SHA-256 (FIPS 180-4). Used for names, not secrets: Claude Code's Keychain service suffix and
/// the per-account cache file name are both derived from the config directory path.
///
/// It runs on every render (the cache file's name), so it allocates only the message's bytes
/// and the result: state in locals, the schedule in stack memory, the round constants in a `switch` the
/// compiler makes a table of. (Arrays of `UInt32` and a `flatMap` cost a render ~20 k
/// instructions, most of it runtime metadata on first use.)
public enum SHA256 {
    /// The digest as 64 lowercase hex digits.
    public static func hex(_ text: String) -> String {
        hex(digest(Array(text.utf8)), words: 8)
    }

    /// The first 16 hex digits of the digest (`String(hex(text).prefix(16))`): what names an
    /// account's files, on every render.
    public static func hexPrefix(_ text: String) -> String {
        hex(digest(Array(text.utf8)), words: 2)
    }

    /// The first `words` state words as lowercase hex, written into the string's own storage.
    private static func hex(_ h: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32), words: Int) -> String {
        String(unsafeUninitializedCapacity: words * 8) { out in
            for i in 0..<words {
                let word = i == 0 ? h.0 : i == 1 ? h.1 : i == 2 ? h.2 : i == 3 ? h.3 : i == 4 ? h.4 : i == 5 ? h.5 : i == 6 ? h.6 : h.7
                for j in 0..<8 {
                    let nibble = UInt8(truncatingIfNeeded: word >> UInt32(28 - 4 * j)) & 0x0f
                    out[i * 8 + j] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
                }
            }
            return words * 8
        }
    }

    /// The eight state words after the whole (padded) message, most significant first.
    static func digest(_ message: [UInt8]) -> (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) {
        var h0: UInt32 = 0x6a09e667, h1: UInt32 = 0xbb67ae85, h2: UInt32 = 0x3c6ef372, h3: UInt32 = 0xa54ff53a
        var h4: UInt32 = 0x510e527f, h5: UInt32 = 0x9b05688c, h6: UInt32 = 0x1f83d9ab, h7: UInt32 = 0x5be0cd19
        // Padding: 0x80, zeros to 56 mod 64, then the length in bits, big-endian.
        let paddedCount = (message.count + 8) / 64 * 64 + 64
        let bitLength = UInt64(message.count) * 8
        // Each chunk is laid out in `block` first (the message's bytes, then the padding's),
        // not asked for byte by byte: a test of where each byte comes from cost a digest ~1.5 k
        // instructions.
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { block in
                message.withUnsafeBufferPointer { m in
                    for chunk in stride(from: 0, to: paddedCount, by: 64) {
                        let available = max(0, min(64, m.count - chunk))
                        for i in 0..<available { block[i] = m[chunk + i] }
                        for i in available..<64 { block[i] = 0 }
                        if m.count >= chunk && m.count < chunk + 64 { block[m.count - chunk] = 0x80 }
                        if chunk + 64 == paddedCount {
                            for i in 0..<8 { block[56 + i] = UInt8(truncatingIfNeeded: bitLength >> UInt64(56 - 8 * i)) }
                        }
                        for i in 0..<16 {
                            w[i] = UInt32(block[i * 4]) << 24 | UInt32(block[i * 4 + 1]) << 16
                                | UInt32(block[i * 4 + 2]) << 8 | UInt32(block[i * 4 + 3])
                        }
                        for i in 16..<64 {
                            let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
                            let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
                            w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
                        }
                        var (a, b, c, d, e, f, g, hh) = (h0, h1, h2, h3, h4, h5, h6, h7)
                        for i in 0..<64 {
                            let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                            let ch = (e & f) ^ (~e & g)
                            let t1 = hh &+ s1 &+ ch &+ k(i) &+ w[i]
                            let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                            let maj = (a & b) ^ (a & c) ^ (b & c)
                            let t2 = s0 &+ maj
                            (hh, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
                        }
                        h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d; h4 &+= e; h5 &+= f; h6 &+= g; h7 &+= hh
                    }
                }
            }
        }
        return (h0, h1, h2, h3, h4, h5, h6, h7)
    }

    private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }

    /// The round constants: the first 32 bits of the fractional parts of the cube roots of the
    /// first 64 primes.
    @inline(__always)  // (a table the round reads, not a call in each of 64 rounds)
    private static func k(_ i: Int) -> UInt32 {
        switch i {
        case 0: 0x428a2f98
        case 1: 0x71374491
        case 2: 0xb5c0fbcf
        case 3: 0xe9b5dba5
        case 4: 0x3956c25b
        case 5: 0x59f111f1
        case 6: 0x923f82a4
        case 7: 0xab1c5ed5
        case 8: 0xd807aa98
        case 9: 0x12835b01
        case 10: 0x243185be
        case 11: 0x550c7dc3
        case 12: 0x72be5d74
        case 13: 0x80deb1fe
        case 14: 0x9bdc06a7
        case 15: 0xc19bf174
        case 16: 0xe49b69c1
        case 17: 0xefbe4786
        case 18: 0x0fc19dc6
        case 19: 0x240ca1cc
        case 20: 0x2de92c6f
        case 21: 0x4a7484aa
        case 22: 0x5cb0a9dc
        case 23: 0x76f988da
        case 24: 0x983e5152
        case 25: 0xa831c66d
        case 26: 0xb00327c8
        case 27: 0xbf597fc7
        case 28: 0xc6e00bf3
        case 29: 0xd5a79147
        case 30: 0x06ca6351
        case 31: 0x14292967
        case 32: 0x27b70a85
        case 33: 0x2e1b2138
        case 34: 0x4d2c6dfc
        case 35: 0x53380d13
        case 36: 0x650a7354
        case 37: 0x766a0abb
        case 38: 0x81c2c92e
        case 39: 0x92722c85
        case 40: 0xa2bfe8a1
        case 41: 0xa81a664b
        case 42: 0xc24b8b70
        case 43: 0xc76c51a3
        case 44: 0xd192e819
        case 45: 0xd6990624
        case 46: 0xf40e3585
        case 47: 0x106aa070
        case 48: 0x19a4c116
        case 49: 0x1e376c08
        case 50: 0x2748774c
        case 51: 0x34b0bcb5
        case 52: 0x391c0cb3
        case 53: 0x4ed8aa4a
        case 54: 0x5b9cca4f
        case 55: 0x682e6ff3
        case 56: 0x748f82ee
        case 57: 0x78a5636f
        case 58: 0x84c87814
        case 59: 0x8cc70208
        case 60: 0x90befffa
        case 61: 0xa4506ceb
        case 62: 0xbef9a3f7
        case 63: 0xc67178f2
        default: 0
        }
    }
}
