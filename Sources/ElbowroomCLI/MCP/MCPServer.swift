import ElbowroomCore

/// The protocol side of `elbowroom mcp`: the Model Context Protocol (revision 2025-06-18) over
/// JSON-RPC 2.0, one message a line. `handle` takes one line and gives the line to answer with
/// (`nil` for a notification, or a response from the client); what the answers hold comes from
/// `report` (the cache, read when asked).
///
/// | method | answer |
/// |---|---|
/// | `initialize` | the client's `protocolVersion` when it is one of `supportedVersions`, else the latest; capabilities `tools` and `resources`; `serverInfo`; `instructions` |
/// | `ping` | `{}` |
/// | `tools/list` | one tool, `get_headroom` (input: optional `account`; `outputSchema` from 2025-06-18 on; read-only) |
/// | `tools/call` | `get_headroom`: the report as text content and, from 2025-06-18 on, as `structuredContent`; an unknown account is a tool error (`isError`) naming the accounts there are |
/// | `resources/list`, `resources/read` | `elbowroom://headroom` (JSON, every account) and `elbowroom://headroom/NAME` (one account) |
/// | `resources/templates/list` | `elbowroom://headroom/{account}` |
/// | `notifications/*` | nothing (no answer to any notification) |
///
/// Errors are JSON-RPC's: -32700 not JSON (or a line over 4 MiB), -32600 not a request (no
/// `"jsonrpc":"2.0"`, an id that is not a string or number, a method that is not a string, a
/// batch under a revision without batches), -32601 an unknown method, -32602 bad params (an unknown
/// tool, an argument of the wrong type or name, an unknown resource), -32002 a resource that is
/// not there. A batch (a JSON array) is answered as one only under 2025-03-26, the one revision
/// that had them.
final class MCPServer {
    /// Newest first; the first is what a client asking for anything else gets.
    static let supportedVersions = ["2025-06-18", "2025-03-26", "2024-11-05"]
    static let latest = supportedVersions[0]
    /// The longest line read (a longer one is answered with a parse error and skipped).
    static let maxLine = 4 << 20

    static let resourceURI = "elbowroom://headroom"
    static let toolName = "get_headroom"

    /// The revision agreed in `initialize` (the latest until then).
    private(set) var version = MCPServer.latest
    private(set) var initialized = false
    /// The report for an account name (`nil`: every account), or the accounts there are when
    /// the name is not one of them.
    let report: (String?) -> Result<UsageReport, UnknownAccount>
    /// The `[accounts.NAME]` names (none without such tables).
    let accountNames: () -> [String]

    /// An account name that is not one of them: the chooser's wording (`Config.accounts(chosenBy:)`).
    struct UnknownAccount: Error {
        var message: String
    }

    init(accountNames: @escaping () -> [String], report: @escaping (String?) -> Result<UsageReport, UnknownAccount>) {
        self.accountNames = accountNames
        self.report = report
    }

    /// A JSON-RPC error.
    struct RPCError: Error {
        var code: Int
        var message: String
        static func parse(_ why: String) -> RPCError { RPCError(code: -32700, message: "parse error: " + why) }
        static func invalidRequest(_ why: String) -> RPCError { RPCError(code: -32600, message: "invalid request: " + why) }
        static func methodNotFound(_ method: String) -> RPCError {
            RPCError(code: -32601, message: "method not found: " + SafeText.clean(method, lines: .join))
        }
        static func invalidParams(_ why: String) -> RPCError { RPCError(code: -32602, message: "invalid params: " + why) }
        static func resourceNotFound(_ uri: String) -> RPCError {
            RPCError(code: -32002, message: "resource not found: " + SafeText.clean(uri, lines: .join))
        }
    }

    // MARK: Messages

