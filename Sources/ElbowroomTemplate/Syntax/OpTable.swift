// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// A program's ops (`Program.Op`), kept as plain numbers: one word an op, and each styled
/// group's style a word of a table of its own (`StyleWord`).
///
/// Why numbers: an array of a type of the program's own makes the runtime build that array's
/// metadata on first use (the demangler's deepest stack, a few heap and data pages: docs/
/// performance.md), and the ops' style, a type of ElbowroomCore's, kept the compiler from laying
/// a shipped template's ops out in the binary: they were built by code at start-up (5.6 kB of it
/// for the tooltip). `[UInt]`'s metadata is the standard library's, made at build time, and a
/// table of integer literals is data.
///
/// | bits | `.text(k)` | `.placeholder(k)` | `.styled(style, end:)` | `.conditional(end:, …)` |
/// |---|---|---|---|---|
/// | 0–1 | 0 | 1 | 2 | 3 |
/// | 2–31 | `k` | `k` | the style's place in `styles` | bit 2 `eachWindow`, bit 3 `eachAccount` |
/// | 32–63 | | | `end` | `end` |
///
/// A collection of `Program.Op` (decoded as read), for whoever builds or looks at a program.
struct OpTable: Sendable, Equatable, RandomAccessCollection {
    /// Each op as one word.
    var words: [UInt]
    /// Each styled group's style (`StyleWord`), in the order they were set.
    var styles: [UInt]

    init(words: [UInt] = [], styles: [UInt] = []) {
        self.words = words
        self.styles = styles
    }

    var startIndex: Int { 0 }
    var endIndex: Int { words.count }

    subscript(i: Int) -> Program.Op {
        get { Self.op(words[i], styles: styles) }
        set { words[i] = word(newValue) }
    }

    mutating func append(_ op: Program.Op) {
        words.append(word(op))
    }

    mutating func reserveCapacity(_ count: Int) {
        words.reserveCapacity(count)
    }

    /// `op` as a word; a styled group's style joins `styles`.
    private mutating func word(_ op: Program.Op) -> UInt {
        switch op {
        case .text(let k): return UInt(k) << 2
        case .placeholder(let k): return UInt(k) << 2 | 1
        case .styled(let parsed, let end):
            styles.append(StyleWord.word(parsed))
            return UInt(end) << 32 | UInt(styles.count - 1) << 2 | 2
        case .conditional(let end, let eachWindow, let eachAccount):
            return UInt(end) << 32 | (eachAccount ? 8 : 0) | (eachWindow ? 4 : 0) | 3
        }
    }

    /// The op `word` says, its style read from `styles`.
    @inline(__always)
    static func op<Styles: RandomAccessCollection<UInt>>(_ word: UInt, styles: Styles) -> Program.Op
        where Styles.Index == Int {
        switch word & 3 {
        case 0: return .text(Int(word >> 2))
        case 1: return .placeholder(Int(word >> 2))
        case 2: return .styled(StyleWord.parsed(styles[styles.startIndex + Int(word >> 2 & 0x3FFF_FFFF)]), end: Int(word >> 32))
        default: return .conditional(end: Int(word >> 32), eachWindow: word & 4 != 0, eachAccount: word & 8 != 0)
        }
    }
}
