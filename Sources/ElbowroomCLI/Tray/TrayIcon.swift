import ElbowroomCore
import ElbowroomDBus

/// The tray's icon, drawn here rather than taken from a theme: a ring gauge of the binding
/// window's headroom. The part of the ring still left is in the level's colour, clockwise from
/// twelve o'clock; the part used is a faint grey track. Without numbers (signed out, loading,
/// no limits) the ring is grey all round; stale numbers are drawn at half strength.
///
/// Hosts ask for different sizes (a panel 16-24 px high, HiDPI twice that): every size in
/// `sizes` is drawn, and the host picks. Pixels are ARGB32 in network byte order (A, R, G, B for
/// each pixel, rows top to bottom), straight alpha, as the StatusNotifierItem specification asks.
struct TrayIcon {
    /// Headroom left of the binding window, 0-100; `nil` without numbers.
    var left: Double?
    /// The colour of its level (`[colors.tray]` over the defaults below).
    var color: (UInt8, UInt8, UInt8)
    var stale: Bool

    static let sizes = [16, 22, 24, 32, 48, 64]

    /// The defaults, chosen to read on light and dark panels alike (each at least 3:1 against
    /// either a white or a black panel): green, amber, red.
    static let colors = Palette.Colors(
        ok: .rgb(0x2e, 0xa0, 0x43), warn: .rgb(0xd2, 0x99, 0x22), critical: .rgb(0xe5, 0x34, 0x34),
        stale: .rgb(0x8b, 0x94, 0x9e), dim: .rgb(0x8b, 0x94, 0x9e))

    /// The grey of the used part and of a ring without numbers.
    static let track: (UInt8, UInt8, UInt8, UInt8) = (0x8b, 0x94, 0x9e, 0x70)

    /// What changes the picture: two icons with the same key draw the same pixels.
    var key: String {
        let amount = left.map { String(Int(($0 * 2).rounded())) } ?? "-"
        return "\(amount) \(color.0),\(color.1),\(color.2) \(stale)"
    }

    /// `a(iiay)`: one (width, height, pixels) per size.
    var pixmaps: DBusValue {
        .array(element: "(iiay)", Self.sizes.map { size in
            .structure([.int32(Int32(size)), .int32(Int32(size)), .bytes(pixels(size: size))])
        })
    }

    /// One size's pixels: each pixel sampled 4 × 4 times for smooth edges.
    func pixels(size: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: size * size * 4)
        let s = Double(size)
        let center = s / 2
        let outer = s / 2 - max(0.5, s / 32)
        let inner = outer * 0.52
        let fraction = left.map { min(max($0, 0), 100) / 100 }
        let fill: (Double, Double, Double, Double) = (Double(color.0), Double(color.1), Double(color.2), stale ? 150 : 255)
        let grey = (Double(Self.track.0), Double(Self.track.1), Double(Self.track.2), Double(Self.track.3))
        let n = 4
        for y in 0..<size {
            for x in 0..<size {
                // Straight-alpha average of the samples that fall on the ring.
                var a = 0.0, r = 0.0, g = 0.0, b = 0.0
                for sy in 0..<n {
                    for sx in 0..<n {
                        let px = Double(x) + (Double(sx) + 0.5) / Double(n) - center
                        let py = Double(y) + (Double(sy) + 0.5) / Double(n) - center
                        let d = (px * px + py * py).squareRoot()
                        guard d <= outer, d >= inner else { continue }
                        // The angle clockwise from twelve o'clock, 0..<1 of a turn.
                        var turn = atan2(px, -py) / (2 * Double.pi)
                        if turn < 0 { turn += 1 }
                        let c = fraction.map { turn < $0 } == true ? fill : grey
                        a += c.3
                        r += c.0 * c.3
                        g += c.1 * c.3
                        b += c.2 * c.3
                    }
                }
                guard a > 0 else { continue }
                let i = (y * size + x) * 4
                out[i] = UInt8(min(255, (a / Double(n * n)).rounded()))
                out[i + 1] = UInt8(min(255, (r / a).rounded()))
                out[i + 2] = UInt8(min(255, (g / a).rounded()))
                out[i + 3] = UInt8(min(255, (b / a).rounded()))
            }
        }
        return out
    }
}
