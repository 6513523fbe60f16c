// What every input to every parser must satisfy, whatever the bytes: no crash, output bounded
// by the input, and errors that point into the source. Shared by the seeded fuzz tests in this
// target and by the libFuzzer targets `scripts/fuzz` builds (which compile this file with the
// module sources, so it uses public API only and imports no test framework).
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ElbowroomCore
import ElbowroomTemplate
import ElbowroomAdapters

public enum FuzzTarget: String, CaseIterable, Sendable {
    case template, config, usage, statusline, click

    /// Checks one input; returns what went wrong, or `nil`. A crash is a finding too.
    public func check(_ bytes: [UInt8]) -> String? {
        switch self {
        case .template: FuzzChecks.template(bytes)
        case .config: FuzzChecks.config(bytes)
        case .usage: FuzzChecks.usage(bytes)
        case .statusline: FuzzChecks.statusLine(bytes)
        case .click: FuzzChecks.click(bytes)
        }
    }
}

public enum FuzzChecks {
    /// A fixed clock: Sunday 2026-11-22 14:03:07 UTC.
    static let now = Date(timeIntervalSince1970: 1_795_356_187)
    static let localTime = LocalTime.fixed(offsetSeconds: 3600)

    /// The views a template is rendered against: full demo data, no data at all, and a cache
    /// whose last fetch failed.
    static let views: [UsageView] = {
        var offline = DemoReading.cache(now: now.addingTimeInterval(-7200))
        offline.fetch.recordFailure(.network, message: "network unreachable", at: now.addingTimeInterval(-30))
        return [
            UsageView(cache: DemoReading.cache(now: now), now: now, config: Config()),
            UsageView(cache: nil, now: now, config: Config()),
            UsageView(cache: offline, now: now, config: Config()),
        ]
    }()

    static let statusLine = StatusLineInput(modelName: "Opus", currentDir: "/tmp", costUSD: 1.25,
                                            contextUsedPercent: 23, windows: [])

    /// The most text a template may produce per byte of source, plus a constant: `bar(100)`
    /// turns 18 bytes into 300, `time("%c")` 9 bytes into about 25 (the buffer caps it at 511).
    static func outputBound(_ inputBytes: Int) -> Int { 64 * inputBytes + 4096 }

    // MARK: Template

    public static func template(_ bytes: [UInt8]) -> String? {
        let source = String(decoding: bytes, as: UTF8.self)
        let template: Template
        do {
            template = try Template.parse(source, name: "fuzz")
        } catch {
            return positioned(error, in: source)
        }
        let bound = outputBound(source.utf8.count)
        for (index, view) in views.enumerated() {
            let spans = template.render(view, statusLine: statusLine, localTime: localTime)
            let size = spans.reduce(0) { $0 + $1.text.utf8.count }
            if size > bound { return "a template of \(source.utf8.count) bytes rendered \(size) bytes" }
            // Escaping depends on the text, not on which view made it: one pass is enough.
            if index == 0, let problem = throughAdapters(spans, view: view, bound: bound) { return problem }
        }
        return nil
    }

    /// A template error names a real line and a column on it (or just past its end), underlines
    /// at least one character, and shows that very line.
    static func positioned(_ e: TemplateError, in source: String) -> String? {
        let lines = source.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        guard e.line >= 1, e.line <= lines.count else { return "error line \(e.line) of \(lines.count): \(e.message)" }
        let line = lines[e.line - 1]
        if e.message.hasPrefix("template too large") {
            return e.line == 1 && e.column == 1 ? nil : "size error not at 1:1"
        }
        guard e.column >= 1, e.column <= line.count + 1 else {
            return "error column \(e.column) on a line of \(line.count) characters: \(e.message)"
        }
        guard e.length >= 1 else { return "error underlines nothing: \(e.message)" }
        guard e.sourceLine == String(line) else { return "error shows another line than \(e.line): \(e.message)" }
        return plainMessage(e.message) ?? (e.description.isEmpty ? "empty description" : nil)
    }

    /// Messages are lowercase and say something.
    static func plainMessage(_ message: String) -> String? {
        guard let first = message.first else { return "empty error message" }
        return first.isUppercase ? "error message starts in upper case: \(message)" : nil
    }

    static func throughAdapters(_ spans: [Span], view: UsageView, bound: Int) -> String? {
        let frame = RenderedFrame(spans: spans, tooltip: spans, view: view)
        for adapter in AdapterRegistry.builtIn {
            let output = adapter.render(frame)
            // Escaping may grow text (Pango entities, tmux `##`, JSON `\u0000`): at most 8 times.
            if output.text.utf8.count > 8 * bound + 4096 {
                return "adapter \(adapter.name) wrote \(output.text.utf8.count) bytes for a bound of \(bound)"
            }
        }
        return nil
    }

