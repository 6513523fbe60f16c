// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
extension Array where Element == String {
    /// The strings one after another, `separator` between them: `joined(separator:)` without the
    /// standard library's generic path, whose first use in a process looks up protocol
    /// conformances at run time (about 0.15 M instructions, on every render).
    public func concatenated(separator: String = "") -> String {
        var out = ""
        for i in indices {
            if i > startIndex { out += separator }
            out += self[i]
        }
        return out
    }
}
