// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// Everything a render reads: the view, the status-line input and the clock's time zone.
struct RenderContext: Sendable {
    var view: UsageView
    var statusLine: StatusLineInput?
    var localTime: LocalTime
    /// API keys of the windows the template names itself (not `worst`, `other`, `each`).
    var namedKeys: [String] = []
    /// The window an `each` group is being rendered for.
    var each: WindowView?
    /// Every account, for `{NAME:…}` and `{each:…}` (empty with one account).
    var accounts: [AccountView] = []
    /// Which of `accounts` is being rendered (for `{name}` and `{label}`), when there are
    /// accounts. (Indices, not the accounts: a context is copied for every group, and every
    /// render of one account would pay for copying two views.)
    var accountIndex: Int?
    /// Which of `accounts` an `{each:…}` group is being rendered for.
    var eachAccountIndex: Int?
    /// The template names accounts: only then does a render look for them (a walk per group).
    var namesAccounts = false

    var account: AccountView? { accountIndex.map { accounts[$0] } }

    /// The context for account `name` (`each`: the one a group is repeated for), or `nil`.
    func forAccount(_ name: String) -> RenderContext? {
        if name == "each" { return eachAccountIndex.map { Self(accountAt: $0, of: accounts, localTime: localTime) } }
        for i in accounts.indices where accounts[i].name == name { return Self(accountAt: i, of: accounts, localTime: localTime) }
        return nil
    }

    init(view: UsageView, statusLine: StatusLineInput?, localTime: LocalTime, namedKeys: [String] = []) {
        self.view = view
        self.statusLine = statusLine
        self.localTime = localTime
        self.namedKeys = namedKeys
    }

    init(accountAt index: Int, of accounts: [AccountView], localTime: LocalTime) {
        self.init(view: accounts[index].view, statusLine: accounts[index].statusLine, localTime: localTime)
        self.accounts = accounts
        accountIndex = index
    }

    /// The windows the template does not name, for `other` and `each`: of those a line shows
    /// by default (`UsageView.rows`: what Claude Code's `/usage` shows, and any that needs attention).
    var unnamedWindows: [WindowView] { view.rows.filter { !namedKeys.contains($0.key) } }

    /// A window by template name: the one place the stand-ins (`Variable.standIns`) are resolved.
    /// (Not inlined: `other` works out the unnamed windows, which made every caller's stack frame
    /// larger, a placeholder's among them.)
    @inline(never)
    func window(named name: String) -> WindowView? {
        switch name {
        case "worst": view.worst
        case "each": each
        case "other": UsageView.worst(of: unnamedWindows)
        default: view.window(named: name)
        }
    }

    /// `read` of the window `name` names (as `window(named:)`), lent as a pointer: a window of
    /// the view's own is read where it is in the view's array, field by field. Lent as a value,
    /// to a function or a closure, each read was a copy of the window (a retain and a release of
    /// each of its strings; a tooltip reads a window some fifty times).
    /// (Inlined: a closure that captures the context, called from a function of its own, cost a
    /// copy of the whole context per read.)
    @inline(__always)
    func read<Result>(window name: String, _ read: (UnsafePointer<WindowView>) -> Result?) -> Result? {
        switch name {
        case "worst", "each", "other":
            guard let window = window(named: name) else { return nil }
            return withUnsafePointer(to: window) { read($0) }
        default:
            let key = WindowCatalog.key(forName: name)
            return view.windows.withUnsafeBufferPointer { windows in
                guard let base = windows.baseAddress else { return nil }
                for i in 0..<windows.count where base[i].key == key { return read(base + i) }
                return nil
            }
        }
    }
}

/// Walks the tree into styled spans.
enum Renderer {
    static func render(_ program: Program, context: RenderContext) -> [Span] {
        var spans: [Span] = []
        // Room at once for about as many spans as a render makes (most texts and placeholders
        // merge into the span before them: a tooltip's 113 make some 40): grown a doubling at a
        // time, each growth copied the spans so far, ~2.5 k instructions a tooltip; room for one
        // each was three heap pages more with three accounts.
        spans.reserveCapacity((program.texts.count + program.slots.count) / 3 + 8)
        program.ops.words.withUnsafeBufferPointer { ops in
            program.ops.styles.withUnsafeBufferPointer { styles in
                program.texts.withUnsafeBufferPointer { texts in
                    program.slots.withUnsafeBufferPointer { slots in
                        program.filters.withUnsafeBufferPointer { filters in
                            let walk = Walk(ops: ops, styles: styles, texts: texts, slots: slots, filters: filters)
                            _ = render(walk, 0..<ops.count, style: .plain, context: context, into: &spans,
                                       stopAtMissing: false, eachFree: false)
                        }
                    }
                }
            }
        }
        trimSeparators(&spans, keepingStart: program.startsWithSeparator, keepingEnd: program.endsWithSeparator)
        return spans
    }

