import ElbowroomCore

/// `elbowroom mcp`: an MCP server on stdin/stdout for agents that speak MCP (Claude Code, Codex,
/// OpenCode, Cursor, Gemini CLI, …): the tool `get_headroom` and the resource
/// `elbowroom://headroom` (the protocol is `MCPServer`'s, the answer `UsageReport`'s).
///
/// Read-only, from the cache: an answer reads each account's cache file (and usage history for
/// the burn rate) and, as a render does, starts a fetch in the background when one is due (not
/// again within 15 s of starting one, and at most `SpawnBudget.perPass` an answer: `serve`'s pass,
/// `[WatchedAccount].read`); only when an account has never had
/// data does it wait for that fetch (at most 2 s). A token never reaches an answer: the fetcher
/// alone reads credentials. Runs until stdin closes; nothing but protocol goes to stdout (notes on
/// stderr, which MCP clients keep as the server's log).
enum MCPCommand {
    static func run(_ invocation: Invocation, context: CLIContext) -> Int32 {
        let config: Config
        do {
            config = try Config.load(paths: context.paths)
        } catch {
            context.stderr.write("elbowroom: \(error.description)\n")
            return 2
        }
        signal(SIGPIPE, SIG_IGN)
        let source = UsageReportSource(context: context, config: config, offline: invocation.offline)
        let server = MCPServer(accountNames: { config.accounts.map(\.name) }, report: source.report)
        context.stderr.write("elbowroom: mcp: serving get_headroom on stdin/stdout (MCP \(MCPServer.latest)); it ends when stdin closes\n")
        var reader = LineReader(fd: context.stdinFD, limit: MCPServer.maxLine)
        while let line = reader.next() {
            let answer: String?
            switch line {
            case .line(let bytes): answer = server.handle(line: bytes)
            case .tooLong:
                answer = MCPServer.errorResponse(id: .null, .parse("a message longer than \(MCPServer.maxLine >> 20) MiB")).encoded
            }
            if let answer, !context.stdout.write(answer + "\n") { break }
        }
        return 0
    }

    /// Lines of a descriptor, each without its newline; one longer than `limit` is skipped up to
    /// its newline and reported once. A last line without a newline counts.
    struct LineReader {
        enum Item { case line([UInt8]), tooLong }
        let fd: Int32
        let limit: Int
        private var buffer: [UInt8] = []
        private var skipping = false
        private var ended = false

        init(fd: Int32, limit: Int) {
            self.fd = fd
            self.limit = limit
        }

        mutating func next() -> Item? {
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                if let newline = buffer.firstIndex(of: 0x0A) {
                    let line = Array(buffer[..<newline])
                    buffer.removeSubrange(...newline)
                    if skipping { skipping = false; continue }
                    return .line(line)
                }
                if buffer.count > limit {
                    buffer.removeAll()
                    if !skipping { skipping = true; return .tooLong }
                }
                if ended {
                    guard !buffer.isEmpty, !skipping else { return nil }
                    defer { buffer.removeAll() }
                    return .line(buffer)
                }
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { ended = true; continue }
                buffer.append(contentsOf: chunk[0..<n])
            }
        }
    }
}

/// Each account's view from its cache, for `MCPServer`; fetches started as a render starts them.
final class UsageReportSource: @unchecked Sendable {
    let context: CLIContext
    let config: Config
    let offline: Bool
    private var lastSpawn: Date?

    init(context: CLIContext, config: Config, offline: Bool) {
        self.context = context
        self.config = config
        self.offline = offline
    }

    func report(_ account: String?) -> Result<UsageReport, MCPServer.UnknownAccount> {
        let now = context.now()
        // The one chooser; to an agent the environment's own account (no tables) is "default".
        let selection: AccountSelection
        do {
            selection = try AccountSelection(choosing: config.accounts.isEmpty && account == "default" ? nil : account,
                                             config: config, context: context)
        } catch {
            return .failure(.init(message: error.message))
        }
        let mayStart = !offline && (lastSpawn.map { now.timeIntervalSince($0) >= WatchedAccount.respawnGuard } ?? true)
        var accounts = selection.parts.map { WatchedAccount($0, config: config) }
        if accounts.read(mayStart: mayStart, waitForFirstRun: true, history: true).started { lastSpawn = now }
        let parts = accounts.map { part in
            let provider = part.context.paths.provider
            let view = UsageView(cache: part.cache, now: context.now(), config: config, history: part.history, provider: provider)
            return UsageReport.Part(name: part.account?.name ?? "default", label: part.account?.label ?? provider.agent,
                                    provider: provider, view: view)
        }
        return .success(UsageReport(now: context.now(), parts: parts, home: context.environment.home))
    }
}
