// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
/// SHA-256 (FIPS 180-4). Used for names, not secrets: Claude Code's Keychain service suffix and
/// the per-account cache file name are both derived from the config directory path.
///
/// It runs on every render (the cache file's name), so it allocates only the result: the
/// message read where the string holds it, state in locals, the schedule in stack memory, the
/// round constants a tuple laid out in the binary, eight rounds unrolled a turn.
/// (Arrays of `UInt32` and a `flatMap` cost a render ~20 k instructions, most of it runtime
/// metadata on first use.)
public enum SHA256 {
    /// The digest as 64 lowercase hex digits.
    public static func hex(_ text: String) -> String {
        var text = text
        return text.withUTF8 { hex(digest($0), words: 8) }
    }

    /// The first 16 hex digits of the digest (`String(hex(text).prefix(16))`): what names an
    /// account's files, on every render.
    public static func hexPrefix(_ text: String) -> String {
        // The string's own bytes (`withUTF8`), not an array of them.
        var text = text
        return text.withUTF8 { hex(digest($0), words: 2) }
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
    static func digest(_ m: UnsafeBufferPointer<UInt8>) -> (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) {
        var h0: UInt32 = 0x6a09e667, h1: UInt32 = 0xbb67ae85, h2: UInt32 = 0x3c6ef372, h3: UInt32 = 0xa54ff53a
        var h4: UInt32 = 0x510e527f, h5: UInt32 = 0x9b05688c, h6: UInt32 = 0x1f83d9ab, h7: UInt32 = 0x5be0cd19
        // Padding: 0x80, zeros to 56 mod 64, then the length in bits, big-endian.
        let paddedCount = (m.count + 8) / 64 * 64 + 64
        let bitLength = UInt64(m.count) * 8
        // Each chunk is laid out in `block` first (the message's bytes, then the padding's),
        // not asked for byte by byte: a test of where each byte comes from cost a digest ~1.5 k
        // instructions.
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 128) { words in
            let w = UnsafeMutableBufferPointer(rebasing: words[0..<64])
            let kw = UnsafeMutableBufferPointer(rebasing: words[64..<128])
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { block in
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
                    // Each round's constant added to its word now (`kw`, what the round adds).
                    withUnsafeBytes(of: Self.roundConstants) { k in
                        for i in 0..<64 { kw[i] = w[i] &+ k.load(fromByteOffset: i * 4, as: UInt32.self) }
                    }
                    var (a, b, c, d, e, f, g, h) = (h0, h1, h2, h3, h4, h5, h6, h7)
                    // Eight rounds a turn, each writing the two words that change in place (the
                    // other six only change names): no moving of all eight words every round.
                    for i in stride(from: 0, to: 64, by: 8) {
                        round(a, b, c, &d, e, f, g, &h, kw[i])
                        round(h, a, b, &c, d, e, f, &g, kw[i + 1])
                        round(g, h, a, &b, c, d, e, &f, kw[i + 2])
                        round(f, g, h, &a, b, c, d, &e, kw[i + 3])
                        round(e, f, g, &h, a, b, c, &d, kw[i + 4])
                        round(d, e, f, &g, h, a, b, &c, kw[i + 5])
                        round(c, d, e, &f, g, h, a, &b, kw[i + 6])
                        round(b, c, d, &e, f, g, h, &a, kw[i + 7])
                    }
                    h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d; h4 &+= e; h5 &+= f; h6 &+= g; h7 &+= h
                }
            }
        }
        return (h0, h1, h2, h3, h4, h5, h6, h7)
    }

    /// One round: `d` gets the new `e`, `h` the new `a`; `kw` is the round's constant plus its
    /// schedule word.
    @inline(__always)
    private static func round(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32,
                              _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32, _ kw: UInt32) {
        let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
        let ch = (e & f) ^ (~e & g)
        let t1 = h &+ s1 &+ ch &+ kw
        let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
        let maj = (a & b) ^ (a & c) ^ (b & c)
        d &+= t1
        h = t1 &+ s0 &+ maj
    }

    private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }

    /// The round constants: the first 32 bits of the fractional parts of the cube roots of the
    /// first 64 primes. A tuple of literals, which the compiler lays out in the binary (no
    /// array: no runtime metadata, no allocation); read through its bytes.
    private static let roundConstants: (
        UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
        UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
        UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
        UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32
    ) = (
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
    )
}
