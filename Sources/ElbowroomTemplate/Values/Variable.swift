// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// The variables a template can use. This table is the manual: scripts/generate copies it into
/// docs/templates.md and man/elbowroom.5.
///
/// Windows: `5h` (session), `7d` (weekly), `sonnet`, `opus`, any other window by its API key
/// (`seven_day_oauth_apps`, `seven_day_fable`, …), and three that stand for others:
/// - `worst`: the window with the least headroom left — or the limit the API says binds, when no
///   other window is at a worse level;
/// - `other`: the `worst` of the windows this template does not name (so `compact` can add a
///   per-model limit it has never heard of: `( · [{other.label} {other.left}%](level){other.alert})`);
/// - `each`: a conditional group that uses `each.*` is repeated once per window this template
///   does not name, in display order (`full` and `tooltip` list every window the account has).
/// A window the account does not have has no value, so `({opus.left}%)` disappears for it.
///
/// | variable | type | value |
/// |---|---|---|
/// | `W.used` | percent | percent of the window used, `63` (0 once the window has reset) |
/// | `W.left` | percent | headroom left, `100 - used`, `37` |
/// | `W.percent` | percent | `left` or `used`, as `display` in the config says (`left` unless set): the shipped templates show this |
/// | `W.resets_at` | date | when the window resets: `16:40`, or `Thu 09:00` when more than a day away |
/// | `W.resets_in` | duration | time until the reset: `2h13m` |
/// | `W.level` | level | `ok`, `warn` or `critical`, from `[thresholds]` on `left` |
/// | `W.rate` | percent | percent used per hour *now*: a least-squares fit over the last hour of the usage history within the current window (a quiet hour reads 0); no value with fewer than 3 samples or under 10 minutes of them. `{5h.rate\|fixed(1)}%/h` → `12.5%/h` |
/// | `W.spark` | sparkline | the current window's history so far as `▁▂▃▄▅▆▇█` (0…100 % used), 8 points; `spark(n)` for `n`; no value before there are 2 samples |
/// | `W.pace` | percent | projected percent used at the reset (may pass 100): at `rate` when it has a value, else at the window's average rate so far |
/// | `W.eta` | duration | time until 100 % at the same rate as `pace`; no value when it lasts until the reset |
/// | `W.label` | text | `Session`, `Weekly`, `Sonnet`, `Opus`, `OAuth apps`, the API's display name (`Fable`), or the key made readable (`seven_day_fable` → `Fable`): one label whichever shape the API used |
/// | `W.name` | text | the name templates use: `5h`, `7d`, `opus`, or the API key |
/// | `W.short` | text | what a one-line template calls it: `5h`, `7d`, else the label (`Sonnet`, `1h`, `Monthly credit limit`) |
/// | `W.binding` | flag | the API marks this limit as the one that binds now (`is_active` in `limits[]`) |
/// | `W.alert` | flag | the window needs attention: its level is not ok, or it binds |
/// | `W.title` | text | Claude Code's own title for the row: `Current session`, `Current week (all models)`, `Current week (Sonnet only)`, `Current week (Fable)`, `Claude Code and Cowork credit`, `wattle_ember`'s label (or `Credit`) |
/// | `W.source` | text | where this window's number came from: `api` (the usage endpoint), `status_line` (Claude Code's status line), `claude_snapshot` (Claude Code's own stored copy), `session_log` (Codex's session logs), `plugin` (a source plugin), `demo` |
/// | `W.detail` | text | the source's own figures in words, when the percent does not say it all: a Codex credit limit's `259% used, 1,811.97 of 700 credits` (the percent stops at 100), why a workspace is `blocked` |
/// | `W.top` | text | who used most of the current window: a Claude Code session by its project's directory (`app`), or `elsewhere` (no session here spent: another machine, claude.ai), `local` (a Claude Code without a status line), `unknown`; no value before a rise was attributed ([history](history-and-notifications.md#which-session-used-the-window)) |
/// | `W.top_share` | percent | that consumer's share of the points the current window rose while watched |
/// | `W.age` | duration | time since this window's number was observed: `42s` (a status-line number can be newer than the rest) |
/// | `age` | duration | time since the data was fetched: `42s` |
/// | `stale` | flag | the data is older than `stale_after` |
/// | `offline` | flag | the last fetch failed (or is rate limited): showing the last good data |
/// | `status` | text | `ok`, `stale`, `offline`, `rate_limited`, `expired`, `signed_out`, `loading` |
/// | `error` | text | why the status is not ok: `sign in to Claude Code`, `open Claude Code to refresh`, … |
/// | `plan` | text | `pro`, `max`, … when known |
/// | `display` | text | `left` or `used`: what `W.percent` counts (`display` in the config) |
/// | `level` | level | the worst level over all windows, and the spend's when the spend is the account's limit (`ok` without data) |
/// | `account` | text | what the data shows: `subscriber`, `organisation pool`, `spend only`, `gateway`, `no limits`, `blocked` (a Codex workspace that refuses every request) ([accounts](accounts.md)) |
/// | `notice` | text | for an account with data but no window and no spend: `team plan: no limits or spend to show` |
/// | `name` | text | the `[accounts.NAME]` being rendered: `work` (no value without accounts; [several accounts](accounts-and-agents.md)) |
/// | `label` | text | that account's `label`: `W` |
/// | `agent` | text | whose usage it is: `Claude`, `Codex`, or a source plugin's name (`gemini`); the tooltip's first line begins with it |
/// | `NAME:…` | its variable's | any variable of one account: `{work:5h.left}`, `{codex:7d.left}`, `{home:status}` |
/// | `each:…` | its variable's | in a conditional group, the group is repeated for each account in config order: `( {each:label} {each:5h.left}%)` |
/// | `spend.used` | money | spent this period, in the account's currency and minor units: `$41.20`, `€3.10`, `¥1,234` |
/// | `spend.limit` | money | the cap: `$5,000.00`; no value when uncapped |
/// | `spend.left` | money | cap minus spent (not below 0) |
/// | `spend.percent` | percent | percent of the cap spent; may pass 100 (a gateway's `spend_limit`); no value uncapped |
/// | `spend.level` | level | from `[thresholds]` on `100 - percent`: `critical` past 100 or when the API says the limit is reached |
/// | `spend.org` | flag | the spend is the organisation's pool, not yours (a Team seat) |
/// | `spend.capped`, `spend.uncapped` | flag | there is a cap / spending is on without one |
/// | `spend.limit_is_yours` | flag | the spend is the account's limit — the account has no windows, or it is a gateway's `spend_limit` — so it drives `level`, the bar's class and icons |
/// | `spend.period` | text | a gateway's period: `monthly`, … |
/// | `spend.resets_in` | duration | time until a gateway's spend limit resets |
/// | `spend.source` | text | `api` or `status_line` |
/// | `extra.used` | money | extra usage spent this month: `$12.34` |
/// | `extra.limit` | money | the monthly extra-usage limit: `$50.00` |
/// | `extra.left` | money | limit minus spent |
/// | `extra.percent` | percent | percent of the limit spent |
/// | `extra.enabled` | flag | extra usage is switched on |
/// | `claude.model` | text | the model's display name (Claude Code status line only) |
/// | `claude.context` | percent | percent of the context window used (status line only; within 0…100) |
/// | `claude.context_percent` | percent | the context window left or used, as `display` says (so a line has one meaning) |
/// | `claude.cost` | money | the session's cost in USD (status line only; within ±10¹³) |
///
/// `rate`, `spark`, and `pace`/`eta` at the current rate need the usage history, which elbowroom
/// keeps with the cache (one sample a minute per window, see `elbowroom history`); a render reads
/// it only when its template uses one of these four.
///
/// Types format by default as: percent a whole number (`37`), duration compact (`2h13m`,
/// `3d4h`, `45s`), date local `%H:%M` (`%a %H:%M` more than a day away), flag empty text, money
/// in the account's currency (`$12.34`), level its word. A false flag, empty text and a missing
/// window all count as no value.
enum Variable: Sendable, Equatable {
    enum WindowField: String, Sendable, CaseIterable {
        case used, left, resets_at, resets_in, level, pace, eta, label, name, binding, alert, rate, spark
        case title, source, age, percent, detail, short, top, top_share

