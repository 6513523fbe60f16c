/// `{W.top}` and `{W.top_share}`: who used most of a window's current instance, from the
/// attribution state the cache already holds (`AttributionState`) — worked out only when a
/// template asks; a render never reads the attribution log.
extension UsageView {
    public func topConsumer(of window: WindowView) -> (label: String, share: Double)? {
        guard let attribution, !window.hasReset else { return nil }
        let state = AttributionState(text: attribution)
        let reset = window.resetsAt.map { Int64($0.timeIntervalSince1970.rounded(.down)) }
        guard let top = state.top(key: window.key, resetsAt: reset) else { return nil }
        return (state.label(top.who), top.share)
    }
}
