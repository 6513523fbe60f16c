// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
/// "Did you mean" for names: the closest candidate within a small edit distance.
public enum Suggest {
    /// The candidate closest to `word` (Levenshtein distance at most 2, or a third of its
    /// length for long words), or `nil`.
    public static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
        let length = word.count
        let limit = max(2, length / 3)
        let lowered = word.lowercased()
        var best: (String, Int)?
        for candidate in candidates {
            // The distance is at least the difference in length: skip the quadratic work for a
            // word that cannot be close (a 60 000-character name must not cost seconds).
            guard abs(candidate.count - length) <= limit else { continue }
            let d = distance(lowered, candidate.lowercased())
            if d <= limit, d < (best?.1 ?? Int.max) { best = (candidate, d) }
        }
        return best?.0
    }

    /// `" (did you mean 'x'?)"` or `""`.
    public static func hint(for word: String, in candidates: some Sequence<String>) -> String {
        closest(to: word, in: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// Levenshtein distance between two strings.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1,
                                 previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