        /// Fields computed from the usage history (a render reads it only for these).
        var readsHistory: Bool {
            switch self {
            case .pace, .eta, .rate, .spark: true
            default: false
            }
        }
    }
    enum TopField: String, Sendable, CaseIterable {
        case age, stale, offline, status, error, plan, level, account, notice, display, name, label, agent
    }
    enum SpendField: String, Sendable, CaseIterable {
        case used, limit, left, percent, level, org, capped, uncapped, limit_is_yours, period, resets_in, source
    }
    enum ExtraField: String, Sendable, CaseIterable {
        case used, limit, left, percent, enabled
    }
    enum ClaudeField: String, Sendable, CaseIterable {
        case model, context, cost, context_percent
    }

    case window(String, WindowField)
    case top(TopField)
    case extra(ExtraField)
    case spend(SpendField)
    case claude(ClaudeField)

    var type: ValueType {
        switch self {
        case .window(_, let f):
            switch f {
            case .used, .left, .pace, .rate, .percent: .percent
            case .spark: .spark
            case .resets_at: .date
            case .resets_in, .eta: .duration
            case .level: .level
            case .label, .name, .title, .source, .detail, .short, .top: .text
            case .top_share: .percent
            case .binding, .alert: .flag
            case .age: .duration
            }
        case .top(let f):
            switch f {
            case .age: .duration
            case .stale, .offline: .flag
            case .status, .error, .plan, .account, .notice, .display, .name, .label, .agent: .text
            case .level: .level
            }
        case .spend(let f):
            switch f {
            case .used, .limit, .left: .money
            case .percent: .percent
            case .level: .level
            case .org, .capped, .uncapped, .limit_is_yours: .flag
            case .period, .source: .text
            case .resets_in: .duration
            }
        case .extra(let f):
            switch f {
            case .used, .limit, .left: .money
            case .percent: .percent
            case .enabled: .flag
            }
        case .claude(let f):
            switch f {
            case .model: .text
            case .context, .context_percent: .percent
            case .cost: .money
            }
        }
    }

