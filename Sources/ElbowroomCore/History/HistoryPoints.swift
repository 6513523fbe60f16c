// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
/// Points of one window instance, oldest first (`UsageHistory.instance(of:)`), as a
/// `UsageHistory` keeps them: two numbers a point in an array of `Int64` — its time, then its
/// percent's bits. Not an array of `HistoryPoint`: an array of a type of its own costs a render
/// the runtime's metadata for it (~8 k instructions), and a render already has arrays of `Int64`.
public struct HistoryPoints: Sendable, Equatable {
    /// Time, percent's bits, time, percent's bits, …
    var numbers: ArraySlice<Int64>

    public init(_ points: [HistoryPoint]) {
        numbers = []
        numbers.reserveCapacity(2 * points.count)
        for point in points { append(point) }
    }

    init(numbers: ArraySlice<Int64>) {
        self.numbers = numbers
    }

    public var count: Int { numbers.count / 2 }
    public var isEmpty: Bool { numbers.isEmpty }

    /// Point `index` (from 0).
    public subscript(index: Int) -> HistoryPoint {
        let k = numbers.startIndex + 2 * index
        return HistoryPoint(at: numbers[k], used: Self.percent(numbers[k + 1]))
    }

    public var last: HistoryPoint? { isEmpty ? nil : self[count - 1] }

    /// Every point, as an array (for tests and tools: a render reads them in place).
    public var array: [HistoryPoint] { (0..<count).map { self[$0] } }

    mutating func append(_ point: HistoryPoint) {
        numbers.append(point.at)
        numbers.append(Self.bits(point.used))
    }

    mutating func reserveCapacity(_ points: Int) {
        numbers.reserveCapacity(2 * points)
    }

    /// Calls `body` with the points in place (`Reader`).
    func read<R>(_ body: (Reader) -> R) -> R {
        numbers.withUnsafeBufferPointer { body(Reader(numbers: $0)) }
    }

    /// The points in place, by index from 0, with no bounds check (the loops of `BurnRate` and
    /// `Sparkline` stay within `count`).
    struct Reader {
        let numbers: UnsafeBufferPointer<Int64>
        var count: Int { numbers.count / 2 }
        func at(_ index: Int) -> Int64 { numbers[2 * index] }
        func used(_ index: Int) -> Double { HistoryPoints.percent(numbers[2 * index + 1]) }
    }

    static func bits(_ percent: Double) -> Int64 { Int64(bitPattern: percent.bitPattern) }
    static func percent(_ bits: Int64) -> Double { Double(bitPattern: UInt64(bitPattern: bits)) }
}
