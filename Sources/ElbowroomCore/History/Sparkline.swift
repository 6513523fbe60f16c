// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
/// A window's recent history as a sparkline, `▁▂▃▄▅▆▇█` from 0 % to 100 % used: the current
/// window instance from its first sample to now, in evenly spaced points. Each point shows the
/// last number observed at or before its time (what was known then); the scale is absolute, so
/// `▁▁▁` is an idle window, not a flat line at any height.
public struct Sparkline: Sendable, Equatable {
    /// One window instance's points, oldest first.
    public var points: ArraySlice<HistoryPoint>
    /// The time of the last point (the render's now, or the last sample when that is later).
    public var end: Int64

    public static let glyphs: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    public static let defaultPoints = 8

    /// From one window instance's points (oldest first); `nil` with fewer than two, since one
    /// number is not a history.
    public init?(_ points: ArraySlice<HistoryPoint>, now: Int64) {
        guard points.count >= 2 else { return nil }
        self.points = points
        end = max(now, points[points.endIndex - 1].at)
    }

    /// `points` glyphs (at least 1), the last one at `end`.
    public func render(points: Int) -> String {
        let count = max(1, points)
        let samples = self.points
        let start = Double(samples[samples.startIndex].at)
        let span = Double(end) - start
        // As UTF-8, written into the string's own buffer: every glyph is E2 96 81…88
        // (U+2581…U+2588). Appending `Character`s cost a tooltip ~4 k instructions a sparkline.
        return String(unsafeUninitializedCapacity: 3 * count) { bytes in
            var index = samples.startIndex
            for i in 0..<count {
                let t = count == 1 ? Double(end) : start + span * Double(i) / Double(count - 1)
                while index + 1 < samples.endIndex && Double(samples[index + 1].at) <= t { index += 1 }
                bytes[3 * i] = 0xE2
                bytes[3 * i + 1] = 0x96
                bytes[3 * i + 2] = 0x81 + UInt8(Self.level(samples[index].used))
            }
            return 3 * count
        }
    }

    /// Which of `glyphs` stands for `percent`.
    static func level(_ percent: Double) -> Int {
        let clamped = percent.isFinite ? min(max(percent, 0), 100) : 0
        return Int((clamped / 100 * Double(glyphs.count - 1)).rounded())
    }
}
