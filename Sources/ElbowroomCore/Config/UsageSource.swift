// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
/// Where usage numbers come from (`source` in the config).
public enum UsageSource: String, Sendable, CaseIterable {
    /// Claude Code's login and Anthropic's usage endpoint, through `elbowroom-fetch` (the default):
    /// every window, fresh whenever something renders.
    case api
    /// Only what Claude Code hands its status line (`rate_limits`): elbowroom never reads the
    /// credentials, never starts the fetcher and never touches the network. The 5-hour and weekly
    /// windows only, fresh only while Claude Code runs with `elbowroom -a claude` as its status line.
    case statusLine = "statusline"

    /// Whether elbowroom may read credentials, start `elbowroom-fetch` or use the network.
    public var mayFetch: Bool { self == .api }

    /// Whether the account `paths` names may be fetched: `statusline` is about Claude's login
    /// (Claude Code's status line brings its data); another provider's account still fetches.
    public func mayFetch(_ paths: Paths) -> Bool { mayFetch || paths.provider != .claude }
}

extension UsageSource {
    /// Why nothing fetches in `statusline` mode (for `fetch`, the fetcher and `doctor`).
    public static let statusLineRefusal =
        "source = \"statusline\" in the config: elbowroom never reads the Claude login or touches the network"
}