    /// A program's tables, read where they are for one render: an element is lent, not copied.
    struct Walk {
        /// `OpTable`'s words and styles.
        let ops: UnsafeBufferPointer<UInt>
        let styles: UnsafeBufferPointer<UInt>
        let texts: UnsafeBufferPointer<String>
        let slots: UnsafeBufferPointer<Program.Slot>
        let filters: UnsafeBufferPointer<Filter>

        /// Op `i`, read from its word.
        @inline(__always)
        func op(_ i: Int) -> Program.Op { OpTable.op(ops[i], styles: styles) }
    }

    /// The separator the shipped templates put between parts.
    static let separator: StaticString = " · "

    /// A line never starts or ends with the separator when the part before or after it is
    /// missing (an account without the session window, say): the separator goes too. One the
    /// template itself starts or ends with, as text of its own, stays (`keepingStart`/`keepingEnd`).
    static func trimSeparators(_ spans: inout [Span], keepingStart: Bool = false, keepingEnd: Bool = false) {
        let length = separator.utf8CodeUnitCount
        if !keepingStart, let first = spans.first, startsWithSeparator(first.text) {
            let end = first.text.utf8.index(first.text.utf8.startIndex, offsetBy: length)
            spans[0].text.removeSubrange(..<end)
            if spans[0].text.isEmpty { spans.removeFirst() }
        }
        if !keepingEnd, let last = spans.last, endsWithSeparator(last.text) {
            let start = last.text.utf8.index(last.text.utf8.endIndex, offsetBy: -length)
            spans[spans.count - 1].text.removeSubrange(start...)
            if spans[spans.count - 1].text.isEmpty { spans.removeLast() }
        }
    }

    /// Whether `text` starts (ends) with the separator as whole `Character`s: `ASCIIAffix`, on
    /// bytes where its spaces meet ASCII. The cuts above are made on UTF-8 too (`removeFirst(_:)`
    /// walks `Character`s).
    static func startsWithSeparator(_ text: String) -> Bool { ASCIIAffix.hasPrefix(text, separator) }
    static func endsWithSeparator(_ text: String) -> Bool { ASCIIAffix.hasSuffix(text, separator) }

    /// Appends the rendering of `walk.ops[range]`; returns whether every placeholder had a value
    /// (a conditional group inside decides for itself and does not count). Inside a conditional
    /// group (`stopAtMissing`) it stops at the first placeholder without a value: the group is
    /// dropped anyway, and a tooltip's groups for windows the account does not have are most of
    /// its ops. `eachFree`: inside a conditional group already (rendered once, or once per
    /// window or account): no group inside repeats.
    ///
    /// Recursive (a group renders its contents), so its own frame is kept small: what needs a
    /// value or a copy of the context (a placeholder, a group's style, the groups repeated per
    /// window or account) is done in functions of its own, whose frames are not stacked up with
    /// every level of nesting. Inlined, they made this frame 13 kB, three deep on every render
    /// (docs/performance.md, "Stack").
    private static func render(_ walk: Walk, _ range: Range<Int>, style: Style, context: RenderContext,
                               into spans: inout [Span], stopAtMissing: Bool, eachFree: Bool) -> Bool {
        var complete = true
        var i = range.lowerBound
        while i < range.upperBound {
            switch walk.op(i) {
            case .text(let k):
                append(walk.texts[k], style: style, to: &spans)
                i += 1
            case .placeholder(let k):
                if !renderPlaceholder(walk.slots.baseAddress! + k, filters: walk.filters, style: style, context: context,
                                      into: &spans) {
                    if stopAtMissing { return false }
                    complete = false
                }
                i += 1
            case .styled(let parsed, let end):
                let own = groupStyle(walk, i + 1..<end, parsed, context: context)
                if !render(walk, i + 1..<end, style: style.overlaid(by: own), context: context, into: &spans,
                           stopAtMissing: stopAtMissing, eachFree: eachFree) {
                    if stopAtMissing { return false }
                    complete = false
                }
                i = end
            case .conditional(let end, let eachWindow, let eachAccount):
                if eachAccount && context.namesAccounts && context.eachAccountIndex == nil {
                    renderEachAccount(walk, i + 1..<end, style: style, context: context, into: &spans)
                } else if eachWindow && !eachFree && context.each == nil {
                    renderEachWindow(walk, i + 1..<end, style: style, context: context, into: &spans)
                } else {
                    renderConditional(walk, i + 1..<end, style: style, context: context, into: &spans)
                }
                i = end
            }
        }
        return complete
    }