    /// The window this variable reads, for `(level)` styles.
    var windowName: String? {
        if case .window(let name, _) = self { return name }
        return nil
    }

    // MARK: Names

    /// Window names that stand for other windows rather than naming one.
    static let standIns: [String] = ["worst", "other", "each"]

    /// Names a typo is measured against: the aliases, the stand-ins and the API keys elbowroom knows.
    static let knownWindows: [String] = WindowCatalog.aliases.map(\.alias) + standIns + WindowCatalog.knownKeys

    /// Every full name, for did-you-mean.
    static let allNames: [String] = TopField.allCases.map(\.rawValue)
        + ExtraField.allCases.map { "extra." + $0.rawValue }
        + SpendField.allCases.map { "spend." + $0.rawValue }
        + ClaudeField.allCases.map { "claude." + $0.rawValue }
        + (WindowCatalog.aliases.map(\.alias) + standIns).flatMap { w in
            WindowField.allCases.map { "\(w).\($0.rawValue)" }
        }

    static func resolve(_ name: String, at range: SourceRange, reporter: ErrorReporter) throws(TemplateError) -> Variable {
        func unknown(_ candidates: [String]) -> TemplateError {
            reporter.error("unknown variable '\(name)'", at: range,
                           suggestion: Suggest.closest(to: name, in: candidates))
        }
        guard let dot = name.firstIndex(of: ".") else {
            if let top = TopField(rawValue: name) { return .top(top) }
            if name == "extra" || name == "claude" || name == "spend" {
                let example = name == "extra" ? "extra.used" : (name == "spend" ? "spend.used" : "claude.model")
                throw reporter.error("'\(name)' needs a field, such as '\(example)'", at: range, suggestion: example)
            }
            if knownWindows.contains(name) {
                throw reporter.error("'\(name)' is a window; add a field, such as '\(name).left'", at: range,
                                     suggestion: "\(name).left")
            }
            throw unknown(allNames)
        }
        let prefix = String(name[..<dot])
        let field = String(name[name.index(after: dot)...])
        switch prefix {
        case "extra":
            guard let f = ExtraField(rawValue: field) else { throw unknown(allNames.filter { $0.hasPrefix("extra.") }) }
            return .extra(f)
        case "claude":
            guard let f = ClaudeField(rawValue: field) else { throw unknown(allNames.filter { $0.hasPrefix("claude.") }) }
            return .claude(f)
        case "spend":
            guard let f = SpendField(rawValue: field) else { throw unknown(allNames.filter { $0.hasPrefix("spend.") }) }
            return .spend(f)
        default:
            break
        }
        if TopField(rawValue: prefix) != nil { throw unknown(allNames) }
        let fieldNames = WindowField.allCases.map(\.rawValue)
        if !knownWindows.contains(prefix) {
            // A near miss of a known window is a typo; any other lowercase key is an API window
            // this account may or may not have.
            let isKeyShaped = !prefix.isEmpty && prefix.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") }
            let near = knownWindows.map { ($0, Suggest.distance(prefix, $0)) }.filter { $0.1 <= 2 }
                .min { $0.1 < $1.1 }?.0
            if near != nil || !isKeyShaped {
                let fixedField = WindowField(rawValue: field) != nil ? field : (Suggest.closest(to: field, in: fieldNames) ?? "left")
                var windowRange = range
                windowRange.length = prefix.count
                throw reporter.error("unknown window '\(prefix)'", at: windowRange,
                                     suggestion: near.map { "\($0).\(fixedField)" })
            }
        }
        guard let f = WindowField(rawValue: field) else {
            throw reporter.error("unknown variable '\(name)'", at: range,
                                 suggestion: Suggest.closest(to: field, in: fieldNames).map { "\(prefix).\($0)" })
        }
        return .window(prefix, f)
    }

