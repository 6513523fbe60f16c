// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
/// A window's recent history as a sparkline, `▁▂▃▄▅▆▇█` from 0 % to 100 % used: the current
/// window instance from its first sample to now, in evenly spaced points. Each point shows the
/// last number observed at or before its time (what was known then); the scale is absolute, so
/// `▁▁▁` is an idle window, not a flat line at any height.
public struct Sparkline: Sendable, Equatable {
    /// One window instance's points, oldest first.
    public var points: HistoryPoints
    /// The time of the last point (the render's now, or the last sample when that is later).
    public var end: Int64

    public static let glyphs: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    public static let defaultPoints = 8

    /// From one window instance's points (oldest first); `nil` with fewer than two, since one
    /// number is not a history.
    public init?(_ points: HistoryPoints, now: Int64) {
        guard points.count >= 2 else { return nil }
        self.points = points
        end = max(now, points[points.count - 1].at)
    }

    /// `points` glyphs (at least 1), the last one at `end`.
    public func render(points: Int) -> String {
        let count = max(1, points)
        let end = self.end
        return self.points.read { samples in
            let start = Double(samples.at(0))
            let span = Double(end) - start
            let last = samples.count - 1
            // As UTF-8, written into the string's own buffer: every glyph is E2 96 81…88
            // (U+2581…U+2588). Appending `Character`s cost a tooltip ~4 k instructions a sparkline.
            return String(unsafeUninitializedCapacity: 3 * count) { bytes in
                var index = 0
                for i in 0..<count {
                    let t = count == 1 ? Double(end) : start + span * Double(i) / Double(count - 1)
                    while index < last && Double(samples.at(index + 1)) <= t { index += 1 }
                    bytes[3 * i] = 0xE2
                    bytes[3 * i + 1] = 0x96
                    bytes[3 * i + 2] = 0x81 &+ UInt8(truncatingIfNeeded: Self.level(samples.used(index)))
                }
                return 3 * count
            }
        }
    }

    /// Which of `glyphs` stands for `percent`.
    static func level(_ percent: Double) -> Int {
        let clamped = percent.isFinite ? min(max(percent, 0), 100) : 0
        // `(clamped / 100 * 7).rounded()`, halves away from zero, found among the halves
        // between the levels in three comparisons (the same number, without a call to `round`
        // and a checked conversion for each glyph; a test holds them equal).
        let scaled = clamped / 100 * 7
        let level: Int
        if scaled >= 3.5 {
            level = scaled >= 5.5 ? (scaled >= 6.5 ? 7 : 6) : (scaled >= 4.5 ? 5 : 4)
        } else {
            level = scaled >= 1.5 ? (scaled >= 2.5 ? 3 : 2) : (scaled >= 0.5 ? 1 : 0)
        }
        return level
    }
}