    /// The answer to one line, without its newline; `nil` when none is due.
    func handle(line: [UInt8]) -> String? {
        var bytes = line[...]
        while let last = bytes.last, last == 0x0D || last == 0x20 || last == 0x09 { bytes.removeLast() }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return nil }  // a blank line: nothing asked
        let message: JSONDocument
        do {
            message = try JSONDocument.parse(bytes: Array(bytes), grammar: .rfc8259)
        } catch {
            return Self.errorResponse(id: .null, .parse("not JSON (at byte \(error.offset))")).encoded
        }
        if case .array(let batch) = message {
            guard version == "2025-03-26" else {
                return Self.errorResponse(id: .null, .invalidRequest("batches are not part of protocol revision \(version)")).encoded
            }
            guard !batch.isEmpty else { return Self.errorResponse(id: .null, .invalidRequest("an empty batch")).encoded }
            let answers = batch.compactMap(handle(message:))
            return answers.isEmpty ? nil : JSONDocument.array(answers).encoded
        }
        return handle(message: message)?.encoded
    }

    /// The answer to one message (not a batch).
    func handle(message: JSONDocument) -> JSONDocument? {
        guard case .object = message else {
            return Self.errorResponse(id: .null, .invalidRequest("a message is a JSON object"))
        }
        // The id, when it is one a response can carry back.
        var id: JSONDocument?
        switch message["id"] {
        case nil: id = nil
        case .string?, .number?: id = message["id"]
        default: return Self.errorResponse(id: .null, .invalidRequest("an id is a string or a number"))
        }
        guard message["jsonrpc"] == .string("2.0") else {
            return Self.errorResponse(id: id ?? .null, .invalidRequest(#"no "jsonrpc": "2.0""#))
        }
        guard let methodValue = message["method"] else {
            // A response (we send no requests) or nonsense: a response is never answered.
            if id != nil, message["result"] != nil || message["error"] != nil { return nil }
            return Self.errorResponse(id: id ?? .null, .invalidRequest("no method"))
        }
        guard case .string(let method) = methodValue else {
            return Self.errorResponse(id: id ?? .null, .invalidRequest("the method is a string"))
        }
        let params = message["params"] ?? .object([])
        guard let id else {
            if method == "notifications/initialized" { initialized = true }
            return nil  // every notification, known or not, goes unanswered
        }
        guard params.isObject else {
            return Self.errorResponse(id: id, .invalidParams("params is an object"))
        }
        do {
            return .fields([("jsonrpc", .string("2.0")), ("id", id), ("result", try call(method, params: params))])
        } catch {
            return Self.errorResponse(id: id, error)
        }
    }

    static func errorResponse(id: JSONDocument, _ error: RPCError) -> JSONDocument {
        .fields([
            ("jsonrpc", .string("2.0")),
            ("id", id),
            ("error", .fields([("code", .number(error.code)), ("message", .string(error.message))])),
        ])
    }

    // MARK: Methods

    func call(_ method: String, params: JSONDocument) throws(RPCError) -> JSONDocument {
        switch method {
        case "initialize": return try initialize(params)
        case "ping": return .object([])
        case "tools/list": return .fields([("tools", .array([tool]))])
        case "tools/call": return try callTool(params)
        case "resources/list": return try resourcesList()
        case "resources/templates/list":
            return .fields([("resourceTemplates", .array([.fields([
                ("uriTemplate", .string(Self.resourceURI + "/{account}")),
                ("name", .string("headroom-of-account")),
                ("description", .string("the same as elbowroom://headroom, for one [accounts.NAME] of the config")),
                ("mimeType", .string("application/json")),
            ])]))])
        case "resources/read": return try readResource(params)
        default: throw .methodNotFound(method)
        }
    }

    func initialize(_ params: JSONDocument) throws(RPCError) -> JSONDocument {
        guard case .string(let asked)? = params["protocolVersion"] else {
            throw .invalidParams("initialize needs protocolVersion (a string)")
        }
        version = Self.supportedVersions.contains(asked) ? asked : Self.latest
        var info: [(String, JSONDocument)] = [("name", .string("elbowroom"))]
        if version >= "2025-06-18" { info.append(("title", .string("elbowroom: usage headroom"))) }
        info.append(("version", .string(Version.current)))
        return .fields([
            ("protocolVersion", .string(version)),
            ("capabilities", .fields([
                ("tools", .fields([("listChanged", .bool(false))])),
                ("resources", .fields([("subscribe", .bool(false)), ("listChanged", .bool(false))])),
            ])),
            ("serverInfo", .fields(info)),
            ("instructions", .string("""
                Read-only usage headroom of the accounts elbowroom tracks (Claude Code, Codex): each \
                usage window's percent left, when it resets, the burn rate, and a one-line advice. \
                Call get_headroom before starting a long or expensive task, and prefer smaller steps \
                when it says a window is low.
                """)),
        ])
    }

    var tool: JSONDocument {
        var members: [(String, JSONDocument)] = [("name", .string(Self.toolName))]
        if version >= "2025-06-18" { members.append(("title", .string("Usage headroom"))) }
        members += [
            ("description", .string("""
                How much of each usage window (5-hour, weekly, per-model) is left for every account \
                elbowroom tracks, when each resets, the burn rate, and a one-line advice such as \
                "5h window at 8% left, resets in 40m: prefer small tasks". Read-only; from \
                elbowroom's cache, so it costs no quota.
                """)),
            ("inputSchema", .fields([
                ("type", .string("object")),
                ("properties", .fields([
                    ("account", .fields([
                        ("type", .string("string")),
                        ("description", .string("one [accounts.NAME] of elbowroom's config; every account when left out")),
                    ])),
                ])),
                ("additionalProperties", .bool(false)),
            ])),
        ]
        if version >= "2025-06-18" { members.append(("outputSchema", UsageReport.schema)) }
        if version >= "2025-03-26" {
            members.append(("annotations", .fields([
                ("title", .string("Usage headroom")),
                ("readOnlyHint", .bool(true)),
                ("destructiveHint", .bool(false)),
                ("idempotentHint", .bool(true)),
                ("openWorldHint", .bool(false)),
            ])))
        }
        return .fields(members)
    }

    func callTool(_ params: JSONDocument) throws(RPCError) -> JSONDocument {
        guard case .string(let name)? = params["name"] else { throw .invalidParams("tools/call needs name (a string)") }
        guard name == Self.toolName else {
            throw .invalidParams("unknown tool '\(SafeText.clean(name, lines: .join))'; the one tool is \(Self.toolName)")
        }
        var account: String?
        switch params["arguments"] {
        case nil, .null?: break
        case .object(let arguments)?:
            for argument in arguments {
                let (key, value) = (argument.key, argument.value)
                guard key == "account" else {
                    throw .invalidParams("get_headroom takes no argument '\(SafeText.clean(key, lines: .join))' (only account)")
                }
                switch value {
                case .string(let text): account = text
                case .null: break
                default: throw .invalidParams("account is a string")
                }
            }
        default: throw .invalidParams("arguments is an object")
        }
        switch report(account) {
        case .failure(let unknown):
            return .fields([
                ("content", .array([Self.text(unknown.message)])),
                ("isError", .bool(true)),
            ])
        case .success(let report):
            var members: [(String, JSONDocument)] = [("content", .array([Self.text(report.text)]))]
            if version >= "2025-06-18" { members.append(("structuredContent", report.structured)) }
            members.append(("isError", .bool(false)))
            return .fields(members)
        }
    }

    static func text(_ text: String) -> JSONDocument {
        .fields([("type", .string("text")), ("text", .string(text))])
    }

    func resourcesList() throws(RPCError) -> JSONDocument {
        var resources: [JSONDocument] = [resource(uri: Self.resourceURI, name: "headroom", what: "every account")]
        for name in accountNames() {
            resources.append(resource(uri: Self.resourceURI + "/" + name, name: "headroom-" + name, what: "the account " + name))
        }
        return .fields([("resources", .array(resources))])
    }

    private func resource(uri: String, name: String, what: String) -> JSONDocument {
        var members: [(String, JSONDocument)] = [("uri", .string(uri)), ("name", .string(name))]
        if version >= "2025-06-18" { members.append(("title", .string("Usage headroom: " + what))) }
        members += [
            ("description", .string("windows, percent left, resets, burn rate and advice for \(what), as get_headroom's structured result")),
            ("mimeType", .string("application/json")),
        ]
        return .fields(members)
    }

    func readResource(_ params: JSONDocument) throws(RPCError) -> JSONDocument {
        guard case .string(let uri)? = params["uri"] else { throw .invalidParams("resources/read needs uri (a string)") }
        var account: String?
        if uri == Self.resourceURI {
            account = nil
        } else if uri.hasPrefix(Self.resourceURI + "/"), uri.count > Self.resourceURI.count + 1 {
            account = String(uri.dropFirst(Self.resourceURI.count + 1))
        } else {
            throw .resourceNotFound(uri)
        }
        guard case .success(let report) = report(account) else { throw .resourceNotFound(uri) }
        return .fields([("contents", .array([.fields([
            ("uri", .string(uri)),
            ("mimeType", .string("application/json")),
            ("text", .string(report.structured.encoded)),
        ])]))])
    }
}