    // MARK: Values

    /// The variable's value in `context`. Reads the view where it is (`context.view.…`, a window
    /// through `RenderContext.read(window:_:)`): a copy of the view, or of a window, retains and
    /// releases every string it holds, and a tooltip asks for some fifty values per account.
    func value(in context: RenderContext) -> Value? {
        switch self {
        case .window(let name, let field):
            return context.read(window: name) { Self.value(of: field, $0, in: context) }
        case .top(let field):
            switch field {
            case .age: return context.view.age.map(Value.duration)
            case .stale: return .flag(context.view.isStale)
            case .offline: return .flag(context.view.isOffline)
            case .status: return .text(context.view.status.rawValue)
            case .error:
                if context.view.waitsForStatusLine && context.statusLine != nil { return .text(UsageView.statusLineSentNoLimits) }
                return context.view.error.map(Value.text)
            case .plan: return context.view.plan.map(Value.text)
            case .level: return .level(context.view.level)
            case .account: return context.view.accountType.map(Value.text)
            case .notice: return context.view.notice.map(Value.text)
            case .display: return .text(context.view.display.rawValue)
            case .name: return context.accountIndex.map { .text(context.accounts[$0].name) }
            case .label: return context.accountIndex.map { .text(context.accounts[$0].label) }
            case .agent: return .text(context.view.agent)
            }
        case .spend(let field):
            guard let spend = context.view.spend else { return nil }
            func money(_ minor: Double) -> Value { .money(minor: minor, currency: spend.currency, exponent: spend.exponent) }
            switch field {
            case .used: return spend.usedMinor.map(money)
            case .limit: return spend.limitMinor.flatMap { $0 > 0 ? money($0) : nil }
            case .left:
                guard let limit = spend.limitMinor, limit > 0 else { return nil }
                return money(max(0, limit - (spend.usedMinor ?? 0)))
            case .percent: return spend.percent.map(Value.percent)
            case .level: return .level(spend.level)
            case .org: return .flag(spend.organisation)
            case .capped: return .flag(spend.percent != nil)
            case .uncapped: return .flag(spend.percent == nil)
            case .limit_is_yours: return .flag(spend.isLimit)
            case .period: return spend.period.map(Value.text)
            case .resets_in: return spend.resetsAt.map { .duration($0.timeIntervalSince(context.view.now)) }
            case .source: return .text(spend.source.rawValue)
            }
        case .extra(let field):
            guard let extra = context.view.extra else { return nil }
            // Unknown is unknown: without a currency from the API, amounts show without a symbol.
            let currency = extra.currency ?? ""
            let exponent = extra.minorDigits
            switch field {
            case .used: return extra.usedMinor.map { .money(minor: $0, currency: currency, exponent: exponent) }
            case .limit: return extra.monthlyLimitMinor.map { .money(minor: $0, currency: currency, exponent: exponent) }
            case .left:
                guard let limit = extra.monthlyLimitMinor else { return nil }
                return .money(minor: max(0, limit - (extra.usedMinor ?? 0)), currency: currency, exponent: exponent)
            case .percent:
                if let u = extra.utilization { return .percent(u) }
                guard let limit = extra.monthlyLimitMinor, limit > 0, let used = extra.usedMinor else { return nil }
                return .percent(used / limit * 100)
            case .enabled: return .flag(extra.isEnabled ?? false)
            }
        case .claude(let field):
            guard let input = context.statusLine else { return nil }
            switch field {
            case .model: return input.modelName.map(Value.text)
            case .context: return input.contextUsedPercent.map(Value.percent)
            case .context_percent:
                return input.contextUsedPercent.map { .percent(context.view.display == .used ? $0 : 100 - $0) }
            case .cost: return input.costUSD.map { .money(minor: $0 * 100, currency: "USD", exponent: 2) }
            }
        }
    }

