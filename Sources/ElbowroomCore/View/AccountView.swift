
/// One `[accounts.NAME]` as a render shows it: its name, label and view (several accounts side
/// by side; see docs/accounts-and-agents.md).
public struct AccountView: Sendable, Equatable {
    public var name: String
    public var label: String
    /// The provider's word (`Provider.word`): `claude`, `codex`, `plugin:NAME`, ….
    public var provider: String
    public var view: UsageView
    /// Claude Code's status-line input, for the account it came from.
    public var statusLine: StatusLineInput?

    public init(name: String, label: String, provider: String, view: UsageView, statusLine: StatusLineInput? = nil) {
        self.name = name
        self.label = label
        self.provider = provider
        self.view = view
        self.statusLine = statusLine
    }
}