    // MARK: Config

    public static func config(_ bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        let config: Config
        do {
            config = try Config.parse(text, file: "fuzz.toml")
        } catch {
            let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
            guard error.line >= 1, error.line <= lines.count else {
                return "config error line \(error.line) of \(lines.count): \(error.message)"
            }
            if error.message.hasPrefix("config file too large") { return nil }
            // Columns count Unicode scalars (a combining mark is a column of its own).
            let length = lines[error.line - 1].unicodeScalars.count
            guard error.column >= 1, error.column <= length + 1 else {
                return "config error column \(error.column) on a line of \(length) scalars: \(error.message)"
            }
            return plainMessage(error.message)
        }
        // What a config allows must be usable: its templates parse or fail with a position, and
        // the palette builds.
        _ = Palette(config: config)
        for (_, text) in config.templates {
            if let problem = template(Array(text.utf8)) { return "config template: \(problem)" }
        }
        guard config.maxAge >= 1, config.staleAfter >= 1, config.timeout > 0,
              config.thresholds.critical <= config.thresholds.warn else {
            return "config accepted out-of-range numbers"
        }
        return nil
    }

    // MARK: Usage and status-line JSON

    public static func usage(_ bytes: [UInt8]) -> String? {
        guard let reading = try? UsageDecoder.decode(Data(bytes), observedAt: now) else { return nil }
        return renderReading(reading, statusLine: nil, inputBytes: bytes.count)
    }

    public static func statusLine(_ bytes: [UInt8]) -> String? {
        guard let input = StatusLineInput.decode(Data(bytes), observedAt: now) else { return nil }
        // Bounded where they are read: no `$inf`, no context past 100 %, no reset in years.
        if let cost = input.costUSD, !(abs(cost) <= ReadingLimits.maxMoney / 100) { return "claude.cost \(cost) out of bounds" }
        if let context = input.contextUsedPercent, !(0...100).contains(context) { return "claude.context \(context) out of bounds" }
        for window in input.windows {
            if let reset = window.resetsAt, reset > WindowCatalog.latestPlausibleReset(forKey: window.key, observedAt: now) {
                return "window \(window.key) resets at \(reset), further ahead than it lasts"
            }
        }
        guard let reading = input.reading(at: now) else {
            return renderReading(nil, statusLine: input, inputBytes: bytes.count)
        }
        return renderReading(reading, statusLine: input, inputBytes: bytes.count)
    }

    /// Every shipped template through every adapter, as a prompt would show the data.
    static func renderReading(_ reading: Reading?, statusLine: StatusLineInput?, inputBytes: Int) -> String? {
        for window in reading?.windows ?? [] {
            guard window.used.isFinite else { return "window \(window.key) decoded a non-finite percentage" }
        }
        var fetch = FetchState()
        fetch.recordSuccess(at: now)
        let cache = CacheFile(account: "fuzz", reading: reading, fetch: fetch)
        let bound = 64 * inputBytes + 64 * 1024
        for offset: TimeInterval in [0, 7200, 40 * 86400] {
            let at = now.addingTimeInterval(offset)
            let view = UsageView(cache: cache, now: at, config: Config())
            for (index, template) in shipped.enumerated() {
                let spans = template.render(view, statusLine: statusLine, localTime: localTime)
                let size = spans.reduce(0) { $0 + $1.text.utf8.count }
                if size > bound { return "\(template.name) rendered \(size) bytes from \(inputBytes) bytes of JSON" }
                // Through the adapters: "full" shows every window and label, the last ("claude") the status line.
                if offset == 0, template.name == "full" || index == shipped.count - 1,
                   let problem = throughAdapters(spans, view: view, bound: bound) {
                    return problem
                }
            }
        }
        return nil
    }

    static let shipped: [Template] = TemplateLibrary.shipped.map { try! Template.parse($0.source, name: $0.name) }

    // MARK: Click events

    public static func click(_ bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard let event = ClickEventParser.parse(line: String(line)) else { continue }
            // Whatever the button number, the predicates are exclusive.
            let flags = [event.isLeft, event.isMiddle, event.isRight, event.isScrollUp, event.isScrollDown]
            if flags.filter({ $0 }).count > 1 { return "button \(event.button) is two buttons" }
        }
        return nil
    }
}