    /// `field` of the window `window` points to (read field by field, never copied whole).
    private static func value(of field: WindowField, _ window: UnsafePointer<WindowView>, in context: RenderContext) -> Value? {
        switch field {
        case .used: return .percent(window.pointee.used)
        case .left: return .percent(window.pointee.left)
        case .percent: return .percent(context.view.display == .used ? window.pointee.used : window.pointee.left)
        case .resets_at: return window.pointee.resetsAt.map(Value.date)
        case .resets_in: return window.pointee.resetsIn.map(Value.duration)
        case .level: return .level(window.pointee.level)
        case .pace: return window.pointee.pace.map(Value.percent)
        case .eta: return window.pointee.eta.map(Value.duration)
        case .label: return .text(window.pointee.label)
        case .name: return .text(window.pointee.name)
        case .binding: return .flag(window.pointee.binding)
        case .alert: return .flag(window.pointee.needsAttention)
        case .rate: return window.pointee.rate.map(Value.percent)
        case .spark: return window.pointee.spark.map(Value.spark)
        case .title: return .text(window.pointee.title)
        case .source: return .text(window.pointee.source.rawValue)
        case .detail: return window.pointee.detail.map { .text($0) }
        case .short: return .text(window.pointee.short)
        case .age: return .duration(window.pointee.age(now: context.view.now))
        case .top: return context.view.topConsumer(of: window.pointee).map { .text($0.label) }
        case .top_share: return context.view.topConsumer(of: window.pointee).map { .percent($0.share) }
        }
    }
}
