// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
/// How many fetchers one pass over several accounts may start: a render, one `serve` or MCP
/// answer, one `watch` or `tray` tick. With many accounts due at once (a thousand after a night asleep) a render starts
/// `perPass` and leaves the rest to later passes: a fetch running holds its account's lock and
/// is not started again, so each pass reaches the next due accounts, in config order.
final class SpawnBudget {
    static let perPass = 4
    private(set) var left: Int

    init(_ count: Int = SpawnBudget.perPass) {
        left = count
    }

    /// Takes one start, or says there is none left.
    func take() -> Bool {
        guard left > 0 else { return false }
        left -= 1
        return true
    }
}