    /// Appends a placeholder's formatted value; `false` when it has none.
    @inline(never)
    private static func renderPlaceholder(_ placeholder: UnsafePointer<Program.Slot>, filters: UnsafeBufferPointer<Filter>,
                                          style: Style, context: RenderContext, into spans: inout [Span]) -> Bool {
        var value = placeholder.pointee.account == nil ? placeholder.pointee.variable.value(in: context)
            : value(of: placeholder, inItsAccount: context)
        let first = placeholder.pointee.firstFilter
        for i in first..<first + placeholder.pointee.filterCount { value = filters[i].apply(value, context: context) }
        guard let value, value.isPresent else { return false }
        // Into the last span when the style is the same, from where the value's text is.
        let last = spans.count - 1
        if last >= 0 && spans[last].style == style {
            value.append(to: &spans[last].text, now: context.view.now, localTime: context.localTime)
        } else {
            append(value.formatted(now: context.view.now, localTime: context.localTime), style: style, to: &spans)
        }
        return true
    }

    /// The value of a placeholder that names an account (`{work:5h.left}`). A function of its
    /// own: the context it makes for the account, inlined, was 1.5 kB more of every
    /// placeholder's stack frame.
    @inline(never)
    private static func value(of placeholder: UnsafePointer<Program.Slot>, inItsAccount context: RenderContext) -> Value? {
        context.forAccount(placeholder.pointee.account!).flatMap { placeholder.pointee.variable.value(in: $0) }
    }

    /// A styled group's own style: for `level`, the worst level of the windows its placeholders
    /// read (each in its own account, when the template names accounts).
    @inline(never)
    private static func groupStyle(_ walk: Walk, _ range: Range<Int>, _ parsed: StyleSpec.Parsed,
                                   context: RenderContext) -> Style {
        var own = parsed.style
        if parsed.usesLevel {
            // (A loop: an array of levels would cost a render its first use of `[Level]`.)
            var worst: Level?
            for i in range {
                guard case .placeholder(let k) = walk.op(i) else { continue }
                if let level = level(of: walk.slots.baseAddress! + k, context: context) {
                    worst = max(worst ?? level, level)
                }
            }
            own.semantic = SemanticStyle(worst ?? context.view.level)
            own.foreground = nil
        }
        return own
    }

    /// The level of the window `placeholder` reads, in the account it names when the template
    /// names accounts. (A function of its own: inlined, it made `groupStyle`'s frame 14 kB, the
    /// deepest on a render's stack.)
    @inline(never)
    private static func level(of placeholder: UnsafePointer<Program.Slot>, context: RenderContext) -> Level? {
        guard let name = placeholder.pointee.variable.windowName else { return nil }
        if context.namesAccounts, let account = placeholder.pointee.account {
            return context.forAccount(account)?.window(named: name)?.level
        }
        return context.read(window: name) { $0.pointee.level }
    }

    /// A conditional group once per account, in config order.
    @inline(never)
    private static func renderEachAccount(_ walk: Walk, _ range: Range<Int>, style: Style, context: RenderContext,
                                          into spans: inout [Span]) {
        for account in context.accounts.indices {
            var each = context
            each.eachAccountIndex = account
            renderConditional(walk, range, style: style, context: each, into: &spans)
        }
    }

    /// A conditional group once per window the template does not name.
    @inline(never)
    private static func renderEachWindow(_ walk: Walk, _ range: Range<Int>, style: Style, context: RenderContext,
                                         into spans: inout [Span]) {
        for window in context.unnamedWindows {
            var each = context
            each.each = window
            renderConditional(walk, range, style: style, context: each, into: &spans)
        }
    }

    /// A conditional group: appended only when every placeholder inside has a value. Rendered in
    /// place and taken back when one has none (a group is mostly kept, and copying every kept
    /// group's text out of an array of its own cost a tooltip a fifth of its render).
    private static func renderConditional(_ walk: Walk, _ range: Range<Int>, style: Style, context: RenderContext,
                                          into spans: inout [Span]) {
        let count = spans.count
        let lastLength = spans.last?.text.utf8.count ?? 0
        // Either `each` is set already or nothing below mentions it: no group inside repeats.
        if !render(walk, range, style: style, context: context, into: &spans, stopAtMissing: true, eachFree: true) {
            spans.removeSubrange(count...)
            if count > 0 && spans[count - 1].text.utf8.count != lastLength {
                // (The end found first, with no copy of the text alive while it is cut: a copy
                // would make the cut copy the text, and free a buffer that may be a long one.)
                let end = spans[count - 1].text.utf8.index(spans[count - 1].text.utf8.startIndex, offsetBy: lastLength)
                spans[count - 1].text.removeSubrange(end...)
            }
        }
    }

    /// Appends text, merging it into the last span when the style is the same.
    private static func append(_ text: String, style: Style, to spans: inout [Span]) {
        guard !text.isEmpty else { return }
        // (The last span's style looked at where it is: `spans.last` is a copy of the span.)
        let last = spans.count - 1
        if last >= 0 && spans[last].style == style {
            GrowingText.append(text, to: &spans[last].text)
        } else {
            spans.append(Span(text, style: style))
        }
    }
}
